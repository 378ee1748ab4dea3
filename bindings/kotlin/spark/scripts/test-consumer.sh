#!/usr/bin/env bash
# io.github.samekey:samekey-spark as a Spark user's project gets it: a fresh Maven project
# outside the repository (Scala 2.13, Spark 4.2.0 from Maven Central, `provided`) depends
# on it from the file:// repository target/dist/maven (just jvm::dist), with a local
# repository that has never held samekey, and runs with plain `mvn test`: SparkSqlTest
# (every ulid vector SQL can express, a job of ROWS rows against the local batch, the
# time types and refusals) and a Scala test of the Java facade and the DataFrame API. No
# cargo on PATH; the natives come out of samekey's JAR. A second Spark: the JARs were
# built against 4.2.0 and scripts/test.sh runs them on pyspark's.
#
#   spark/scripts/test-consumer.sh [ROWS]
set -euo pipefail
rows=${1:-100000}
spark_dir=$(cd "$(dirname "$0")/.." && pwd)
. "$spark_dir/../scripts/consumer.sh"

consumer_app samekey-spark "$spark_dir/consumer"
cp "$spark_dir"/src/test/java/io/github/samekey/spark/{SparkSqlTest,Job}.java "$app/src/test/java/io/github/samekey/spark/"
mkdir -p "$app/src/test/resources" && cp "$spark_dir/src/test/resources/log4j2.properties" "$app/src/test/resources/"
consumer_mvn SAMEKEY_SPARK_ROWS="$rows" \
  SAMEKEY_VECTORS="$(realpath "${SAMEKEY_VECTORS:-$consumer_root/test-vectors/samekey.json}")"
grep -h 'Tests run' "$app"/target/surefire-reports/*.txt
