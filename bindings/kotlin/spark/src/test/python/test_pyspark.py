"""samekey-spark's SQL functions from PySpark (the JARs through spark.jars, one setting),
against Python's own samekey.spark column functions (Arrow UDFs) in the same job: two
implementations, one answer. Run by scripts/test.sh with the engines' venv, which has
samekey and pyspark installed; SAMEKEY_SPARK_JARS names the JARs."""

from __future__ import annotations

import os
import pathlib
import sys
from datetime import datetime, timezone
from typing import Iterator

import pytest
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import samekey
import samekey.spark as sks

REPO = pathlib.Path(__file__).resolve().parents[6]
README = REPO / "bindings" / "kotlin" / "README.md"
sys.path.insert(0, str(REPO / "docs" / "scripts"))
import test_readmes  # noqa: E402


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("samekey-spark-pyspark")
        .config("spark.ui.enabled", "false")
        .config("spark.jars", os.environ["SAMEKEY_SPARK_JARS"])
        .config("spark.sql.extensions", "io.github.samekey.spark.SamekeyExtensions")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_the_sql_function_gives_the_python_columns_ids(spark: SparkSession) -> None:
    rows = 20_000
    df = spark.range(rows).select(
        F.timestamp_millis(F.lit(1714564800000) + F.col("id") * 997).alias("published_at"),
        F.concat(F.lit("post-é-"), F.col("id").cast("string")).alias("slug"),
        F.when(F.col("id") % 3 == 0, "de").otherwise("en").alias("lang"),
    )
    both = df.select(
        F.expr("samekey_ulid('v1', published_at, 'posts', slug, lang)").alias("jvm"),
        sks.ulid("published_at", "slug", "lang", namespace="posts").alias("python"),
        F.expr("samekey_ulid('v2', published_at, '', slug)").alias("jvm2"),
        sks.ulid("published_at", "slug", scheme="v2").alias("python2"),
    )
    assert both.count() == rows
    assert both.where("jvm != python OR jvm2 != python2").count() == 0


def test_content_hashes_agree(spark: SparkSession) -> None:
    df = spark.range(2_000).select(F.concat(F.lit("body "), F.col("id").cast("string"), F.lit(" ☃")).alias("body"))
    both = df.select(
        F.expr("samekey_content_hash(body)").alias("jvm"),
        sks.content_hash("body").alias("python"),
        F.expr("samekey_content_hash('v2', CAST(body AS BINARY))").alias("jvm2"),
        sks.content_hash(F.col("body").cast("binary"), scheme="v2").alias("python2"),
    )
    assert both.where("jvm != python OR jvm2 != python2").count() == 0
    assert both.first()["jvm"].startswith("sha256:")


def readme_blocks(language: str) -> list[str]:
    """The README's blocks of `language` that say this file runs them."""
    mark = ("tested", str(pathlib.Path(__file__).resolve().relative_to(REPO)))
    return [code for _, lang, code, marks in test_readmes.blocks(README) if lang == language and mark in marks]


def test_the_readmes_query_and_pyspark_line_run_as_written(spark: SparkSession) -> None:
    # The README's `posts` table: a TIMESTAMP, the identity's text fields and a body.
    rows = [
        (datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc), "hello-world", "en", "Hello, world."),
        (datetime(2024, 5, 1, 12, 0, 0, 999_000, tzinfo=timezone.utc), "grüße", "de", "Grüße ☃"),
        (datetime(1970, 1, 1, tzinfo=timezone.utc), "", "x", ""),
    ]
    posts = spark.createDataFrame(rows, "published_at TIMESTAMP, slug STRING, lang STRING, body STRING")
    posts.createOrReplaceTempView("posts")
    # What Python's samekey (checked against every vector in its own tests) gives them.
    want = {(r[1], r[2]): str(samekey.derive_ulid([r[1], r[2]], time=r[0], namespace="posts")) for r in rows}
    hashes = {samekey.content_hash(r[3].encode()) for r in rows}

    [query] = readme_blocks("sql")
    got = spark.sql(query).collect()
    assert sorted(r["id"] for r in got) == sorted(want.values())
    assert {r["body_hash"] for r in got} == hashes

    [line] = readme_blocks("python")
    with_id = eval(line, {"posts": posts, "F": F})  # an expression over the job's `posts` and `F`
    assert {(r["slug"], r["lang"]): r["id"] for r in with_id.collect()} == want
