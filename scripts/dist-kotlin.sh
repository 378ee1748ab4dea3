#!/usr/bin/env bash
# The Kotlin/JVM artifact io.github.samekey:samekey, deployed to the file:// Maven
# repository target/dist/maven: the JAR (the Kotlin layer, the generated uniffi sources
# compiled, the native library of each platform under JNA's resource prefix), sources and
# javadoc JARs, the POM. The libraries are cross-built with cargo-zigbuild (Windows with
# Debian's mingw-w64); Maven and its plugins come from Maven Central.
#
#   scripts/dist-kotlin.sh [platform...]   (JNA prefixes; every release platform by default)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/target/dist-tools/bin:$PATH"
repo="$PWD/target/dist/maven"
natives="$PWD/target/kotlin-natives"
declare -A triples=(
  [linux-x86-64]=x86_64-unknown-linux-gnu.2.17 [linux-aarch64]=aarch64-unknown-linux-gnu.2.17
  [darwin-x86-64]=x86_64-apple-darwin [darwin-aarch64]=aarch64-apple-darwin
  [win32-x86-64]=x86_64-pc-windows-gnu)
all=(linux-x86-64 linux-aarch64 darwin-x86-64 darwin-aarch64 win32-x86-64)

rm -rf "$natives"
for platform in "${@:-${all[@]}}"; do
  target=${triples[$platform]:?"unknown platform $platform (known: ${all[*]})"}
  triple=${target%.2.17}
  rustup target list --installed | grep -qx "$triple" || rustup target add "$triple" >/dev/null
  echo "dist-kotlin: $platform ($target)" >&2
  # Debug information stays out of the JAR; the exported symbols JNA calls stay in.
  export CARGO_PROFILE_RELEASE_STRIP=debuginfo
  case "$triple" in
    *-windows-gnu)
      command -v x86_64-w64-mingw32-gcc >/dev/null || apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
      cargo build --quiet --release --locked -p samekey-uniffi --lib --target "$triple"
      lib=samekey_uniffi.dll ;;
    *-apple-darwin)
      if [[ $triple == aarch64-* ]]; then floor=11.0; else floor=10.12; fi
      MACOSX_DEPLOYMENT_TARGET=$floor cargo zigbuild --quiet --release --locked -p samekey-uniffi --lib --target "$target"
      lib=libsamekey_uniffi.dylib ;;
    *)
      cargo zigbuild --quiet --release --locked -p samekey-uniffi --lib --target "$target"
      lib=libsamekey_uniffi.so ;;
  esac
  mkdir -p "$natives/$platform"
  cp "target/$triple/release/$lib" "$natives/$platform/"
done

# The generated Kotlin sources (target/uniffi/kotlin), as `just generate-bindings` makes them.
cargo build --quiet -p samekey-uniffi --features bindgen
./target/debug/uniffi-bindgen generate --library target/debug/libsamekey_uniffi.so --language kotlin \
  --out-dir target/uniffi/kotlin --no-format >/dev/null

rm -rf "$repo/io/github/samekey"
# deploy runs the tests first, against the JAR's own resources: JNA finds the library
# under its platform prefix on the classpath, as a user's program will.
(cd bindings/kotlin && mvn -B -q -Dsamekey.natives="$natives" \
  -DaltDeploymentRepository="samekey-dist::file://$repo" deploy)
find "$repo/io/github/samekey" -type f \( -name '*.jar' -o -name '*.pom' \) -exec ls -l {} +
