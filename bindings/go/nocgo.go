//go:build !cgo

package samekey

// Without cgo the files that call the Rust core are left out, and a user would see
// "undefined: samekey.DeriveULID". This file makes the build fail with the reason instead.

var _ = samekey_needs_cgo__build_with_CGO_ENABLED_1_and_a_C_compiler_see_README
