#!/usr/bin/env bash
# The Python release artifacts in target/dist/python: an abi3 wheel per target given (all
# release targets by default) and the sdist. Linux and macOS wheels are cross-built with
# zig as the linker (the ziglang package from PyPI), which pins the glibc version the
# manylinux2014 tag promises (2.17); Windows is built for the GNU target with Debian's
# mingw-w64, pyo3 making the Python import library itself.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
tools="$PWD/target/dist-tools/bin"
out="$PWD/target/dist/python"
export PATH="$tools:$PATH"
. scripts/cross-build.sh
all=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-unknown-linux-musl
     aarch64-unknown-linux-musl x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu)
targets=("${@:-${all[@]}}")
mkdir -p "$out"
for target in "${targets[@]}"; do
  rustup target list --installed | grep -qx "$target" || rustup target add "$target" >/dev/null
  case "$target" in
    *-linux-gnu) flags=(--zig --compatibility manylinux2014) ;;
    *-linux-musl) flags=(--zig --compatibility musllinux_1_2) ;;
    *-apple-darwin) flags=(--zig) ;;  # RUSTFLAGS below: the framework stubs
    *-windows-gnu)
      scripts/setup-system.sh  # mingw-w64
      flags=() ;;
  esac
  echo "dist-python: $target" >&2
  rustflags=${RUSTFLAGS:-}
  [[ "$target" == *-apple-darwin ]] && rustflags="$rustflags -C link-arg=-F$(macos_frameworks)"
  (cd bindings/python && RUSTFLAGS="$rustflags" maturin build --quiet --release --target "$target" "${flags[@]}" -o "$out")
  if [[ "$target" == *-linux-musl ]]; then
    # zig's musl names the C library `libc.so`, which Alpine has only with musl-dev
    # installed; the musllinux name is `libc.musl-<arch>.so.1`, present on every musl system.
    arch=${target%%-*}
    wheel=$(ls "$out"/samekey-*-musllinux_*_"$arch".whl)
    tmp=$(mktemp -d)
    wheel unpack --dest "$tmp" "$wheel" >/dev/null
    patchelf --replace-needed libc.so "libc.musl-$arch.so.1" "$tmp"/samekey-*/samekey/_samekey.abi3.so
    rm "$wheel" && wheel pack --dest-dir "$out" "$tmp"/samekey-* >/dev/null && rm -rf "$tmp"
  fi
done
(cd bindings/python && maturin sdist -o "$out")
twine check --strict "$out"/*
