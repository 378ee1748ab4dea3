// Package samekey derives deterministic ULIDs, content hashes and revision keys that are
// identical, byte for byte, to those of every other samekey implementation (Rust,
// Python, Node, the browser, Kotlin, Swift): the same input gives the same key in every
// language.
//
// A ULID here is not random: its 48-bit timestamp is an immutable natural time of the
// record (when a post was published) and its 80 other bits a hash of the fields that
// identify it, so a retried insert carries the same id and a database refuses the
// duplicate. See https://github.com/samekey/samekey for the specification.
//
// # Installation
//
//	go get github.com/samekey/samekey/bindings/go
//
// The package calls samekey's Rust core through cgo, linked statically from libraries the
// module carries for linux/amd64 and linux/arm64 (glibc 2.17 or later), darwin/amd64,
// darwin/arm64 and windows/amd64: no Rust toolchain is needed, only cgo's C compiler
// (CGO_ENABLED=1, the default where a C compiler is installed). For a fully static Linux
// binary, build with the musl libraries:
//
//	CC="zig cc -target x86_64-linux-musl" go build -tags samekey_musl \
//	  -ldflags '-linkmode external -extldflags -static'
//
// # Errors
//
// Every failure is an *Error whose Code is the stable code shared by every samekey
// implementation; compare with errors.Is against the Err* sentinels.
package samekey
