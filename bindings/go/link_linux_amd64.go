//go:build !samekey_musl

package samekey

// #cgo LDFLAGS: ${SRCDIR}/lib/linux-amd64/libsamekey_ffi.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
import "C"
