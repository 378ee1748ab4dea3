package samekey

/*
#include <stdlib.h>
#include "samekey.h"
*/
import "C"

import (
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"time"
	"unsafe"
)

// ULID is a deterministic id: a 48-bit millisecond timestamp and 80 hash bits. It is
// comparable, so it serves as a map key; the zero value is the all-zero ULID.
type ULID [16]byte

// crockford is the ULID alphabet (spec §4.3).
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// String is the 26-character ULID text.
func (u ULID) String() string {
	var out [26]byte
	u.encode(&out)
	return string(out[:])
}

// AppendText appends the ULID text to b (encoding.TextAppender).
func (u ULID) AppendText(b []byte) ([]byte, error) {
	var out [26]byte
	u.encode(&out)
	return append(b, out[:]...), nil
}

// encode writes the text in Go: fmt, logs and JSON call String constantly, and a C call
// there would cost more than the derivation. TestTextIsTheCoresText holds it to the
// core's formatting for every vector and a million random ids.
func (u ULID) encode(out *[26]byte) {
	// Written out, not a loop: constant shifts, independent lookups (as in the core).
	hi := binary.BigEndian.Uint64(u[:8])
	lo := binary.BigEndian.Uint64(u[8:])
	*out = [26]byte{
		crockford[hi>>61], crockford[hi>>56&31], crockford[hi>>51&31], crockford[hi>>46&31],
		crockford[hi>>41&31], crockford[hi>>36&31], crockford[hi>>31&31], crockford[hi>>26&31],
		crockford[hi>>21&31], crockford[hi>>16&31], crockford[hi>>11&31], crockford[hi>>6&31],
		crockford[hi>>1&31], crockford[(hi<<4|lo>>60)&31], crockford[lo>>55&31], crockford[lo>>50&31],
		crockford[lo>>45&31], crockford[lo>>40&31], crockford[lo>>35&31], crockford[lo>>30&31],
		crockford[lo>>25&31], crockford[lo>>20&31], crockford[lo>>15&31], crockford[lo>>10&31],
		crockford[lo>>5&31], crockford[lo&31],
	}
}

// crockfordValue maps the canonical text's characters to their values; 0xff: not one.
var crockfordValue = func() (v [256]byte) {
	for i := range v {
		v[i] = 0xff
	}
	for i := 0; i < len(crockford); i++ {
		v[crockford[i]] = byte(i)
	}
	return v
}()

// decodeCanonical is the id of the core's own text of it (26 upper-case digits, the first
// at most 7), in Go: CandidateULIDs reads ids the core wrote, and a C call an id there was
// a third of the call (just bench-matrix). Anything else is false; ParseULID takes it.
// TestTextIsTheCoresText holds it to the core's formatting.
func decodeCanonical(text string) (ULID, bool) {
	var u ULID
	if len(text) != 26 || crockfordValue[text[0]] > 7 {
		return u, false
	}
	var hi, lo uint64
	for i := 0; i < 26; i++ {
		d := crockfordValue[text[i]]
		if d == 0xff {
			return u, false
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(d)
	}
	binary.BigEndian.PutUint64(u[:8], hi)
	binary.BigEndian.PutUint64(u[8:], lo)
	return u, true
}

// coreText is the core's formatting of u, for the test that holds encode to it.
func coreText(u ULID) string {
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
func (u ULID) MarshalText() ([]byte, error) { return u.AppendText(make([]byte, 0, 26)) }

// UnmarshalText parses ULID text.
func (u *ULID) UnmarshalText(text []byte) error {
	parsed, err := parseULID(text)
	if err == nil {
		*u = parsed
	}
	return err
}

// Value stores the ULID as its 26-character text (database/sql/driver.Valuer). For a
// 16-byte binary column pass u[:]; for a UUID column, u.UUID().
func (u ULID) Value() (driver.Value, error) { return u.String(), nil }

// Scan reads a ULID from a database column (database/sql.Scanner): text (string or
// []byte, either case) or the 16 raw bytes. For a nullable column scan into
// sql.Null[samekey.ULID].
func (u *ULID) Scan(src any) error {
	switch v := src.(type) {
	case string:
		return u.UnmarshalText([]byte(v))
	case []byte:
		if len(v) == 16 {
			copy(u[:], v)
			return nil
		}
		return u.UnmarshalText(v)
	case nil:
		return newError("invalid_argument", "cannot scan NULL into a samekey.ULID; scan into sql.Null[samekey.ULID]")
	default:
		return newError("invalid_argument", fmt.Sprintf("cannot scan %T into a samekey.ULID", src))
	}
}

// ParseULID parses ULID text in either case (ErrInvalidULID otherwise).
func ParseULID(text string) (ULID, error) {
	return parseULID(unsafe.Slice(unsafe.StringData(text), len(text)))
}

// parseULID reads text without keeping it (the C side only reads during the call).
func parseULID(text []byte) (ULID, error) {
	var u ULID
	p, n, out := bytesPtr(text), C.size_t(len(text)), (*C.uint8_t)(&u[0])
	if s := C.samekey_ulid_parse(p, n, out, nil); s != C.SAMEKEY_STATUS_OK {
		var msg *C.char
		return ULID{}, status(C.samekey_ulid_parse(p, n, out, &msg), msg) // again, for the message
	}
	return u, nil
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
	Scheme    Scheme // V1 when empty; V2; V0 (legacy)
	Namespace string
	Secret    []byte // nil: not keyed
	// MaxThreads caps the threads of a Deriver's DeriveMany and DeriveManyText, which
	// split batches of ParallelMinRows rows or more over the cores; 0 is one per core.
	MaxThreads int
}

// ParallelMinRows is the smallest batch that DeriveMany splits over threads: below it,
// starting threads costs more than it saves.
var ParallelMinRows = int(C.samekey_parallel_min_rows())

// Fields converts text fields to the byte fields the derivations take.
func Fields(texts ...string) [][]byte {
	out := make([][]byte, len(texts))
	for i, s := range texts {
		out[i] = []byte(s)
	}
	return out
}

// appendItem appends a little-endian u32 length and the bytes (samekey-wire's packing).
func appendItem[T string | []byte](buf []byte, item T) []byte {
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(item)))
	return append(buf, item...)
}

// pack appends a request to dst: scheme codes (primary first), the secret flag, the field
// count, then namespace, secret and fields.
func pack(dst []byte, codes []byte, namespace string, secret []byte, fields [][]byte) ([]byte, error) {
	buf := append(dst, byte(len(codes)))
	buf = append(buf, codes...)
	hasSecret := byte(0)
	if secret != nil {
		hasSecret = 1
	}
	buf = append(buf, hasSecret)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(fields)))
	buf = appendItem(buf, namespace)
	if secret != nil {
		buf = appendItem(buf, secret)
	}
	for _, f := range fields {
		buf = appendItem(buf, f)
	}
	return buf, nil
}

// packStack is the size of the stack buffer a single derivation packs into; larger
// requests grow onto the heap.
const packStack = 256

// DeriveULID is the deterministic id of fields at ms milliseconds since the epoch.
// Seconds passed as ms give a valid id of January 1970 that nothing refuses: prefer
// DeriveULIDAt with a time.Time, or check integers from elsewhere with LikelySeconds.
func DeriveULID(ms int64, opts Options, fields ...[]byte) (ULID, error) {
	code, err := schemeCode(opts.Scheme)
	if err != nil {
		return ULID{}, err
	}
	return deriveCodes([]byte{code}, ms, opts.Namespace, opts.Secret, fields)
}

// deriveCodes is one C call on a request packed on the stack: no allocation when the
// inputs fit and the derivation succeeds.
func deriveCodes(codes []byte, ms int64, namespace string, secret []byte, fields [][]byte) (ULID, error) {
	var u ULID
	var stack [packStack]byte
	packed, err := pack(stack[:0], codes, namespace, secret, fields)
	if err != nil {
		return u, err
	}
	p, n, out := bytesPtr(packed), C.size_t(len(packed)), (*C.uint8_t)(&u[0])
	// No message pointer on the first try: cgo checks a **char argument at every call.
	if s := C.samekey_derive(p, n, C.int64_t(ms), out, nil); s != C.SAMEKEY_STATUS_OK {
		var msg *C.char
		return u, status(C.samekey_derive(p, n, C.int64_t(ms), out, &msg), msg) // again, for the message
	}
	return u, nil
}

// DeriveULIDAt is DeriveULID at a time (floored to the millisecond).
func DeriveULIDAt(t time.Time, opts Options, fields ...[]byte) (ULID, error) {
	return DeriveULID(Millis(t), opts, fields...)
}

// ULIDMessage is the exact byte string hashed for an id, to debug a mismatch.
func ULIDMessage(opts Options, fields ...[]byte) ([]byte, error) {
	code, err := schemeCode(opts.Scheme)
	if err != nil {
		return nil, err
	}
	packed, err := pack(nil, []byte{code}, opts.Namespace, nil, fields)
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
	code       [1]byte
	namespace  string
	secret     []byte
	maxThreads int
}

// NewDeriver checks the settings (scheme, v0 limits, empty secret) once.
func NewDeriver(opts Options) (*Deriver, error) {
	scheme := opts.Scheme
	if scheme == "" {
		scheme = V1
	}
	if opts.MaxThreads < 0 {
		return nil, newError("invalid_argument", "MaxThreads must be 0 (one per core) or more")
	}
	sp, sn := textArg(string(scheme))
	np, nn := textArg(opts.Namespace)
	var code C.uint8_t
	var msg *C.char
	err := status(C.samekey_prepare_deriver(sp, sn, np, nn, bytesPtr(opts.Secret),
		C.size_t(len(opts.Secret)), C.bool(opts.Secret != nil), &code, &msg), msg)
	if err != nil {
		return nil, err
	}
	// A copy: a caller reusing its secret slice must not change the deriver's ids.
	return &Deriver{code: [1]byte{byte(code)}, namespace: opts.Namespace, secret: cloneBytes(opts.Secret),
		maxThreads: opts.MaxThreads}, nil
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// Scheme is the deriver's scheme.
func (d *Deriver) Scheme() Scheme { return schemeOfCode(d.code[0]) }

// Derive is the id of fields at ms.
func (d *Deriver) Derive(ms int64, fields ...[]byte) (ULID, error) {
	return deriveCodes(d.code[:], ms, d.namespace, d.secret, fields)
}

// DeriveAt is Derive at a time (floored to the millisecond).
func (d *Deriver) DeriveAt(t time.Time, fields ...[]byte) (ULID, error) {
	return d.Derive(Millis(t), fields...)
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
		(*C.int64_t)(unsafe.Pointer(&ms[0])), C.size_t(len(ms)), C.size_t(d.maxThreads), (*C.char)(unsafe.Pointer(&buf[0])), &msg), msg)
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
	packed, err := pack(make([]byte, 0, size), d.code[:], d.namespace, d.secret, nil)
	if err != nil {
		return nil, 0, err
	}
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
		(*C.int64_t)(unsafe.Pointer(&ms[0])), C.size_t(len(ms)), C.size_t(d.maxThreads), (*C.uint8_t)(unsafe.Pointer(&out[0])), &msg), msg)
	return out, err
}

// LikelySeconds reports whether ms, meant as milliseconds since the epoch, looks like
// seconds given by mistake: seconds of 2001-2286 read as milliseconds fall in 1970, and
// the id they derive is valid, so no call refuses them. Go has no run-time warnings and a
// library should not log, so this is a check a caller opts into where integers arrive
// from elsewhere (a JSON field, a CSV column); the rule is the core's (samekey::host).
func LikelySeconds(ms int64) bool {
	return bool(C.samekey_likely_seconds(C.int64_t(ms)))
}
