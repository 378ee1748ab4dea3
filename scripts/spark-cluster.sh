# Sourced by the Spark cluster tests (bindings/python/scripts/test-spark-cluster.sh,
# bindings/kotlin/spark/scripts/test-cluster.sh): a standalone cluster on this machine, a
# master and two one-core workers, each its own process on 127.0.0.1 started with
# $SPARK_HOME/bin/spark-class, and stopped (with its scratch directory removed) when the
# calling script exits.
#
#   SPARK_HOME=... ; . scripts/spark-cluster.sh ; spark_cluster_start
#   → $master (spark://127.0.0.1:PORT), $work (scratch: the daemons' logs and work dirs)
#   spark_cluster_logs LINES   the last LINES of every daemon's and executor's log, to stderr

spark_cluster_stop() {
  for p in "${spark_cluster_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${spark_cluster_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}

spark_cluster_start() {
  local free_port n master_port
  free_port="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/free-port.sh"
  work=$(mktemp -d)
  spark_cluster_pids=()
  trap spark_cluster_stop EXIT
  export SPARK_HOME SPARK_LOCAL_IP=127.0.0.1 SPARK_LOG_DIR=$work/logs SPARK_WORKER_DIR=$work/work
  master_port=$("$free_port")
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 \
    --port "$master_port" --webui-port "$("$free_port")" > "$work/master.log" 2>&1 &
  spark_cluster_pids+=($!)
  master=spark://127.0.0.1:$master_port
  for n in 1 2; do
    "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker "$master" --host 127.0.0.1 \
      --cores 1 --memory 1g --webui-port "$("$free_port")" --work-dir "$work/worker$n" > "$work/worker$n.log" 2>&1 &
    spark_cluster_pids+=($!)
  done
}

spark_cluster_logs() {
  tail -n "$1" "$work"/*.log "$work"/worker*/*/*/stderr 2>/dev/null >&2 || true
}
