#!/usr/bin/env bash
# go.sh makes a changed core relink: in a copy of the package and its library, a build
# is cached, the library changes, and go must see the package as stale through go.sh;
# plain go, with the same flags as before, must not (else the test proves nothing).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
mkdir -p "$work/target/release" "$work/bindings"
cp "$repo/target/release/libsamekey_ffi.a" "$work/target/release/"
cp -rL "$repo/bindings/go" "$work/bindings/go"  # the header symlink as a file
rm -f "$work"/bindings/go/lib/*/libsamekey_ffi.a
export GOCACHE="$work/gocache" GOFLAGS=-mod=mod
cd "$work/bindings/go"
gosh=scripts/go.sh
stale() { "$@" list -f '{{.Stale}}' . ; }
fail() { echo "test-relink: FAILED: $*" >&2; exit 1; }

"$gosh" build .
[ "$(stale "$gosh")" = false ] || fail "a fresh build is stale"
plain_flags="-O2 -g -DSAMEKEY_FFI_BUILD=$(sha256sum "$work/target/release/libsamekey_ffi.a" | cut -c1-16)"

# A different core: the same library with one more object in it.
printf 'int samekey_relink_marker(void) { return 1; }\n' > "$work/marker.c"
cc -c "$work/marker.c" -o "$work/marker.o"
ar q "$work/target/release/libsamekey_ffi.a" "$work/marker.o" >/dev/null 2>&1  # bfd cannot read the LTO bitcode: noise

[ "$(CGO_CFLAGS="$plain_flags" stale go)" = false ] || fail "plain go noticed the new library: the control no longer shows cgo's blind spot"
[ "$(stale "$gosh")" = true ] || fail "go.sh did not make the package stale after the library changed"
echo "test-relink: a changed libsamekey_ffi.a makes the package stale through go.sh (plain go with the old flags still calls it fresh)"
