#!/usr/bin/env bash
# The Spark benchmark (src/bench): samekey_ulid against the Python Arrow UDF, a
# MessageDigest Java UDF and the built-in sha2, in one PySpark session. After
# scripts/test.sh (its target/spark build).
#
#   scripts/bench.sh PYTHON [ROWS] [ROUNDS]
set -euo pipefail
python=$1
. "$(dirname "$0")/env.sh"
test -f "$spark_jar" || { echo "bench: run scripts/test.sh first" >&2; exit 1; }
cp=$(classpath)
rm -rf "$out/bench-classes" && mkdir -p "$out/bench-classes"
javac "${javac_flags[@]}" -cp "$jars/*" -d "$out/bench-classes" \
  $(find "$spark_dir/src/bench/java" -name '*.java')
jar --create --file "$out/samekey-spark-bench.jar" -C "$out/bench-classes" .
SAMEKEY_SPARK_JARS="$spark_jar,$out/samekey-spark-bench.jar,${cp//:/,}" \
  "$python" "$spark_dir/src/bench/python/bench_spark.py" "${2:-1000000}" "${3:-5}"
