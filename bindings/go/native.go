package samekey

// The Rust core, linked statically from lib/<platform>/ (link_<goos>_<goarch>.go names
// the library of each platform). A release of this module carries those libraries; in a
// checkout, `just setup-go` builds the host's into lib/.

/*
#cgo CFLAGS: -I${SRCDIR}
#cgo noescape samekey_derive
#cgo nocallback samekey_derive
#cgo noescape samekey_derive_many
#cgo nocallback samekey_derive_many
#cgo noescape samekey_derive_many_text
#cgo nocallback samekey_derive_many_text
#cgo noescape samekey_ulid_parse
#cgo nocallback samekey_ulid_parse
#cgo noescape samekey_content_hash
#cgo nocallback samekey_content_hash
#cgo noescape samekey_hasher_update
#cgo nocallback samekey_hasher_update
#include <stdlib.h>
#include "samekey.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// status turns a call's status and message into a Go error. The success path allocates
// nothing: the library writes a message only on failure.
func status(s C.enum_SamekeyStatus, message *C.char) error {
	if s == C.SAMEKEY_STATUS_OK {
		return nil
	}
	msg := ""
	if message != nil {
		msg = C.GoString(message)
		C.samekey_string_free(message)
	}
	return newError(C.GoString(C.samekey_status_code(s)), msg)
}

// bytesPtr is the address of b's first byte, or nil for an empty slice. Go memory
// holding no Go pointers may be passed to C for the duration of a call.
func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&b[0]))
}

// textArg is s as the C ABI takes every text: a pointer and a length. Every byte reaches
// the core, a NUL included (a C string would end there: "v1\x00" would read as v1). A
// string's bytes hold no Go pointers, so they may be passed for the duration of a call.
func textArg(s string) (*C.uint8_t, C.size_t) {
	if len(s) == 0 {
		return nil, 0
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))), C.size_t(len(s))
}

// nativeVersion is the version of the linked library.
func nativeVersion() string {
	return C.GoString(C.samekey_version())
}

// coreErrorCodes is every error code of the linked library, in its order.
func coreErrorCodes() []string {
	return strings.Split(C.GoString(C.samekey_error_codes()), ",")
}

// emptyCall is a C call that does no work: the speed table's measure of cgo's fixed cost.
func emptyCall() int { return int(C.samekey_json_max_depth()) }
