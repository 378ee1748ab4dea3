package samekey

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

type vector map[string]any

func vectorFile() string {
	if p := os.Getenv("SAMEKEY_VECTORS"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "test-vectors", "samekey.json")
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	text, err := os.ReadFile(vectorFile())
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema  string   `json:"schema"`
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "samekey-test-vectors/1" || len(doc.Vectors) == 0 {
		t.Fatalf("unexpected vector file %s", vectorFile())
	}
	return doc.Vectors
}

func str(v vector, k string) string { s, _ := v[k].(string); return s }

// textOf is a text input (spec §10.1): a string, or {"utf16": ...} code units, which a
// Go string holds only as valid UTF-8: the checked conversion fails on a lone surrogate,
// as the host conversion of spec §2.2 does (utf16.Decode would repair it to U+FFFD).
func textOf(t any) (string, error) {
	o, ok := t.(map[string]any)
	if !ok {
		return t.(string), nil
	}
	raw, _ := hex.DecodeString(o["utf16"].(string))
	units := make([]uint16, len(raw)/2)
	for i := range units {
		units[i] = uint16(raw[2*i])<<8 | uint16(raw[2*i+1])
	}
	for i := 0; i < len(units); i++ {
		if utf16.IsSurrogate(rune(units[i])) {
			if i+1 >= len(units) || utf16.DecodeRune(rune(units[i]), rune(units[i+1])) == utf8.RuneError {
				return "", newError("invalid_string", "a lone UTF-16 surrogate is not text")
			}
			i++
		}
	}
	return string(utf16.Decode(units)), nil
}

func fieldsOf(v vector) ([][]byte, error) {
	var out [][]byte
	for _, f := range v["fields"].([]any) {
		if o, ok := f.(map[string]any); ok && o["hex"] != nil {
			b, _ := hex.DecodeString(o["hex"].(string))
			out = append(out, b)
			continue
		}
		t, err := textOf(f)
		if err != nil {
			return nil, err
		}
		out = append(out, []byte(t))
	}
	return out, nil
}

// inputs are a vector's namespace and fields, converted as the host would (first).
func inputs(v vector) (string, [][]byte, error) {
	ns, err := textOf(v["namespace"])
	if err != nil {
		return "", nil, err
	}
	fields, err := fieldsOf(v)
	return ns, fields, err
}

func secretOf(v vector) []byte {
	h, ok := v["secret_hex"].(string)
	if !ok {
		return nil
	}
	b, _ := hex.DecodeString(h)
	if b == nil {
		b = []byte{}
	}
	return b
}

// ms is a vector's time as Go gives it: an int64 of milliseconds. A fraction (spec §10.1)
// has no int64 and Go's API takes no float, so it fails here, as the conversion to the
// host's time fails, with the code spec §8.2 gives it.
// An integer beyond int64 is given as int64's bound of the same sign (spec §10.1), which
// fails the range check in the same place; Go's float-to-int conversion would wrap it.
func ms(v vector) (int64, error) {
	t := v["timestamp_ms"].(float64)
	if t != math.Trunc(t) {
		return 0, newError("invalid_timestamp", "not an integer number of milliseconds")
	}
	switch {
	case t >= math.MaxInt64:
		return math.MaxInt64, nil
	case t <= math.MinInt64:
		return math.MinInt64, nil
	}
	return int64(t), nil
}

// ring makes the vector's key ring: every name converted, then the ring checked (spec §9.1).
func ring(v vector) (*KeyRing, error) {
	var names []Scheme
	for _, s := range v["accepted"].([]any) {
		name, err := textOf(s)
		if err != nil {
			return nil, err
		}
		names = append(names, Scheme(name))
	}
	return KeyRingOf(names)
}

// texts converts the vector's string inputs at keys, in order (spec §10.1); nil stays "".
func texts(v vector, keys ...string) ([]string, error) {
	out := make([]string, len(keys))
	for i, k := range keys {
		if v[k] == nil {
			continue
		}
		t, err := textOf(v[k])
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

func parentOf(v vector) (*string, error) {
	if v["parent"] == nil {
		return nil, nil
	}
	p, err := textOf(v["parent"])
	return &p, err
}

// run computes a vector's outputs through the public API. Every string input is converted
// first (spec §2.2): a host conversion, before every check of the op.
func run(v vector) (map[string]any, error) {
	op := str(v, "op")
	var r *KeyRing
	if _, ok := v["accepted"]; ok {
		// A ring is checked when it is made, before the op's inputs (spec §9.1).
		var err error
		if r, err = ring(v); err != nil {
			return nil, err
		}
	}
	in, err := texts(v, "scheme", "json", "content_hash", "rfc3339", "text", "ulid", "stored", "incoming")
	if err != nil {
		return nil, err
	}
	scheme, jsonText, contentHash, rfc3339, text, ulidText, stored, incoming := in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7]
	if _, ok := v["scheme"]; ok && scheme == "" {
		// Options{Scheme: ""} means the default (v1) in Go's zero-value idiom, so an
		// explicitly empty scheme name goes to the same check every scheme name passes.
		if _, err := coreSchemeCode(Scheme(scheme)); err != nil {
			return nil, err
		}
	}
	switch op {
	case "ulid":
		ns, fields, err := inputs(v)
		if err != nil {
			return nil, err
		}
		t, err := ms(v)
		if err != nil {
			return nil, err
		}
		opts := Options{Scheme: Scheme(scheme), Namespace: ns, Secret: secretOf(v)}
		id, err := DeriveULID(t, opts, fields...)
		if err != nil {
			return nil, err
		}
		msg, err := ULIDMessage(opts, fields...)
		if err != nil {
			return nil, err
		}
		return map[string]any{"ulid": id.String(), "uuid": id.UUID(), "message_hex": hex.EncodeToString(msg)}, nil
	case "content":
		data, _ := hex.DecodeString(str(v, "data_hex"))
		h, err := ContentHash(Scheme(scheme), data)
		return map[string]any{"hash": h}, err
	case "content_json":
		// The hash first: it checks the scheme before the text (spec §6.1).
		h, err := ContentHashJSONText(Scheme(scheme), []byte(jsonText))
		if err != nil {
			return nil, err
		}
		c, err := CanonicalJSONText([]byte(jsonText))
		return map[string]any{"canonical": c, "hash": h}, err
	case "revision":
		parent, err := parentOf(v)
		if err != nil {
			return nil, err
		}
		opts := RevisionOptions{Scheme: Scheme(scheme), Secret: secretOf(v), Parent: parent}
		key, err := RevisionKey(contentHash, opts)
		if err != nil {
			return nil, err
		}
		msg, err := RevisionMessage(contentHash, opts)
		return map[string]any{"key": key, "message_hex": hex.EncodeToString(msg)}, err
	case "timestamp":
		t, err := ParseRFC3339(rfc3339)
		return map[string]any{"timestamp_ms": float64(t)}, err
	case "ulid_parse":
		id, err := ParseULID(text)
		return map[string]any{"ulid": id.String(), "uuid": id.UUID(), "timestamp_ms": float64(id.TimestampMs())}, err
	case "key_parse":
		k, err := ParseKey(text)
		if err != nil {
			return nil, err
		}
		out := map[string]any{"kind": k.Kind, "scheme": string(k.Scheme), "canonical": k.Canonical}
		if r != nil {
			s, err := r.SchemeOfKey(text)
			if err != nil {
				return nil, err
			}
			out["scheme"] = string(s)
		}
		return out, nil
	case "verify":
		ns, fields, err := inputs(v)
		if err != nil {
			return nil, err
		}
		t, err := ms(v)
		if err != nil {
			return nil, err
		}
		id, err := ParseULID(ulidText)
		if err != nil {
			return nil, err
		}
		s, err := r.VerifyULID(id, t, ns, secretOf(v), fields...)
		return map[string]any{"scheme": string(s)}, err
	case "candidates":
		ns, fields, err := inputs(v)
		if err != nil {
			return nil, err
		}
		t, err := ms(v)
		if err != nil {
			return nil, err
		}
		found, err := r.CandidateULIDs(t, ns, secretOf(v), fields...)
		list := []any{}
		for _, c := range found {
			list = append(list, map[string]any{"scheme": string(c.Scheme), "ulid": c.ULID.String()})
		}
		return map[string]any{"candidates": list}, err
	case "ring_revision":
		parent, err := parentOf(v)
		if err != nil {
			return nil, err
		}
		key, err := r.RevisionKey(contentHash, parent, secretOf(v))
		return map[string]any{"key": key}, err
	case "needs_write":
		// Go's strings have no null: "" is the absent stored hash (spec §9.3).
		w, err := NeedsWrite(stored, incoming)
		return map[string]any{"needs_write": w}, err
	}
	return nil, errors.New("unknown op " + op)
}

// runOne is run that turns a panic (a malformed vector) into that vector's failure, so one
// vector never ends the run (spec §10.1).
func runOne(v vector) (got map[string]any, err error) {
	defer func() {
		if p := recover(); p != nil {
			got, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return run(v)
}

func TestEveryVector(t *testing.T) {
	vectors := loadVectors(t)
	seen := map[string]bool{}
	for _, v := range vectors {
		id := str(v, "id")
		if seen[id] {
			t.Fatalf("duplicate vector id %s", id)
		}
		seen[id] = true
		got, err := runOne(v)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("%s: %v", id, err)
				continue
			}
			got = map[string]any{"error": e.Code}
		}
		if want := v["expect"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: expected %v, got %v", id, want, got)
		}
	}
	t.Logf("%d vectors from %s", len(vectors), vectorFile())
}
