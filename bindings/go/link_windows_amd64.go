package samekey

// #cgo LDFLAGS: ${SRCDIR}/lib/windows-amd64/libsamekey_ffi.a -lkernel32 -lntdll -luserenv -lws2_32 -ldbghelp
import "C"
