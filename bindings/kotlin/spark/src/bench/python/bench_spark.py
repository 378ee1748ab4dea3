"""1M rows' ids on Spark (local[2]), four ways in the same session, interleaved rounds:
samekey_ulid (samekey-spark's SQL function), samekey.spark.ulid (the Python Arrow UDF),
a Java UDF doing v1 by hand with MessageDigest, Spark's built-in
sha2(concat_ws(...), 256) (a hash only: no id), and concat_ws alone (no hash: what the
job costs without any of them). Each way is timed as a
projection written to Spark's noop sink; the median of the rounds is printed with its
time over samekey_ulid's.

    python bench_spark.py ROWS ROUNDS   (SAMEKEY_SPARK_JARS names the JARs)
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.types import StringType

import samekey.spark as sks


def main() -> None:
    rows, rounds = int(sys.argv[1]), int(sys.argv[2])
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("samekey-spark-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.jars", os.environ["SAMEKEY_SPARK_JARS"])
        .config("spark.sql.extensions", "io.github.samekey.spark.SamekeyExtensions")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    spark.udf.registerJavaFunction("md_ulid", "io.github.samekey.spark.bench.MessageDigestUlid", StringType())
    base = (
        spark.range(rows, numPartitions=8)
        .select(
            (F.lit(1714564800000) + F.col("id")).alias("ms"),
            F.format_string("my-first-post-%06d", F.col("id")).alias("slug"),
            F.lit("en").alias("lang"),
        )
        .withColumn("t", F.timestamp_millis("ms"))
        .cache()
    )
    base.count()
    ways = {
        "samekey_ulid (SQL function, JVM)": F.expr("samekey_ulid('v1', t, '', slug, lang)"),
        "samekey.spark.ulid (Python Arrow UDF)": sks.ulid("t", "slug", "lang"),
        "Java UDF, MessageDigest (the peer)": F.expr("md_ulid(ms, slug, lang)"),
        "sha2(concat_ws(...), 256) (built in; hash only)": F.sha2(F.concat_ws(":", "slug", "lang"), 256),
        "concat_ws(...) (no hash: the job's own cost)": F.concat_ws(":", "slug", "lang"),
    }
    same = base.limit(10_000).select(*(c.alias(f"c{i}") for i, c in enumerate(list(ways.values())[:3])))
    assert same.where("c0 != c1 OR c0 != c2").count() == 0, "the ways' ids differ"
    times = {name: [] for name in ways}
    for _ in range(rounds):
        for name, column in ways.items():
            start = time.perf_counter()
            base.select(column.alias("id")).write.format("noop").mode("overwrite").save()
            times[name].append(time.perf_counter() - start)
    ours = statistics.median(times[next(iter(ways))])
    print(f"{rows:,} rows, local[2], 8 partitions, median of {rounds} interleaved rounds")
    print("| way | s | ns / row | its time / samekey_ulid's |")
    print("|---|---:|---:|---:|")
    for name, t in times.items():
        m = statistics.median(t)
        print(f"| {name} | {m:.2f} | {m / rows * 1e9:,.0f} | {m / ours:.2f}x |")
    spark.stop()


if __name__ == "__main__":
    main()
