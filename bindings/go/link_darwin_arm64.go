package samekey

// #cgo LDFLAGS: ${SRCDIR}/lib/darwin-arm64/libsamekey_ffi.a -lSystem -lc -lm
import "C"
