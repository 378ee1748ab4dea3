package samekey

// The Rust static library (crates/samekey-ffi) linked into this package. Build it first:
// cargo build --release -p samekey-ffi (or `just setup-go`).

/*
#cgo CFLAGS: -I${SRCDIR}/../../crates/samekey-ffi/include
#cgo LDFLAGS: ${SRCDIR}/../../target/release/libsamekey_ffi.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
#include <stdlib.h>
#include "samekey.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// status turns a call's status and message into a Go error.
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

func cString(s string) *C.char {
	return C.CString(s)
}

func free(p *C.char) {
	C.free(unsafe.Pointer(p))
}

// nativeVersion is the version of the linked library.
func nativeVersion() string {
	return C.GoString(C.samekey_version())
}

// coreErrorCodes is every error code of the linked library, in its order.
func coreErrorCodes() []string {
	return strings.Split(C.GoString(C.samekey_error_codes()), ",")
}
