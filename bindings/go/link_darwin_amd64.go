package samekey

// #cgo LDFLAGS: ${SRCDIR}/lib/darwin-amd64/libsamekey_ffi.a -lSystem -lc -lm
import "C"
