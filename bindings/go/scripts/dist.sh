#!/usr/bin/env bash
# The Go module as a release publishes it, in target/dist/go:
#   module/  bindings/go with the header and the static library of every platform in
#            lib/<goos>-<goarch>[-musl]/: the tree a release commit tags (bindings/go/vX.Y.Z)
#   proxy/   that module as the Go module proxy serves it (GOPROXY=file://$PWD/proxy)
# Libraries are cross-built with cargo-zigbuild (Windows with Debian's mingw-w64) and
# stripped of debug information; musl builds carry Rust's libunwind.a beside them.
#
#   bindings/go/scripts/dist.sh [platform...]     (every release platform by default)
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
export PATH="$PWD/target/dist-tools/bin:$PATH"
. scripts/cross-build.sh
out="$PWD/target/dist/go"
version=v$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)
declare -A triples=(
  [linux-amd64]=x86_64-unknown-linux-gnu.2.17 [linux-arm64]=aarch64-unknown-linux-gnu.2.17
  [linux-amd64-musl]=x86_64-unknown-linux-musl [linux-arm64-musl]=aarch64-unknown-linux-musl
  [darwin-amd64]=x86_64-apple-darwin [darwin-arm64]=aarch64-apple-darwin
  [windows-amd64]=x86_64-pc-windows-gnu)
all=(linux-amd64 linux-arm64 linux-amd64-musl linux-arm64-musl darwin-amd64 darwin-arm64 windows-amd64)
sysroot=$(rustc --print sysroot)
# llvm-objcopy, shipped with rustc, reads every platform's objects (GNU strip does not).
objcopy="$sysroot/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/rust-objcopy"

rm -rf "$out/module"
mkdir -p "$out/module" "$out/proxy"
# The module's tracked files, the header symlink resolved to the file it names; not the
# maintainers' build (justfile, scripts/), which a user of the module never runs.
git ls-files -z bindings/go ':!bindings/go/justfile' ':!bindings/go/scripts' | while IFS= read -r -d '' f; do
  mkdir -p "$out/module/$(dirname "${f#bindings/go/}")"
  cp -L "$f" "$out/module/${f#bindings/go/}"
done
cp LICENSE-MIT LICENSE-APACHE "$out/module/"

for platform in "${@:-${all[@]}}"; do
  target=${triples[$platform]:?"unknown platform $platform (known: ${all[*]})"}
  triple=${target%.2.17}
  echo "dist-go: $platform ($target)" >&2
  cross_build samekey-ffi "$target"
  dir="$out/module/lib/$platform"
  LD_LIBRARY_PATH="$sysroot/lib" "$objcopy" --strip-debug "target/$triple/release/libsamekey_ffi.a" "$dir/libsamekey_ffi.a"
  if [[ $triple == *-musl ]]; then
    cp "$sysroot/lib/rustlib/$triple/lib/self-contained/libunwind.a" "$dir/"
  fi
done

go -C bindings/go/scripts/proxy run . -dir "$out/module" -version "$version" -out "$out/proxy"
du -sh "$out/module/lib"/* "$out/proxy"
