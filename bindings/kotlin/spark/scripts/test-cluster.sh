#!/usr/bin/env bash
# samekey-spark on a standalone cluster on this machine: a master and two workers, each its
# own process on 127.0.0.1 (pyspark's spark-class), started here and stopped on exit; then
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
export SPARK_HOME
SPARK_HOME=$(cd "$jars/.." && pwd)
test -d "$out/test-classes" || { echo "cluster: run scripts/test.sh first" >&2; exit 1; }

work=$(mktemp -d)
pids=()
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap stop EXIT
port() { "$repo/scripts/free-port.sh"; }

export SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR=$work/logs SPARK_WORKER_DIR=$work/work
master_port=$(port)
"$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 \
  --port "$master_port" --webui-port "$(port)" > "$work/master.log" 2>&1 &
pids+=($!)
master=spark://127.0.0.1:$master_port
for n in 1 2; do
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker "$master" --host 127.0.0.1 \
    --cores 1 --memory 1g --webui-port "$(port)" --work-dir "$work/worker$n" > "$work/worker$n.log" 2>&1 &
  pids+=($!)
done

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
  tail -n 20 "$work"/*.log "$work"/worker*/*/*/stderr 2>/dev/null >&2 || true
  exit 1
fi
