#!/usr/bin/env bash
# Builds every runner of `just bench-matrix` into target/bench-matrix (release builds
# throughout): the core's (a cargo bench target), C's against the static library, Go's
# module, the JVM's classpath (target/classes holds the release library `jvm::dist`
# built), Swift's product in the swift root. Python, Node and WASM run from their setups.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out="$repo/target/bench-matrix"
mkdir -p "$out"
cd "$repo"

core=$(cargo bench -q -p samekey --bench matrix --no-run --message-format=json \
  | python3 -c 'import json,sys; print([m["executable"] for m in map(json.loads, sys.stdin) if m.get("target", {}).get("name") == "matrix" and m.get("executable")][-1])')
cp "$core" "$out/core-matrix"

gcc -std=c11 -O2 -Wall -Wextra -Werror -I crates/samekey-ffi/include bench/matrix/c/matrix.c \
  target/release/libsamekey_ffi.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$out/c-matrix"

(cd bench/matrix/go && "$repo/bindings/go/scripts/go.sh" build -o "$out/go-matrix" .)

(cd bindings/kotlin && mvn -B -q -o -Dsamekey.natives="$repo/target/kotlin-natives" test-compile \
  && mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.11.0:build-classpath \
       -Dmdep.includeScope=test -Dmdep.outputFile="$out/jvm.deps" > /dev/null)
echo "$repo/bindings/kotlin/target/classes:$repo/bindings/kotlin/target/test-classes:$(cat "$out/jvm.deps")" > "$out/jvm.classpath"

bindings/swift/scripts/in-swift.sh "$repo/bindings/swift/bench" swift build -c release -q --product SamekeyMatrix
echo "bench-matrix: runners built in $out"
