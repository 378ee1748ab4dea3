package samekey

/*
#include "samekey.h"
*/
import "C"

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"unicode/utf8"
)

func hashText(out *[72]C.char) string { return C.GoString(&out[0]) }

// ContentHash is "sha256:<hex>" (scheme v1) or "blake3:<hex>" (v2) of data.
func ContentHash(scheme Scheme, data []byte) (string, error) {
	sp, sn := textArg(string(scheme))
	var out [72]C.char
	var msg *C.char
	err := status(C.samekey_content_hash(sp, sn, bytesPtr(data), C.size_t(len(data)), &out[0], &msg), msg)
	return hashText(&out), err
}

// ContentHashReader streams r to its end through the hash, in constant memory.
func ContentHashReader(scheme Scheme, r io.Reader) (string, error) {
	sp, sn := textArg(string(scheme))
	var h *C.SamekeyHasher
	var msg *C.char
	if err := status(C.samekey_hasher_new(sp, sn, &h, &msg), msg); err != nil {
		return "", err
	}
	defer C.samekey_hasher_free(h)
	buf := make([]byte, 1<<20)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			if err := status(C.samekey_hasher_update(h, bytesPtr(buf[:n]), C.size_t(n), &msg), msg); err != nil {
				return "", err
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", newError("io_error", err.Error())
		}
	}
	var out [72]C.char
	err := status(C.samekey_hasher_finalize(h, &out[0], &msg), msg)
	return hashText(&out), err
}

// CanonicalJSONText is the RFC 8785 canonical form of JSON text, parsed strictly.
func CanonicalJSONText(text []byte) (string, error) {
	return canonical(text, false)
}

func canonical(text []byte, fromDoubles bool) (string, error) {
	var out *C.char
	var msg *C.char
	if err := status(C.samekey_canonical_json(bytesPtr(text), C.size_t(len(text)), C.bool(fromDoubles), &out, &msg), msg); err != nil {
		return "", err
	}
	defer C.samekey_string_free(out)
	return C.GoString(out), nil
}

// ContentHashJSONText is the content hash of JSON text's canonical form.
func ContentHashJSONText(scheme Scheme, text []byte) (string, error) {
	return hashJSON(scheme, text, false)
}

func hashJSON(scheme Scheme, text []byte, fromDoubles bool) (string, error) {
	sp, sn := textArg(string(scheme))
	var out [72]C.char
	var msg *C.char
	err := status(C.samekey_content_hash_json(sp, sn, bytesPtr(text), C.size_t(len(text)), C.bool(fromDoubles), &out[0], &msg), msg)
	return hashText(&out), err
}

// CanonicalJSON is the canonical JSON of a Go value built from maps with string keys,
// slices, strings, bools, nil, floats and integers. Integers beyond ±(2^53-1) are
// ErrNumberOutOfRange (spec §6.2); NaN and infinities too; invalid UTF-8 is
// ErrInvalidString; other types are a *TypeError.
func CanonicalJSON(v any) (string, error) {
	text, err := jsonOf(v)
	if err != nil {
		return "", err
	}
	return canonical(text, true)
}

// ContentHashJSON is the content hash of CanonicalJSON(v). The scheme name is converted
// before the value (spec §6.2): a name that is not UTF-8 is ErrInvalidString first; the
// value's errors come before the scheme's own (ErrUnknownScheme, ErrSchemeNotSupported).
func ContentHashJSON(scheme Scheme, v any) (string, error) {
	if !utf8.ValidString(string(scheme)) {
		return "", newError("invalid_string", "the scheme name is not valid UTF-8")
	}
	text, err := jsonOf(v)
	if err != nil {
		return "", err
	}
	return hashJSON(scheme, text, true)
}

// TypeError reports a Go value that is not JSON data.
type TypeError struct{ Type string }

func (e *TypeError) Error() string { return "samekey: " + e.Type + " is not JSON data" }

// The core's JSON limits, checked here on Go values before they become JSON text.
var (
	maxDepth       = int(C.samekey_json_max_depth())
	maxSafeInteger = int64(C.samekey_json_max_safe_integer())
)

// check walks v applying the host rules; the JSON text encoding/json then writes is
// only transport (numbers are read back as the doubles they are).
func check(v reflect.Value, depth int) error {
	if depth > maxDepth {
		return newError("nesting_too_deep", fmt.Sprintf("JSON nesting is deeper than %d levels", maxDepth))
	}
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return check(v.Elem(), depth)
	case reflect.Bool:
		return nil
	case reflect.String:
		if v.Type() == jsonNumber {
			return checkNumberText(v.String())
		}
		if !utf8.ValidString(v.String()) {
			return newError("invalid_string", "a string is not valid UTF-8")
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n := v.Int(); n > maxSafeInteger || n < -maxSafeInteger {
			return newError("number_out_of_range", fmt.Sprintf("%d is beyond ±(2^53-1)", n))
		}
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n := v.Uint(); n > uint64(maxSafeInteger) {
			return newError("number_out_of_range", fmt.Sprintf("%d is beyond 2^53-1", n))
		}
		return nil
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return newError("number_out_of_range", fmt.Sprintf("%v is not a finite number", f))
		}
		return nil
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return &TypeError{Type: v.Type().String()}
		}
		for i := 0; i < v.Len(); i++ {
			if err := check(v.Index(i), depth+1); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return &TypeError{Type: v.Type().String()}
		}
		iter := v.MapRange()
		for iter.Next() {
			if !utf8.ValidString(iter.Key().String()) {
				return newError("invalid_string", "an object key is not valid UTF-8")
			}
			if err := check(iter.Value(), depth+1); err != nil {
				return err
			}
		}
		return nil
	default:
		return &TypeError{Type: v.Type().String()}
	}
}

var jsonNumber = reflect.TypeOf(json.Number(""))

// checkNumberText applies spec §6.1 to a json.Number, which is JSON number text: an
// integer literal beyond ±(2^53-1) is ErrNumberOutOfRange, as in JSON text, where the
// double it becomes would silently round it.
func checkNumberText(n string) error {
	if n == "" || !(n[0] == '-' || (n[0] >= '0' && n[0] <= '9')) {
		return newError("invalid_json", fmt.Sprintf("json.Number %q is not a JSON number", n))
	}
	_, err := canonical([]byte(n), false)
	return err
}

func jsonOf(v any) ([]byte, error) {
	if err := check(reflect.ValueOf(v), 0); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, &TypeError{Type: err.Error()}
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
