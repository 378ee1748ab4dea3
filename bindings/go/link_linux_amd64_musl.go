//go:build linux && amd64 && samekey_musl

package samekey

// #cgo LDFLAGS: ${SRCDIR}/lib/linux-amd64-musl/libsamekey_ffi.a ${SRCDIR}/lib/linux-amd64-musl/libunwind.a -lc
import "C"
