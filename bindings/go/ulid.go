package samekey

/*
#include <stdlib.h>
#include "samekey.h"
*/
import "C"

import (
	"encoding/binary"
	"time"
	"unicode/utf8"
	"unsafe"
)

// ULID is a deterministic id: a 48-bit millisecond timestamp and 80 hash bits.
type ULID [16]byte

// String is the 26-character ULID text.
func (u ULID) String() string {
	var out [27]C.char
	var msg *C.char
	if err := status(C.samekey_ulid_format((*C.uint8_t)(&u[0]), &out[0], &msg), msg); err != nil {
		panic(err) // 16 bytes always format
	}
	return C.GoString(&out[0])
}

// UUID is the same 128 bits as lowercase 8-4-4-4-12 text.
func (u ULID) UUID() string {
	var out [37]C.char
	var msg *C.char
	if err := status(C.samekey_ulid_uuid((*C.uint8_t)(&u[0]), &out[0], &msg), msg); err != nil {
		panic(err)
	}
	return C.GoString(&out[0])
}

// TimestampMs is the millisecond timestamp in the first 48 bits.
func (u ULID) TimestampMs() int64 {
	var b [8]byte
	copy(b[2:], u[:6])
	return int64(binary.BigEndian.Uint64(b[:]))
}

// Time is the timestamp as a UTC time.
func (u ULID) Time() time.Time {
	return time.UnixMilli(u.TimestampMs()).UTC()
}

// MarshalText writes the ULID text (so encoding/json writes a string).
func (u ULID) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses ULID text.
func (u *ULID) UnmarshalText(text []byte) error {
	parsed, err := ParseULID(string(text))
	if err == nil {
		*u = parsed
	}
	return err
}

// ParseULID parses ULID text in either case (ErrInvalidULID otherwise).
func ParseULID(text string) (ULID, error) {
	var u ULID
	b := []byte(text)
	var msg *C.char
	err := status(C.samekey_ulid_parse(bytesPtr(b), C.size_t(len(b)), (*C.uint8_t)(&u[0]), &msg), msg)
	return u, err
}

// Millis converts a time to integer milliseconds, flooring sub-millisecond precision.
func Millis(t time.Time) int64 {
	ms := t.UnixMilli()
	if t.Before(time.UnixMilli(ms)) { // UnixMilli truncates toward zero before 1970
		ms--
	}
	return ms
}

// Options are the settings of a derivation; the zero value is scheme v1, no namespace,
// no secret.
type Options struct {
	Scheme    string // "v1" (default), "v2", or "v0" (legacy)
	Namespace string
	Secret    []byte // nil: not keyed
}

func (o Options) scheme() string {
	if o.Scheme == "" {
		return "v1"
	}
	return o.Scheme
}

func schemeCode(name string) (byte, error) {
	cs := cString(name)
	defer free(cs)
	var code C.uint8_t
	var msg *C.char
	err := status(C.samekey_scheme_code(cs, &code, &msg), msg)
	return byte(code), err
}

// Fields converts text fields to the byte fields the derivations take.
func Fields(texts ...string) [][]byte {
	out := make([][]byte, len(texts))
	for i, s := range texts {
		out[i] = []byte(s)
	}
	return out
}

// appendItem appends a little-endian u32 length and the bytes (samekey-wire's packing).
func appendItem(buf, item []byte) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(item)))
	return append(buf, item...)
}

// pack builds a request: scheme codes (primary first), the secret flag, the field count,
// then namespace, secret and fields.
func pack(codes []byte, namespace string, secret []byte, fields [][]byte) ([]byte, error) {
	if !utf8.ValidString(namespace) {
		return nil, newError("invalid_string", "the namespace is not valid UTF-8")
	}
	if len(fields) > 255 {
		return nil, newError("invalid_argument", "at most 255 fields in one request")
	}
	buf := make([]byte, 0, 64)
	buf = append(buf, byte(len(codes)))
	buf = append(buf, codes...)
	hasSecret := byte(0)
	if secret != nil {
		hasSecret = 1
	}
	buf = append(buf, hasSecret, byte(len(fields)))
	buf = appendItem(buf, []byte(namespace))
	if secret != nil {
		buf = appendItem(buf, secret)
	}
	for _, f := range fields {
		buf = appendItem(buf, f)
	}
	return buf, nil
}

// DeriveULID is the deterministic id of fields at ms milliseconds since the epoch.
func DeriveULID(ms int64, opts Options, fields ...[]byte) (ULID, error) {
	code, err := schemeCode(opts.scheme())
	if err != nil {
		return ULID{}, err
	}
	return deriveCodes([]byte{code}, ms, opts.Namespace, opts.Secret, fields)
}

func deriveCodes(codes []byte, ms int64, namespace string, secret []byte, fields [][]byte) (ULID, error) {
	var u ULID
	packed, err := pack(codes, namespace, secret, fields)
	if err != nil {
		return u, err
	}
	var msg *C.char
	err = status(C.samekey_derive(bytesPtr(packed), C.size_t(len(packed)), C.int64_t(ms), (*C.uint8_t)(&u[0]), &msg), msg)
	return u, err
}

// DeriveULIDAt is DeriveULID at a time (floored to the millisecond).
func DeriveULIDAt(t time.Time, opts Options, fields ...[]byte) (ULID, error) {
	return DeriveULID(Millis(t), opts, fields...)
}

// ULIDMessage is the exact byte string hashed for an id, to debug a mismatch.
func ULIDMessage(opts Options, fields ...[]byte) ([]byte, error) {
	code, err := schemeCode(opts.scheme())
	if err != nil {
		return nil, err
	}
	packed, err := pack([]byte{code}, opts.Namespace, nil, fields)
	if err != nil {
		return nil, err
	}
	var out *C.uint8_t
	var n C.size_t
	var msg *C.char
	if err := status(C.samekey_ulid_message(bytesPtr(packed), C.size_t(len(packed)), &out, &n, &msg), msg); err != nil {
		return nil, err
	}
	defer C.samekey_bytes_free(out, n)
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// Deriver derives ids for one scheme, namespace and secret, checked once; safe for
// concurrent use.
type Deriver struct {
	code      byte
	namespace string
	secret    []byte
}

// NewDeriver checks the settings (scheme, v0 limits, empty secret) once.
func NewDeriver(opts Options) (*Deriver, error) {
	cs := cString(opts.scheme())
	defer free(cs)
	ns := []byte(opts.Namespace)
	var code C.uint8_t
	var msg *C.char
	err := status(C.samekey_prepare_deriver(cs, bytesPtr(ns), C.size_t(len(ns)), bytesPtr(opts.Secret),
		C.size_t(len(opts.Secret)), C.bool(opts.Secret != nil), &code, &msg), msg)
	if err != nil {
		return nil, err
	}
	return &Deriver{code: byte(code), namespace: opts.Namespace, secret: opts.Secret}, nil
}

// Derive is the id of fields at ms.
func (d *Deriver) Derive(ms int64, fields ...[]byte) (ULID, error) {
	return deriveCodes([]byte{d.code}, ms, d.namespace, d.secret, fields)
}

// DeriveManyText is DeriveMany returning the ULID texts, made in the same library call.
func (d *Deriver) DeriveManyText(ms []int64, rows [][][]byte) ([]string, error) {
	packed, width, err := d.packRows(ms, rows)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	buf := make([]byte, 26*len(rows))
	var msg *C.char
	err = status(C.samekey_derive_many_text(bytesPtr(packed), C.size_t(len(packed)), C.size_t(width),
		(*C.int64_t)(unsafe.Pointer(&ms[0])), C.size_t(len(ms)), (*C.char)(unsafe.Pointer(&buf[0])), &msg), msg)
	if err != nil {
		return nil, err
	}
	// buf is not touched again, so the strings may share it instead of a copy.
	all := unsafe.String(&buf[0], len(buf))
	out := make([]string, len(rows))
	for i := range out {
		out[i] = all[26*i : 26*i+26]
	}
	return out, nil
}

func (d *Deriver) packRows(ms []int64, rows [][][]byte) ([]byte, int, error) {
	if len(ms) != len(rows) {
		return nil, 0, newError("invalid_argument", "one time per row")
	}
	if len(rows) == 0 {
		return nil, 0, nil
	}
	width := len(rows[0])
	size := 16 + len(d.namespace) + len(d.secret)
	for _, row := range rows {
		for _, f := range row {
			size += 4 + len(f)
		}
	}
	packed, err := pack([]byte{d.code}, d.namespace, d.secret, nil)
	if err != nil {
		return nil, 0, err
	}
	packed = append(make([]byte, 0, size), packed...)
	for _, row := range rows {
		if len(row) != width {
			return nil, 0, newError("invalid_argument", "every row needs the same number of fields")
		}
		for _, f := range row {
			packed = appendItem(packed, f)
		}
	}
	return packed, width, nil
}

// DeriveMany derives one id per row in a single call into the library; every row has
// the same number of fields. It pays cgo's fixed cost once for all rows.
func (d *Deriver) DeriveMany(ms []int64, rows [][][]byte) ([]ULID, error) {
	packed, width, err := d.packRows(ms, rows)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	out := make([]ULID, len(rows))
	var msg *C.char
	err = status(C.samekey_derive_many(bytesPtr(packed), C.size_t(len(packed)), C.size_t(width),
		(*C.int64_t)(unsafe.Pointer(&ms[0])), C.size_t(len(ms)), (*C.uint8_t)(unsafe.Pointer(&out[0])), &msg), msg)
	return out, err
}
