#!/usr/bin/env bash
# The README's "samekey on a Spark cluster" recipe, run as written on a standalone cluster
# on this machine: a master and two workers, each its own process on 127.0.0.1 (pyspark's
# spark-class, scripts/spark-cluster.sh), started here and stopped on exit. The packed
# environment is made the README's way (python -m venv env; pip install samekey pyarrow
# pandas venv-pack; venv-pack -p env -o env.tar.gz), with samekey from the wheel this
# checkout built in place of PyPI and the engines' pinned pyarrow and pandas; then
# spark-submit with the README's --archives and two settings runs spark_cluster_job.py,
# whose executors must import samekey from that archive and derive what the driver derives.
#
#   scripts/test-spark-cluster.sh [ROWS]      (after just python::setup-engines)
set -euo pipefail
cd "$(dirname "$0")/.."  # bindings/python
here=$PWD
repo=$(cd ../.. && pwd)
rows=${1:-200000}
driver=$here/.venv-engines/bin/python
test -x "$driver" || { echo "spark-cluster: no .venv-engines: run just python::setup-engines" >&2; exit 1; }
pin() { grep -m1 "^$1==" "$here/tests/engines/requirements.txt"; }
venv_pack=venv-pack==0.2.0

SPARK_HOME=$("$driver" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
. "$repo/scripts/spark-cluster.sh"
spark_cluster_start

# The README's recipe, in a directory of the user's.
cd "$work"
python3 -m venv env
env/bin/pip install --quiet --disable-pip-version-check --no-index --find-links "$repo/target/python-engines" samekey
env/bin/pip install --quiet --disable-pip-version-check "$(pin pyarrow)" "$(pin pandas)" "$venv_pack"
env/bin/venv-pack -q -p env -o env.tar.gz
cp "$here/scripts/spark_cluster_job.py" job.py
if ! "$SPARK_HOME/bin/spark-submit" --master "$master" --deploy-mode client \
    --conf spark.ui.enabled=false --conf spark.executor.memory=768m \
    --archives env.tar.gz#env \
    --conf spark.pyspark.python=./env/bin/python \
    --conf spark.pyspark.driver.python="$driver" \
    job.py "$rows" 2> "$work/driver.log"; then
  echo "spark-cluster: failed; the driver's, master's and workers' logs:" >&2
  tail -n 30 "$work/driver.log" >&2; spark_cluster_logs 30
  exit 1
fi
