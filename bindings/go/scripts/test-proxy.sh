#!/usr/bin/env bash
# The Go module installed as a user installs it: from target/dist/go/proxy (made by
# bindings/go/scripts/dist.sh) through GOPROXY=file://, into a fresh module outside the repository,
# with an empty module cache and no cargo or rustc on PATH. Then:
#   - go test of the module itself runs every vector (SAMEKEY_VECTORS honoured),
#   - a program of the fresh module runs the ulid vectors,
#   - CGO_ENABLED=0 fails with the message that names cgo,
#   - when the module holds the musl library: a fully static binary that runs in an empty
#     root.
# With --all (after a full dist-go), also: the glibc-2.17 build run on Debian bullseye
# (glibc 2.31), linux/arm64 cross-built with zig and run under qemu-user, and Windows and
# macOS binaries linked (built, not run).
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
repo=$PWD
all=false; [[ ${1:-} == --all ]] && all=true
proxy="$repo/target/dist/go/proxy"
vectors="$(realpath "${SAMEKEY_VECTORS:-test-vectors/samekey.json}")"
version=v$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)
module=github.com/samekey/samekey/bindings/go
# The venv's own path (target/dist-tools links to it): the compiler command is part of
# the key of Go's build cache, which a path inside this clone would miss in the next one.
zig="$(cd "$repo/target/dist-tools" && pwd -P)/bin/python -m ziglang"
[ -d "$proxy" ] || { echo "no $proxy: run bindings/go/scripts/dist.sh first"; exit 1; }
scripts/setup-system.sh  # file

work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
# Go and the C compilers only: nothing of ~/.cargo.
export PATH="$(dirname "$(command -v go)"):/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
! command -v cargo >/dev/null && ! command -v rustc >/dev/null || { echo "cargo is still on PATH"; exit 1; }
# A fresh GOPATH: the module comes from the proxy, not from a module cache. The build cache
# stays the machine's: it is keyed by the content of every input (sources, flags, the C
# compiler), so it cannot hand back another build's result, and a fresh one compiled the
# standard library again for each build here (minutes of every CI run).
export GOPATH="$work/gopath" GOTOOLCHAIN=local GOFLAGS=-mod=mod
export GOPROXY="file://$proxy" GONOSUMDB=github.com/samekey
export SAMEKEY_VECTORS="$vectors"

mkdir "$work/app" && cd "$work/app"
go mod init example.com/app >/dev/null 2>&1
cp "$repo/bindings/go/scripts/consumer/main.go.txt" main.go
# The site's install line, as a reader types it: the proxy's latest must be this version.
echo "test-go-proxy: $(cat "$repo/docs/examples/install/go.sh")"
bash -euo pipefail "$repo/docs/examples/install/go.sh"
grep -q "$module $version" go.mod || { echo "go.mod requires $(grep "$module" go.mod), not $version"; exit 1; }
go mod tidy
echo "test-go-proxy: go test $module@$version (the module's own tests)"
go test -count=1 -v -run . "$module" | grep -E "vectors from|^(ok|FAIL)"
go build -o app . && ./app
# The registry client, a package of the module, builds from the proxy too (its tests
# need a registry: just go::test runs them).
go build "$module/registry"
echo "test-go-proxy: built $module/registry"

echo "test-go-proxy: CGO_ENABLED=0 names the cause"
if CGO_ENABLED=0 go build -o /dev/null . 2>"$work/nocgo.txt"; then echo "built without cgo"; exit 1; fi
grep -q samekey_needs_cgo "$work/nocgo.txt" || { cat "$work/nocgo.txt"; exit 1; }
head -n 3 "$work/nocgo.txt"

# The module's own zip says whether this dist built the musl library (`just test` builds
# linux-amd64 alone; test-dist and --all build it).
zip="$proxy/$module/@v/$version.zip"
if ! python3 -c 'import sys, zipfile; sys.exit(not any(n.endswith("/lib/linux-amd64-musl/libsamekey_ffi.a") for n in zipfile.ZipFile(sys.argv[1]).namelist()))' "$zip"; then
  $all && { echo "test-go-proxy: --all needs every platform's library; $zip has no linux-amd64-musl"; exit 1; }
  echo "test-go-proxy: static binary not built: $zip has no linux-amd64-musl library (go::dist linux-amd64-musl)"
  exit 0
fi
echo "test-go-proxy: static binary (musl library, zig cc) in an empty root"
CC="$zig cc -target x86_64-linux-musl" go build -tags samekey_musl \
  -ldflags '-linkmode external -extldflags -static' -o "$work/root/app" .
file "$work/root/app" | grep -q 'statically linked' || { file "$work/root/app"; exit 1; }
cp "$vectors" "$work/root/vectors.json"
SAMEKEY_VECTORS=/vectors.json chroot "$work/root" /app

$all || exit 0

echo "test-go-proxy: the glibc 2.17 library in a program built for glibc 2.17, run on Debian bullseye"
bullseye=$("$repo/scripts/old-glibc-root.sh")
CC="$zig cc -target x86_64-linux-gnu.2.17" go test -c -o "$bullseye/tmp/samekey-go.test" "$module"
cp "$vectors" "$bullseye/tmp/vectors.json"
SAMEKEY_VECTORS=/tmp/vectors.json chroot "$bullseye" /tmp/samekey-go.test -test.count=1 -test.v -test.run . | grep -E "vectors from|^(PASS|FAIL)"
rm -f "$bullseye/tmp/samekey-go.test" "$bullseye/tmp/vectors.json"

echo "test-go-proxy: linux/arm64, cross-built with zig cc, under qemu-user"
arm64=$("$repo/scripts/arm64-root.sh")
CGO_ENABLED=1 GOARCH=arm64 CC="$zig cc -target aarch64-linux-gnu.2.17" go test -c -o "$work/arm64.test" "$module"
qemu-aarch64-static -L "$arm64" "$work/arm64.test" -test.count=1 -test.v -test.run . | grep -E "vectors from|^(PASS|FAIL)"
CGO_ENABLED=1 GOARCH=arm64 CC="$zig cc -target aarch64-linux-musl" go build -tags samekey_musl \
  -ldflags '-linkmode external -extldflags -static' -o "$work/app-arm64" .
file "$work/app-arm64" | grep -q 'ARM aarch64.*statically linked' || { file "$work/app-arm64"; exit 1; }
qemu-aarch64-static "$work/app-arm64"

echo "test-go-proxy: windows/amd64 and darwin (built, not run)"
CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc go build -o "$work/app.exe" .
file "$work/app.exe"
# Go's runtime links libresolv and CoreFoundation on macOS: stubs stand in for the SDK.
# -s -w: Go would otherwise run the host's strip, which reads no Mach-O.
. "$repo/scripts/cross-build.sh"
tbd_stub "$work/sdk/libresolv.tbd" /usr/lib/libresolv.9.dylib _res_9_ninit _res_9_nsearch _res_9_nclose
tbd_stub "$work/sdk/CoreFoundation.framework/CoreFoundation.tbd" \
  /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation _CFRelease
for arch in amd64:x86_64 arm64:aarch64; do
  CGO_ENABLED=1 GOOS=darwin GOARCH=${arch%:*} CC="$zig cc -target ${arch#*:}-macos" \
    CGO_LDFLAGS="-L$work/sdk -F$work/sdk" go build -ldflags='-s -w' -o "$work/app-darwin-${arch%:*}" .
  file "$work/app-darwin-${arch%:*}"
done
