#!/usr/bin/env bash
# `go`, as a checkout of the repository must run it for this package (every recipe does):
#   1. links the host's static library, target/release/libsamekey_ffi.a (just ffi::build),
#      into lib/<goos>-<goarch>/, where a release carries the prebuilt ones;
#   2. puts the library's hash into CGO_CFLAGS. cgo caches a package by its sources and
#      flags, never by the contents of a library named in #cgo LDFLAGS: without the hash a
#      rebuilt core is not relinked and the tests run the old one (test-relink.sh proves
#      both halves of that).
#
#   bindings/go/scripts/go.sh test ./...      (any go command, from any directory)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
lib="$repo/target/release/libsamekey_ffi.a"
[ -f "$lib" ] || { echo "go.sh: no $lib: run \`just ffi::build\` first" >&2; exit 1; }
ln -sfn "$lib" "$repo/bindings/go/lib/$(go env GOOS)-$(go env GOARCH)/libsamekey_ffi.a"
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g} -DSAMEKEY_FFI_BUILD=$(sha256sum "$lib" | cut -c1-16)"
exec go "$@"
