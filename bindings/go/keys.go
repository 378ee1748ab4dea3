package samekey

/*
#include <stdlib.h>
#include "samekey.h"
*/
import "C"

import (
	"strings"
	"time"
	"unsafe"
)

// RevisionOptions: the parent (nil for a root revision), the scheme ("" for the content
// hash's own), the secret (nil: not keyed).
type RevisionOptions struct {
	Parent *string
	Scheme Scheme
	Secret []byte
}

// revisionArgs are the C arguments shared by RevisionKey and RevisionMessage; release
// frees them.
type revisionArgs struct {
	content, scheme, parent string
	hasScheme, hasParent    bool
}

func newRevisionArgs(contentHash string, opts RevisionOptions) revisionArgs {
	a := revisionArgs{content: contentHash, scheme: string(opts.Scheme), hasScheme: opts.Scheme != "",
		hasParent: opts.Parent != nil}
	if opts.Parent != nil {
		a.parent = *opts.Parent
	}
	return a
}

// RevisionKey is "rev:<scheme>:<hex>" of content on a parent revision (spec §7).
func RevisionKey(contentHash string, opts RevisionOptions) (string, error) {
	a := newRevisionArgs(contentHash, opts)
	sp, sn := textArg(a.scheme)
	cp, cn := textArg(a.content)
	pp, pn := textArg(a.parent)
	var out [72]C.char
	var msg *C.char
	err := status(C.samekey_revision_key(sp, sn, C.bool(a.hasScheme), cp, cn, pp, pn, C.bool(a.hasParent),
		bytesPtr(opts.Secret), C.size_t(len(opts.Secret)), C.bool(opts.Secret != nil), &out[0], &msg), msg)
	return C.GoString(&out[0]), err
}

// RevisionMessage is the exact byte string hashed for a revision key.
func RevisionMessage(contentHash string, opts RevisionOptions) ([]byte, error) {
	a := newRevisionArgs(contentHash, opts)
	sp, sn := textArg(a.scheme)
	cp, cn := textArg(a.content)
	pp, pn := textArg(a.parent)
	var out *C.uint8_t
	var n C.size_t
	var msg *C.char
	if err := status(C.samekey_revision_message(sp, sn, C.bool(a.hasScheme), cp, cn, pp, pn, C.bool(a.hasParent), &out, &n, &msg), msg); err != nil {
		return nil, err
	}
	defer C.samekey_bytes_free(out, n)
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// NeedsWrite reports whether incoming content must be written over stored ("" when
// nothing is stored): skip the write when it is false.
func NeedsWrite(stored, incoming string) (bool, error) {
	sp, sn := textArg(stored)
	ip, in := textArg(incoming)
	var out C.bool
	var msg *C.char
	err := status(C.samekey_needs_write(sp, sn, C.bool(stored != ""), ip, in, &out, &msg), msg)
	return bool(out), err
}

// ParseRFC3339 is the milliseconds since the epoch of RFC 3339 text with an offset.
func ParseRFC3339(text string) (int64, error) {
	b := []byte(text)
	var out C.int64_t
	var msg *C.char
	err := status(C.samekey_parse_rfc3339(bytesPtr(b), C.size_t(len(b)), &out, &msg), msg)
	return int64(out), err
}

// ParsedKey describes a content hash or revision key text.
type ParsedKey struct {
	Kind      string // "content" or "revision"
	Scheme    Scheme
	Canonical string
}

// ParseKey parses a content hash ("sha256:...", "blake3:...") or revision key ("rev:v1:...").
func ParseKey(key string) (ParsedKey, error) {
	kp, kn := textArg(key)
	// Into buffers of ours: one C call, no string of the library's to split and free.
	var kind [9]C.char
	var scheme [3]C.char
	var canonical [72]C.char
	var msg *C.char
	if err := status(C.samekey_parse_key_into(kp, kn, &kind[0], &scheme[0], &canonical[0], &msg), msg); err != nil {
		return ParsedKey{}, err
	}
	return ParsedKey{Kind: C.GoString(&kind[0]), Scheme: Scheme(C.GoString(&scheme[0])), Canonical: C.GoString(&canonical[0])}, nil
}

// KeyRing derives under a primary scheme and recognises the accepted ones (spec §9).
type KeyRing struct {
	codes []byte
}

// NewKeyRing makes a ring; accepted may repeat the primary.
func NewKeyRing(primary Scheme, accepted ...Scheme) (*KeyRing, error) {
	return KeyRingOf(append([]Scheme{primary}, accepted...))
}

// KeyRingOf makes the ring of accept, newest first: the first is the primary. An empty
// list is ErrUnknownScheme.
func KeyRingOf(accept []Scheme) (*KeyRing, error) {
	// The names' bytes copied to C memory: an array passed to C may not hold Go pointers.
	// One slot more than needed, so that &names[0] exists for an empty list too.
	names := unsafe.Slice((*C.SamekeyText)(C.malloc(C.size_t(len(accept)+1)*C.size_t(unsafe.Sizeof(C.SamekeyText{})))), len(accept)+1)
	defer C.free(unsafe.Pointer(&names[0]))
	for i, a := range accept {
		names[i] = C.SamekeyText{ptr: (*C.uint8_t)(C.CBytes([]byte(a))), len: C.size_t(len(a))}
		defer C.free(unsafe.Pointer(names[i].ptr))
	}
	var codes [3]C.uint8_t
	var n C.size_t
	var msg *C.char
	if err := status(C.samekey_prepare_ring(&names[0], C.size_t(len(accept)), &codes[0], &n, &msg), msg); err != nil {
		return nil, err
	}
	out := make([]byte, int(n))
	for i := range out {
		out[i] = byte(codes[i])
	}
	return &KeyRing{codes: out}, nil
}

// Accepted are the ring's schemes, primary first, then newest to oldest.
func (r *KeyRing) Accepted() []Scheme {
	out := make([]Scheme, len(r.codes))
	for i, c := range r.codes {
		out[i] = schemeOfCode(c)
	}
	return out
}

// DeriveULID derives with the primary scheme.
func (r *KeyRing) DeriveULID(ms int64, namespace string, secret []byte, fields ...[]byte) (ULID, error) {
	return deriveCodes(r.codes, ms, namespace, secret, fields)
}

// Candidate is an id under one scheme.
type Candidate struct {
	Scheme Scheme
	ULID   ULID
}

// CandidateULIDs are the ids under every accepted scheme that can take the inputs.
func (r *KeyRing) CandidateULIDs(ms int64, namespace string, secret []byte, fields ...[]byte) ([]Candidate, error) {
	packed, err := pack(nil, r.codes, namespace, secret, fields)
	if err != nil {
		return nil, err
	}
	var out *C.char
	var msg *C.char
	if err := status(C.samekey_candidates(bytesPtr(packed), C.size_t(len(packed)), C.int64_t(ms), &out, &msg), msg); err != nil {
		return nil, err
	}
	defer C.samekey_string_free(out)
	words := strings.Fields(C.GoString(out))
	found := make([]Candidate, 0, len(words)/2)
	for i := 0; i+1 < len(words); i += 2 {
		id, ok := decodeCanonical(words[i+1])
		if !ok {
			var err error
			if id, err = ParseULID(words[i+1]); err != nil {
				return nil, err
			}
		}
		found = append(found, Candidate{Scheme: Scheme(words[i]), ULID: id})
	}
	return found, nil
}

// VerifyULID is the accepted scheme that derived id from the inputs, or
// ErrIdentityMismatch: the guard before a write that would orphan the stored document.
func (r *KeyRing) VerifyULID(id ULID, ms int64, namespace string, secret []byte, fields ...[]byte) (Scheme, error) {
	packed, err := pack(nil, r.codes, namespace, secret, fields)
	if err != nil {
		return "", err
	}
	var out [3]C.char
	var msg *C.char
	err = status(C.samekey_verify(bytesPtr(packed), C.size_t(len(packed)), (*C.uint8_t)(&id[0]), C.int64_t(ms), &out[0], &msg), msg)
	return Scheme(C.GoString(&out[0])), err
}

// RevisionKey is the revision key of content on parent (nil for a root revision) under
// the scheme of contentHash, which the ring must accept (ErrSchemeNotAccepted).
func (r *KeyRing) RevisionKey(contentHash string, parent *string, secret []byte) (string, error) {
	cp, cn := textArg(contentHash)
	var p string
	if parent != nil {
		p = *parent
	}
	pp, pn := textArg(p)
	var out [72]C.char
	var msg *C.char
	err := status(C.samekey_ring_revision_key((*C.uint8_t)(&r.codes[0]), C.size_t(len(r.codes)), cp, cn,
		pp, pn, C.bool(parent != nil),
		bytesPtr(secret), C.size_t(len(secret)), C.bool(secret != nil), &out[0], &msg), msg)
	return C.GoString(&out[0]), err
}

// SchemeOfKey is the accepted scheme of a revision key or content hash text.
func (r *KeyRing) SchemeOfKey(key string) (Scheme, error) {
	kp, kn := textArg(key)
	var out [3]C.char
	var msg *C.char
	err := status(C.samekey_ring_scheme_of_key((*C.uint8_t)(&r.codes[0]), C.size_t(len(r.codes)), kp, kn, &out[0], &msg), msg)
	return Scheme(C.GoString(&out[0])), err
}

// Verify is VerifyULID with a ring of accept (newest first) at a time.
func Verify(id ULID, t time.Time, opts Options, accept []Scheme, fields ...[]byte) (Scheme, error) {
	ring, err := KeyRingOf(accept)
	if err != nil {
		return "", err
	}
	return ring.VerifyULID(id, Millis(t), opts.Namespace, opts.Secret, fields...)
}

// Version is the version of the linked samekey library.
func Version() string { return nativeVersion() }
