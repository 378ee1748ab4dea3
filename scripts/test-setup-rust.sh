#!/usr/bin/env bash
# scripts/setup-rust.sh on a machine whose toolchain has only the host's target, as
# pre-provisioned images and `RUSTUP_AUTO_INSTALL=0` leave it (where `./dev build` once
# failed for want of wasm32): a throwaway RUSTUP_HOME gets rust-toolchain.toml's channel
# alone, the WebAssembly build must fail there, and after setup-rust.sh it must have every
# target and component the file lists and build for wasm32. A second run must add nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export RUSTUP_HOME="$work/rustup" CARGO_TARGET_DIR="$work/target" RUSTUP_AUTO_INSTALL=0
fail() { echo "test-setup-rust: FAIL: $*" >&2; exit 1; }

channel=$(sed -nE 's/^channel *= *"(.*)"/\1/p' rust-toolchain.toml)
start=$SECONDS
rustup toolchain install "$channel" --profile minimal --no-self-update >"$work/install.log" 2>&1 ||
  fail "could not install Rust $channel into a fresh RUSTUP_HOME: $(tail -3 "$work/install.log")"
host=$(rustc -vV | sed -n 's/^host: //p')
[ "$(rustup target list --installed)" = "$host" ] || fail "the fresh toolchain has targets besides $host"
wasm() { cargo check --quiet --locked --target wasm32-unknown-unknown -p samekey --no-default-features; }
wasm >"$work/before.log" 2>&1 && fail "the WebAssembly build passed without its target: the test does not start where the bug did"
grep -q "E0463" "$work/before.log" || fail "the build without its target failed for another reason: $(tail -5 "$work/before.log")"

scripts/setup-rust.sh 2>"$work/setup.err" || fail "setup-rust.sh failed: $(cat "$work/setup.err")"
installed=$(rustup target list --installed)
awk '/^targets/,/\]/' rust-toolchain.toml | grep -oE '"[^"]+"' | tr -d '"' | while read -r t; do
  grep -qx "$t" <<<"$installed" || fail "target $t is listed in rust-toolchain.toml but was not added"
done
for c in $(sed -nE 's/^components *= *\[(.*)\]/\1/p' rust-toolchain.toml | tr -d '",'); do
  rustup component list --installed | grep -q "^$c-" || fail "component $c was not added"
done
wasm || fail "the WebAssembly build fails after setup-rust.sh"
[ -z "$(scripts/setup-rust.sh 2>&1)" ] || fail "a second run was not silent: $(scripts/setup-rust.sh 2>&1)"
echo "test-setup-rust: a toolchain with only $host got every target and component of rust-toolchain.toml and built for wasm32 ($((SECONDS - start)) s)"
echo "setup-rust: 1 passed, 0 failed"
