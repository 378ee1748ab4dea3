"""The job test-spark-cluster.sh submits: ids made by samekey on the executors of a
standalone cluster, whose Python is the packed environment, against the driver's own
batch. Exits non-zero on any difference.

    spark-submit ... spark_cluster_job.py ROWS
"""
from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone

from pyspark.sql import SparkSession

import samekey
import samekey.spark as sks


def where_samekey_runs(_: object) -> tuple[str, str]:
    import sys as executor_sys

    import samekey as executor_samekey
    return executor_sys.executable, executor_samekey.__file__


def main(rows: int) -> int:
    spark = SparkSession.builder.appName("samekey-cluster-check").getOrCreate()
    start = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)  # aware: naive ones follow the driver's zone
    data = [(start + timedelta(seconds=i), f"post-{i}", "en" if i % 2 else "fr") for i in range(rows)]
    posts = spark.createDataFrame(data, "published_at timestamp, slug string, lang string").repartition(8)
    keyed = sks.with_ulid(posts, time="published_at", fields=["slug", "lang"], namespace="posts", name="id")
    got = {(r.slug, r.lang): r.id for r in keyed.select("slug", "lang", "id").collect()}

    deriver = samekey.UlidDeriver("v1", namespace="posts")
    want = {(slug, lang): str(deriver.derive([slug, lang], time=t)) for t, slug, lang in data}
    wrong = [k for k in want if got.get(k) != want[k]]

    places = spark.sparkContext.parallelize(range(8), 8).map(where_samekey_runs).distinct().collect()
    outside = [p for p in places if "/env/" not in p[0] or "/env/" not in p[1]]
    # The block managers Spark knows: the driver's and one per executor.
    executors = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
    print(f"spark-cluster: {len(got)} ids made on {executors} executors, {len(wrong)} differ from "
          f"the driver's batch; the executors' Python: {sorted({p[0] for p in places})}")
    spark.stop()
    if executors < 2:
        print("spark-cluster: FAILED: the job did not run on the two workers' executors")
        return 1
    if len(got) != rows or wrong:
        print(f"spark-cluster: FAILED: {len(got)} of {rows} rows, first differences {wrong[:3]}")
        return 1
    if outside:
        print(f"spark-cluster: FAILED: samekey ran outside the packed environment: {outside}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000))
