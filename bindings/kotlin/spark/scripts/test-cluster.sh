#!/usr/bin/env bash
# samekey-spark on a standalone cluster on this machine: a master and two workers, each its
# own process on 127.0.0.1 (pyspark's spark-class, scripts/spark-cluster.sh), started here
# and stopped on exit; then
# spark-submit runs ClusterCheck with samekey-spark as a Spark user adds it,
# `--packages io.github.samekey:samekey-spark:VERSION`, resolved by Spark's Ivy from the
# file:// repository (just jvm::dist) and Maven Central only (not ~/.m2, which holds the
# build's copy), so that samekey's native library loads, from the JAR Spark shipped, in
# executor JVMs that are not the driver. After scripts/test.sh (its test classes).
#
#   scripts/test-cluster.sh PYTHON [ROWS]
set -euo pipefail
python=$1
rows=${2:-200000}
. "$(dirname "$0")/env.sh"
SPARK_HOME=$(cd "$jars/.." && pwd)
test -d "$out/test-classes" || { echo "cluster: run scripts/test.sh first" >&2; exit 1; }
. "$repo/scripts/spark-cluster.sh"
spark_cluster_start

jar --create --file "$work/checks.jar" -C "$out/test-classes" .
cat > "$work/ivysettings.xml" <<XML
<ivysettings>
  <settings defaultResolver="release"/>
  <caches defaultCacheDir="$work/ivy-cache"/>
  <resolvers>
    <chain name="release">
      <ibiblio name="samekey-dist" m2compatible="true" root="file://$repo/target/dist/maven/"/>
      <ibiblio name="central" m2compatible="true" root="https://repo1.maven.org/maven2/"/>
    </chain>
  </resolvers>
</ivysettings>
XML
if ! "$SPARK_HOME/bin/spark-submit" --master "$master" --deploy-mode client \
    --conf spark.ui.enabled=false --conf spark.executor.memory=768m \
    --conf "spark.driver.extraJavaOptions=-Dlog4j2.configurationFile=$spark_dir/src/test/resources/log4j2.properties" \
    --conf spark.sql.extensions=io.github.samekey.spark.SamekeyExtensions \
    --conf "spark.jars.ivySettings=$work/ivysettings.xml" --conf "spark.jars.ivy=$work/ivy" \
    --packages "io.github.samekey:samekey-spark:$version" \
    --class io.github.samekey.spark.ClusterCheck "$work/checks.jar" "$rows" 2; then
  echo "cluster: failed; the master's and workers' logs:" >&2
  spark_cluster_logs 20
  exit 1
fi
