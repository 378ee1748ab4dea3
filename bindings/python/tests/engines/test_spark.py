"""samekey in Apache Spark on a real local cluster (master local[2]: a driver JVM,
executor threads and Python worker processes): the column functions (Arrow UDFs) and
with_ulid (mapInArrow)."""

from __future__ import annotations

import os
import sys
from typing import Any, Dict, Iterator, List

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

import samekey
import samekey.arrow
import samekey.spark as sks
from samekey._vectors import _text


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    # The workers run this interpreter, where samekey is installed.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("samekey-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _text_groups(ulid_vectors: List[Dict[str, Any]]) -> Dict[Any, List[Dict[str, Any]]]:
    groups: Dict[Any, List[Dict[str, Any]]] = {}
    for v in ulid_vectors:
        if "ulid" not in v["expect"] or not v["fields"] or not isinstance(v["namespace"], str):
            continue
        if not all(isinstance(f, str) for f in v["fields"]):
            continue
        key = (_text(v["scheme"]), v["namespace"], v.get("secret_hex"), len(v["fields"]))
        groups.setdefault(key, []).append(v)
    assert groups
    return groups


def _vector_frame(spark: SparkSession, rows: List[Dict[str, Any]], width: int) -> DataFrame:
    names = ["i", "ms"] + [f"f{c}" for c in range(width)]
    data = [(i, int(v["timestamp_ms"]), *v["fields"]) for i, v in enumerate(rows)]
    schema = ", ".join(["i int", "ms bigint"] + [f"f{c} string" for c in range(width)])
    df = spark.createDataFrame(data, schema).toDF(*names)
    return df.withColumn("t", F.timestamp_millis("ms"))


def test_every_text_ulid_vector_through_spark(spark: SparkSession, ulid_vectors: List[Dict[str, Any]]) -> None:
    checked = 0
    for (scheme, namespace, secret_hex, width), rows in _text_groups(ulid_vectors).items():
        secret = bytes.fromhex(secret_hex) if secret_hex is not None else None
        opts: Dict[str, Any] = {"namespace": namespace, "scheme": scheme, "secret": secret}
        df = _vector_frame(spark, rows, width).repartition(2)
        fields = [f"f{c}" for c in range(width)]
        out = (
            df.withColumn("by_time", sks.ulid("t", *fields, **opts))
            .withColumn("by_ms", sks.ulid(F.col("ms"), *(F.col(f) for f in fields), **opts))
        )
        out = sks.with_ulid(out, time="t", fields=fields, name="by_map", **opts)
        got = sorted(out.select("i", "by_time", "by_ms", "by_map").collect())
        want = [v["expect"]["ulid"] for v in rows]
        assert [r.by_time for r in got] == want
        assert [r.by_ms for r in got] == want
        assert [r.by_map for r in got] == want
        checked += len(rows)
    assert checked


def test_a_million_rows_equal_the_single_machine_batch(spark: SparkSession) -> None:
    n = 1_000_000
    base = 1714564800000
    df = (
        spark.range(n, numPartitions=4)
        .withColumn("t", F.timestamp_millis(F.lit(base) + F.col("id")))
        .withColumn("slug", F.concat(F.lit("post-"), F.col("id").cast("string")))
        .withColumn("lang", F.when(F.col("id") % 3 == 0, "en").otherwise("de"))
    )
    out = df.select("id", sks.ulid("t", "slug", "lang", namespace="posts", scheme="v2").alias("key"))
    table = out.toArrow().sort_by("id")
    ids = pa.array(range(n), pa.int64())
    local = samekey.arrow.derive_ulids(
        pc.add(ids, base),
        pa.array([f"post-{i}" for i in range(n)]),
        pa.array(["en" if i % 3 == 0 else "de" for i in range(n)]),
        namespace="posts",
        scheme="v2",
    )
    assert table.column("id").to_pylist() == ids.to_pylist()
    assert table.column("key").combine_chunks().equals(local)


def test_the_session_time_zone_does_not_change_ids(spark: SparkSession) -> None:
    df = spark.createDataFrame([(1714564800123,)], "ms bigint").withColumn("t", F.timestamp_millis("ms"))
    want = str(samekey.derive_ulid(["x"], time_ms=1714564800123))
    for zone in ("UTC", "Asia/Tokyo", "America/Los_Angeles"):
        spark.conf.set("spark.sql.session.timeZone", zone)
        assert df.select(sks.ulid("t", F.lit("x")).alias("id")).first().id == want  # type: ignore[union-attr]
    spark.conf.set("spark.sql.session.timeZone", "UTC")


def test_timestamp_ntz_is_refused_with_its_code(spark: SparkSession) -> None:
    df = spark.createDataFrame([(1,)], "ms bigint").withColumn("t", F.col("ms").cast("timestamp").cast("timestamp_ntz"))
    with pytest.raises(Exception, match=r"error\[invalid_timestamp\]"):
        df.select(sks.ulid("t", F.lit("x"))).collect()
    with pytest.raises(Exception, match=r"error\[invalid_timestamp\]"):
        sks.with_ulid(df, time="t", fields=["ms"]).collect()


def test_nulls_binary_ids_and_content_hashes(spark: SparkSession) -> None:
    df = spark.createDataFrame([(1, "a"), (2, None)], "ms bigint, s string")
    rows = df.select(
        "ms",
        sks.ulid("ms", "s", nulls="propagate").alias("id"),
        sks.ulid("ms", "s", nulls="propagate", binary=True).alias("raw"),
        sks.content_hash("s", nulls="propagate", scheme="v2").alias("h"),
    ).orderBy("ms").collect()
    one = samekey.derive_ulid(["a"], time_ms=1)
    assert [(r.id, r.raw, r.h) for r in rows] == [
        (str(one), bytearray(bytes(one)), samekey.content_hash(b"a", scheme="v2")),
        (None, None, None),
    ]
    with pytest.raises(Exception, match="field column 0 is null at row"):
        df.select(sks.ulid("ms", "s")).collect()


def test_settings_are_checked_on_the_driver(spark: SparkSession) -> None:
    df = spark.createDataFrame([(1, "a")], "ms bigint, s string")
    with pytest.raises(samekey.SamekeyError) as e:
        sks.ulid("ms", "s", scheme="v9")
    assert e.value.code == "unknown_scheme"
    with pytest.raises(samekey.SamekeyError) as e:
        sks.with_ulid(df, time="ms", fields=[])
    assert e.value.code == "no_fields"
    with pytest.raises(ValueError, match="already has a column 's'"):
        sks.with_ulid(df, time="ms", fields=["s"], name="s")
