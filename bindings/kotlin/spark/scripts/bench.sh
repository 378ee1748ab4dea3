#!/usr/bin/env bash
# The Spark benchmark (src/bench): samekey_ulid against the Python Arrow UDF, a
# MessageDigest Java UDF and the built-in sha2, in one PySpark session. After
# scripts/test.sh (its target/spark build).
#
#   scripts/bench.sh SPARK_JARS_DIR PYTHON [ROWS] [ROUNDS]
set -euo pipefail
spark_dir=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$spark_dir/../../.." && pwd)
jars=$1
python=$2
out=$repo/target/spark
version=$(sed -n 's|^  <version>\(.*\)</version>|\1|p' "$spark_dir/../pom.xml" | head -1)
test -f "$out/samekey-spark-$version.jar" || { echo "bench: run scripts/test.sh first" >&2; exit 1; }
cp="$repo/target/dist/maven/io/github/samekey/samekey/$version/samekey-$version.jar:$(cat "$out/samekey.classpath")"
rm -rf "$out/bench-classes" && mkdir -p "$out/bench-classes"
javac --release 17 -Xlint:all,-processing,-path -Werror -cp "$jars/*" -d "$out/bench-classes" \
  $(find "$spark_dir/src/bench/java" -name '*.java')
jar --create --file "$out/samekey-spark-bench.jar" -C "$out/bench-classes" .
SAMEKEY_SPARK_JARS="$out/samekey-spark-$version.jar,$out/samekey-spark-bench.jar,${cp//:/,}" \
  "$python" "$spark_dir/src/bench/python/bench_spark.py" "${3:-1000000}" "${4:-5}"
