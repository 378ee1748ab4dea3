#!/usr/bin/env bash
# io.github.samekey:samekey-spark as a Spark user's project gets it: a fresh Maven project
# outside the repository (Scala 2.13, Spark 4.2.0 from Maven Central, `provided`) depends
# on it from the file:// repository target/dist/maven (just kotlin::dist), with a local
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
repo_root=$(cd "$spark_dir/../../.." && pwd)
repo="$repo_root/target/dist/maven"
version=$(grep -m1 '^version = ' "$repo_root/Cargo.toml" | cut -d'"' -f2)
[ -d "$repo/io/github/samekey/samekey-spark/$version" ] || { echo "no samekey-spark $version in $repo: run just kotlin::dist linux-x86-64"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Central's artifacts are cached between runs (target/m2-consumer); samekey never is.
local_repo="$repo_root/target/m2-consumer"
rm -rf "$local_repo/io/github/samekey"
cp -r "$spark_dir/consumer" "$work/app"
sed -i -e "s|@REPO@|file://$repo|" -e "s|@VERSION@|$version|" "$work/app/pom.xml"
cp "$spark_dir"/src/test/java/io/github/samekey/spark/{SparkSqlTest,Job}.java "$work/app/src/test/java/io/github/samekey/spark/"
mkdir -p "$work/app/src/test/resources" && cp "$spark_dir/src/test/resources/log4j2.properties" "$work/app/src/test/resources/"
cd "$work/app"
unset LD_LIBRARY_PATH JAVA_TOOL_OPTIONS
env PATH=/usr/local/bin:/usr/bin:/bin SAMEKEY_SPARK_ROWS="$rows" \
  SAMEKEY_VECTORS="$(realpath "${SAMEKEY_VECTORS:-$repo_root/test-vectors/samekey.json}")" \
  mvn -B -q -Dmaven.repo.local="$local_repo" test
grep -h 'Tests run' target/surefire-reports/*.txt
