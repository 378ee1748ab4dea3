#!/usr/bin/env bash
# The JVM artifacts io.github.samekey:samekey and io.github.samekey:samekey-spark, deployed
# to the file:// Maven repository target/dist/maven. samekey: the JAR (the Kotlin layer, the generated uniffi sources
# compiled, the native library of each platform under JNA's resource prefix, and musl's
# under linux-musl-<arch>, which samekey's own loader picks on Alpine), sources and
# javadoc JARs, the POM; samekey-spark (spark/pom.xml) is the Spark SQL functions, with
# Spark as a provided dependency. The libraries are cross-built with cargo-zigbuild (Windows with
# Debian's mingw-w64); Maven and its plugins come from Maven Central.
#
#   bindings/kotlin/scripts/dist.sh [--no-spark] [--host-debug] [platform...]
#     platform: JNA prefixes, every release platform by default; --no-spark: samekey alone;
#     --host-debug: this machine's library (linux-x86-64) from the debug build the crate's
#     tests share, not a release build for glibc 2.17. `just jvm::test` passes both: nothing
#     it runs reads samekey-spark, and the release build took 5 of CI's minutes
#     (test-dist builds and tests every platform's release library).
set -euo pipefail
spark=true debug=false
while [[ ${1:-} == --* ]]; do
  case $1 in
    --no-spark) spark=false ;;
    --host-debug) debug=true ;;
    *) echo "jvm::dist: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
cd "$(dirname "$0")/../../.."  # the repository
export PATH="$PWD/target/dist-tools/bin:$PATH"
. scripts/cross-build.sh
repo="$PWD/target/dist/maven"
natives="$PWD/target/kotlin-natives"
declare -A triples=(
  [linux-x86-64]=x86_64-unknown-linux-gnu.2.17 [linux-aarch64]=aarch64-unknown-linux-gnu.2.17
  [darwin-x86-64]=x86_64-apple-darwin [darwin-aarch64]=aarch64-apple-darwin
  [win32-x86-64]=x86_64-pc-windows-gnu
  [linux-musl-x86-64]=x86_64-unknown-linux-musl [linux-musl-aarch64]=aarch64-unknown-linux-musl)
all=(linux-x86-64 linux-aarch64 linux-musl-x86-64 linux-musl-aarch64 darwin-x86-64 darwin-aarch64 win32-x86-64)

rm -rf "$natives"
for platform in "${@:-${all[@]}}"; do
  target=${triples[$platform]:?"unknown platform $platform (known: ${all[*]})"}
  triple=${target%.2.17}
  echo "jvm::dist: $platform ($target)" >&2
  # Debug information stays out of the JAR; the exported symbols JNA calls stay in.
  # musl (Alpine's JVMs): a shared library needs a dynamic C library, not musl's static default.
  flags=(); [[ $triple == *-musl ]] && flags=(-C target-feature=-crt-static)
  case "$triple" in
    *-windows-gnu) lib=samekey_uniffi.dll ;;
    *-apple-darwin) lib=libsamekey_uniffi.dylib ;;
    *) lib=libsamekey_uniffi.so ;;
  esac
  mkdir -p "$natives/$platform"
  if $debug; then
    [ "$platform" = linux-x86-64 ] || { echo "jvm::dist: --host-debug builds linux-x86-64 only, not $platform" >&2; exit 2; }
    cargo build --quiet --locked -p samekey-uniffi --lib --features jni
    cp "target/debug/$lib" "$natives/$platform/"
    continue
  fi
  RUSTFLAGS="${flags[*]}" CARGO_PROFILE_RELEASE_STRIP=debuginfo cross_build samekey-uniffi "$target" --lib --features jni
  cp "target/$triple/release/$lib" "$natives/$platform/"
done

# The generated Kotlin sources (target/uniffi/kotlin).
cargo xtask kotlin-sources >/dev/null

rm -rf "$repo/io/github/samekey"
# Maven runs the tests in bindings/kotlin: a relative vector file would not be found there.
if [ -n "${SAMEKEY_VECTORS:-}" ]; then export SAMEKEY_VECTORS="$(realpath "$SAMEKEY_VECTORS")"; fi
# The registry client's tests start `samekey serve` (SAMEKEY_BIN, or this build).
cargo build -q -p samekey-cli
export SAMEKEY_BIN="${SAMEKEY_BIN:-$PWD/target/debug/samekey}"
# deploy runs the tests first, against the JAR's own resources: JNA finds the library
# under its platform prefix on the classpath, as a user's program will.
(cd bindings/kotlin && mvn -B -q -Dsamekey.natives="$natives" \
  -DaltDeploymentRepository="samekey-dist::file://$repo" clean deploy)
# samekey-spark (Spark provided) on the samekey artifact just built: deploy installed that
# into Maven's local repository too, where this build resolves it.
$spark && (cd bindings/kotlin/spark && mvn -B -q -DaltDeploymentRepository="samekey-dist::file://$repo" clean deploy)
find "$repo/io/github/samekey" -type f \( -name '*.jar' -o -name '*.pom' \) -exec ls -l {} +
