#!/usr/bin/env bash
# Every release target type-checks: `cargo check` of each crate that ships for it, for the
# targets the release builds (scripts/dist-*.sh), with each target's standard library
# installed here. A check, not a build: no code generation or linking, but build scripts
# run, so C sources (blake3's assembly, SQLite) are compiled for the target by the same
# compilers the release uses (zig for Linux and macOS, mingw-w64 for Windows).
#
#   scripts/check-targets.sh                  every release target
#   scripts/check-targets.sh TARGET...        those (a Rust triple; .2.17 for old glibc)
#   SAMEKEY_CHECK_PACKAGES="samekey" ...      only those crates (the tests of this script)
#
# Main once did not compile for Windows (a `use` under #[cfg(unix)], its use not) and
# nothing in `just test` noticed; scripts/test-check-targets.sh shows this catches that.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/target/dist-tools/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/check-targets}"
# A warning on a release target is an error, as clippy's are on the host (dependencies'
# warnings are capped by cargo).
export RUSTFLAGS="-D warnings"

# What ships for native targets: the crates (crates.io), the CLI archives, the C ABI (Go,
# Swift on Linux), uniffi (Kotlin/JVM), the Python wheels and the Node addons.
native=(samekey samekey-vectors samekey-registry samekey-cli samekey-ffi samekey-uniffi samekey-python samekey-node)
# And for the browser: the core without std, and the WebAssembly package.
wasm=(samekey-wasm)
all=(x86_64-unknown-linux-gnu.2.17 aarch64-unknown-linux-gnu.2.17 x86_64-unknown-linux-musl
     aarch64-unknown-linux-musl x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu
     wasm32-unknown-unknown)

args() { local p; for p in "$@"; do printf -- '-p\n%s\n' "$p"; done; }

failed=()
passed=0
for target in "${@:-${all[@]}}"; do
  triple=${target%.2.17}
  rustup target list --installed | grep -qx "$triple" || rustup target add "$triple" >/dev/null
  if [ -n "${SAMEKEY_CHECK_PACKAGES:-}" ]; then
    read -ra packages <<<"$SAMEKEY_CHECK_PACKAGES"
  elif [ "$triple" = wasm32-unknown-unknown ]; then
    packages=("${wasm[@]}")
  else
    packages=("${native[@]}")
  fi
  mapfile -t pargs < <(args "${packages[@]}")
  # The JAR's library has the JVM's JNI paths.
  [[ " ${packages[*]} " == *" samekey-uniffi "* ]] && pargs+=(--features samekey-uniffi/jni)
  start=$SECONDS
  case "$triple" in
    wasm32-*)
      ok() { cargo check --quiet --locked --target "$triple" "${pargs[@]}" &&
               { [ -n "${SAMEKEY_CHECK_PACKAGES:-}" ] || cargo check --quiet --locked --target "$triple" -p samekey --no-default-features; }; } ;;
    *-windows-gnu)
      scripts/setup-system.sh  # mingw-w64
      # napi-build asks for a shared-library Node's libnode on the GNU target, as
      # bindings/node/scripts/dist.mjs gives it; a check links nothing, so an empty one will do.
      mkdir -p "$CARGO_TARGET_DIR/libnode" && : > "$CARGO_TARGET_DIR/libnode/libnode.dll"
      ok() { LIBNODE_PATH="$CARGO_TARGET_DIR/libnode" cargo check --quiet --locked --target "$triple" "${pargs[@]}"; } ;;
    *-apple-darwin)
      floor=10.12; [[ $triple == aarch64-* ]] && floor=11.0
      ok() { MACOSX_DEPLOYMENT_TARGET=$floor cargo-zigbuild check --quiet --locked --target "$target" "${pargs[@]}"; } ;;
    *)
      ok() { cargo-zigbuild check --quiet --locked --target "$target" "${pargs[@]}"; } ;;
  esac
  if ok; then
    echo "check-targets: $target: ${packages[*]} ($((SECONDS - start)) s)"
    passed=$((passed + 1))
  else
    echo "check-targets: $target: FAILED (${packages[*]})" >&2
    failed+=("$target")
  fi
done
echo "check-targets: $passed passed, ${#failed[@]} failed${failed:+ (${failed[*]})}"
((${#failed[@]} == 0))
