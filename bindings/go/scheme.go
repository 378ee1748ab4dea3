package samekey

/*
#include "samekey.h"
*/
import "C"

// Scheme names a derivation scheme: the algorithm and framing of an id or key (spec §3).
// Released schemes never change their output; a change of output is a new scheme.
type Scheme string

const (
	// V1 is SHA-256 (HMAC-SHA-256 when keyed): the default.
	V1 Scheme = "v1"
	// V2 is BLAKE3 (keyed BLAKE3 when keyed).
	V2 Scheme = "v2"
	// V0 is the legacy scheme, kept to recognise ids made before v1.
	V0 Scheme = "v0"
)

// String is the scheme's name as it appears in keys ("v1").
func (s Scheme) String() string { return string(s) }

// The wire codes of the known schemes, asked of the core once so that a derivation does
// not pay a C call (and a C string) to look its scheme up.
var (
	codeV0 = mustCode(V0)
	codeV1 = mustCode(V1)
	codeV2 = mustCode(V2)
)

func mustCode(s Scheme) byte {
	code, err := coreSchemeCode(s)
	if err != nil {
		panic("samekey: the linked library does not know scheme " + string(s) + ": " + err.Error())
	}
	return code
}

// schemeCode is the wire code of s; the empty scheme is V1.
func schemeCode(s Scheme) (byte, error) {
	switch s {
	case "", V1:
		return codeV1, nil
	case V2:
		return codeV2, nil
	case V0:
		return codeV0, nil
	}
	return coreSchemeCode(s) // an unknown name: the core's error
}

func coreSchemeCode(s Scheme) (byte, error) {
	sp, sn := textArg(string(s))
	var code C.uint8_t
	var msg *C.char
	err := status(C.samekey_scheme_code(sp, sn, &code, &msg), msg)
	return byte(code), err
}

// schemeOfCode is the name of a wire code the core returned.
func schemeOfCode(code byte) Scheme {
	switch code {
	case codeV1:
		return V1
	case codeV2:
		return V2
	case codeV0:
		return V0
	}
	panic("samekey: the library returned an unknown scheme code")
}
