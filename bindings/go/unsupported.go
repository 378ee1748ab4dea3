//go:build cgo && !((linux && (amd64 || arm64)) || (darwin && (amd64 || arm64)) || (windows && amd64))

package samekey

// A platform without a prebuilt library would fail at link time with hundreds of
// undefined symbols; this names the cause at compile time instead.

var _ = samekey_has_no_prebuilt_library_for_this_GOOS_GOARCH__supported_are_linux_amd64_arm64_darwin_amd64_arm64_windows_amd64
