#!/usr/bin/env bash
# What a Linux user of the Swift package installs: samekey's core as a static library and
# the pkg-config file through which Package.swift's system library target finds it.
#   target/dist/swift/samekey-swift-<version>-linux-<arch>.tar.gz   (release: glibc 2.17+)
#     lib/libsamekey_ffi.a, lib/pkgconfig/samekey-ffi.pc
# `--host DIR` lays the same files out in DIR from the host's release build (for tests).
#
#   bindings/swift/scripts/dist.sh [x86_64|aarch64 ...]   (both by default)
#   bindings/swift/scripts/dist.sh --host DIR
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
export PATH="$PWD/target/dist-tools/bin:$PATH"
. scripts/cross-build.sh
version=$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)
sysroot=$(rustc --print sysroot)
objcopy="$sysroot/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/rust-objcopy"

# layout LIB DIR: the library (without debug information) and its .pc file under DIR.
layout() {
  mkdir -p "$2/lib/pkgconfig"
  LD_LIBRARY_PATH="$sysroot/lib" "$objcopy" --strip-debug "$1" "$2/lib/libsamekey_ffi.a"
  # ${pcfiledir}: the prefix is wherever the archive is unpacked (/usr/local, ~/.local, ...).
  cat > "$2/lib/pkgconfig/samekey-ffi.pc" <<PC
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib

Name: samekey-ffi
Description: samekey's Rust core and its C ABI, for the Swift package Samekey
Version: $version
URL: https://github.com/samekey/samekey
Libs: -L\${libdir} -lsamekey_ffi -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
PC
}

if [[ ${1:-} == --host ]]; then
  cargo build --quiet --release --locked -p samekey-ffi --lib
  rm -rf "$2" && layout target/release/libsamekey_ffi.a "$2"
  exit 0
fi

out="$PWD/target/dist/swift"
mkdir -p "$out"
archs=("$@"); [ ${#archs[@]} -gt 0 ] || archs=(x86_64 aarch64)
for arch in "${archs[@]}"; do
  triple=$arch-unknown-linux-gnu
  echo "dist-swift: linux-$arch" >&2
  cross_build samekey-ffi "$triple.2.17" --lib
  name="samekey-swift-$version-linux-$arch"
  stage=$(mktemp -d)
  layout "target/$triple/release/libsamekey_ffi.a" "$stage/$name"
  cp LICENSE-MIT LICENSE-APACHE "$stage/$name/"
  tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name"
  rm -rf "$stage"
done
ls -l "$out"
