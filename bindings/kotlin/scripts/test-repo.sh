#!/usr/bin/env bash
# io.github.samekey:samekey installed as a user installs it: a fresh Maven project outside
# the repository depends on it from the file:// repository target/dist/maven (made by
# bindings/kotlin/scripts/dist.sh) and on Maven Central for the rest, with a local repository that
# has never held samekey, and runs every vector from Kotlin and from Java with plain
# `mvn test`: no -Djna.library.path, no LD_LIBRARY_PATH, no cargo on PATH. samekey's
# loader extracts the library from the JAR.
# With --all (after a full jvm::dist), the JAR must also hold the library of every
# release platform, each of its platform's format (built, not run: macOS, Windows,
# linux-aarch64 and musl JVMs do not run here; the musl x86-64 library is loaded by musl's
# dynamic loader).
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
all=false; [[ ${1:-} == --all ]] && all=true
. bindings/kotlin/scripts/consumer.sh
vectors="$(realpath "${SAMEKEY_VECTORS:-test-vectors/samekey.json}")"
small="$(realpath test-vectors/small.json)"

consumer_app samekey bindings/kotlin/scripts/consumer
mkdir -p "$app/src/test/kotlin/io/github/samekey"
cp bindings/kotlin/src/test/kotlin/io/github/samekey/VectorsTest.kt bindings/kotlin/src/test/java/io/github/samekey/JavaVectorsTest.java \
  "$app/src/test/kotlin/io/github/samekey/"
consumer_mvn SAMEKEY_VECTORS="$vectors"
grep -h 'Tests run' "$app"/target/surefire-reports/*.txt
grep -ho '[0-9]* vectors from [^<]*' "$app"/target/surefire-reports/TEST-*.xml
# The runner works with any valid vector file, not only the repository's (spec §10.1).
consumer_mvn SAMEKEY_VECTORS="$small"
grep -ho '[0-9]* vectors from [^<]*' "$app"/target/surefire-reports/TEST-*.xml

$all || exit 0
work=$consumer_work
jar="$consumer_repo/io/github/samekey/samekey/$consumer_version/samekey-$consumer_version.jar"
mkdir "$work/jar" && (cd "$work/jar" && unzip -q "$jar")
for want in "linux-x86-64/libsamekey_uniffi.so:ELF 64-bit LSB shared object, x86-64" \
            "linux-aarch64/libsamekey_uniffi.so:ELF 64-bit LSB shared object, ARM aarch64" \
            "linux-musl-x86-64/libsamekey_uniffi.so:ELF 64-bit LSB shared object, x86-64" \
            "linux-musl-aarch64/libsamekey_uniffi.so:ELF 64-bit LSB shared object, ARM aarch64" \
            "darwin-x86-64/libsamekey_uniffi.dylib:Mach-O 64-bit x86_64 dynamically linked shared library" \
            "darwin-aarch64/libsamekey_uniffi.dylib:Mach-O 64-bit arm64 dynamically linked shared library" \
            "win32-x86-64/samekey_uniffi.dll:PE32+ executable (DLL)"; do
  path=${want%%:*}
  kind=$(file -b "$work/jar/$path" 2>/dev/null || echo missing)
  [[ $kind == "${want#*:}"* ]] || { echo "jvm::test: $path is $kind"; exit 1; }
  echo "jvm::test: $path: $kind"
done
# musl's libraries need musl's C library only (NEEDED libc.so, which musl's loader
# resolves to itself), not glibc's versioned one; and the x86-64 one loads under musl's
# own dynamic loader with every symbol bound (no Alpine JVM here to run it).
for arch in x86-64 aarch64; do
  needed=$(readelf -d "$work/jar/linux-musl-$arch/libsamekey_uniffi.so" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
  [[ $needed == "libc.so " ]] || { echo "jvm::test: linux-musl-$arch needs $needed"; exit 1; }
done
cat > "$work/dlopen.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) { printf("%s\n", dlerror()); return 1; }
  return dlsym(lib, "Java_io_github_samekey_Jni_derive") && dlsym(lib, "uniffi_samekey_uniffi_fn_func_version") ? 0 : 2;
}
C
musl-gcc -o "$work/dlopen" "$work/dlopen.c"
"$work/dlopen" "$work/jar/linux-musl-x86-64/libsamekey_uniffi.so"
echo "jvm::test: linux-musl-x86-64 loads under musl's loader ($(readelf -l "$work/dlopen" | sed -n 's/.*interpreter: \(.*\)]/\1/p'))"
for extra in sources javadoc; do
  [ -s "${jar%.jar}-$extra.jar" ] || { echo "jvm::test: no $extra JAR"; exit 1; }
done
echo "jvm::test: POM, sources and javadoc JARs present (only linux-x86-64's library ran: the vectors above)"
