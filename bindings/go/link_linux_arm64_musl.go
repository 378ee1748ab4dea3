//go:build linux && arm64 && samekey_musl

package samekey

// #cgo LDFLAGS: ${SRCDIR}/lib/linux-arm64-musl/libsamekey_ffi.a ${SRCDIR}/lib/linux-arm64-musl/libunwind.a -lc
import "C"
