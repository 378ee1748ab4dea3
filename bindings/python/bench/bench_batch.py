"""Batch keying next to what a user would otherwise write, 1M rows each, one run with the
variants of each table interleaved round by round (best round reported). `just
bench-batch` runs it in the engines' virtualenv with the release CLI:

- Python: samekey.arrow on pyarrow arrays, UlidDeriver.derive_many on lists, and the
  fastest pure-Python loop (hashlib, same ids; bench.py's).
- Polars: the samekey.polars expression, a Polars-native approximation
  (concat_str + Polars' own 64-bit hash: no ULID, not the same in other languages) and
  map_elements with the hashlib loop.
- Spark (local[2]): the samekey Arrow UDF, a Python UDF with the hashlib loop, and
  Spark's built-in sha2(concat_ws(...), 256) (a hash only, no ULID).
- CLI: samekey batch on 1 and 2 threads, jq -c (parse and print only, a floor for any
  JSON tool) and the same pipeline in Python with the samekey binding.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Sequence, Tuple

import samekey
import samekey.arrow

sys.path.insert(0, str(Path(__file__).parent))
from bench import pure_python  # noqa: E402

BASE_MS = 1714564800000
Variant = Tuple[str, Callable[[], Any]]


def interleaved(variants: Sequence[Variant], rounds: int) -> Dict[str, float]:
    best: Dict[str, float] = {}
    for _ in range(rounds):
        for name, run in variants:
            start = time.perf_counter()
            run()
            elapsed = time.perf_counter() - start
            best[name] = min(best.get(name, elapsed), elapsed)
    return best


def table(title: str, rows: int, best: Dict[str, float], peer: str) -> None:
    print(f"\n{title}: {rows:,} rows, best of the interleaved rounds")
    print(f"| variant | seconds | rows/s | x {peer} |")
    print("|---|---:|---:|---:|")
    for name, seconds in best.items():
        print(f"| {name} | {seconds:.3f} | {rows / seconds:,.0f} | {best[peer] / seconds:.1f}x |")
    sys.stdout.flush()


def columns(n: int) -> Tuple[List[int], List[str], List[str]]:
    return (
        [BASE_MS + i for i in range(n)],
        [f"post-{i:07d}-a-typical-slug" for i in range(n)],
        ["en" if i % 3 else "de" for i in range(n)],
    )


def bench_python(n: int, rounds: int) -> None:
    import pyarrow as pa

    times, slugs, langs = columns(n)
    arrays = (pa.array(times, pa.int64()), pa.array(slugs), pa.array(langs))
    deriver = samekey.UlidDeriver()
    # The three are the same ids before they are timed.
    check = samekey.arrow.derive_ulids(*arrays).to_pylist()
    assert check[:1000] == deriver.derive_many(times[:1000], slugs[:1000], langs[:1000], as_str=True)
    assert check[:1000] == [pure_python([s.encode(), l.encode()], t) for t, s, l in zip(times[:1000], slugs, langs)]

    def loop() -> None:
        for t, s, l in zip(times, slugs, langs):
            pure_python([s.encode(), l.encode()], t)

    best = interleaved([
        ("pure-Python loop (hashlib)", loop),
        ("UlidDeriver.derive_many (lists)", lambda: deriver.derive_many(times, slugs, langs, as_str=True)),
        ("samekey.arrow.derive_ulids (pyarrow)", lambda: samekey.arrow.derive_ulids(*arrays)),
    ], rounds)
    table("Python, ULID text", n, best, "pure-Python loop (hashlib)")


def bench_polars(n: int, rounds: int) -> None:
    import polars as pl

    import samekey.polars as skp

    times, slugs, langs = columns(n)
    df = pl.DataFrame({"t": pl.Series(times, dtype=pl.Int64), "slug": slugs, "lang": langs})
    by_samekey = df.select(skp.ulid("t", "slug", "lang").alias("id"))["id"]
    assert by_samekey[:1000].to_list() == [pure_python([s.encode(), l.encode()], t) for t, s, l in zip(times[:1000], slugs, langs)]

    def row_udf(r: Dict[str, Any]) -> str:
        return pure_python([r["slug"].encode(), r["lang"].encode()], r["t"])

    best = interleaved([
        ("map_elements + hashlib", lambda: df.select(pl.struct("t", "slug", "lang").map_elements(row_udf, return_dtype=pl.String))),
        ("concat_str + Polars hash (u64, no ULID)", lambda: df.select(pl.concat_str("slug", "lang", separator=":").hash())),
        ("samekey.polars.ulid", lambda: df.select(skp.ulid("t", "slug", "lang"))),
    ], rounds)
    table("Polars, one column of keys", n, best, "map_elements + hashlib")


def bench_spark(n: int, rounds: int) -> None:
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType

    import samekey.spark as sks

    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]").appName("samekey-bench")
        .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    df = (
        spark.range(n, numPartitions=4)
        .withColumn("ms", F.lit(BASE_MS) + F.col("id"))
        .withColumn("slug", F.format_string("post-%07d-a-typical-slug", F.col("id")))
        .withColumn("lang", F.when(F.col("id") % 3 == 0, "de").otherwise("en"))
        .select("ms", "slug", "lang")
        .cache()
    )
    df.count()

    @F.udf(StringType())  # type: ignore[misc]
    def hashlib_udf(ms: int, slug: str, lang: str, _tag: Dict[str, Any] = {}) -> str:  # noqa: B006
        # bench.py's loop, self-contained for the workers (which cannot import it), with
        # the tag block's hash state made once per worker (a hash state does not pickle).
        import base64
        import hashlib
        import struct

        if not _tag:
            _tag["h"] = hashlib.sha256(b"samekey/v1/ulid".ljust(64, b"\0"))
        h = _tag["h"].copy()
        parts = [struct.pack(">I", 0), struct.pack(">I", 2)]
        for f in (slug.encode(), lang.encode()):
            parts += (struct.pack(">I", len(f)), f)
        h.update(b"".join(parts))
        n = int.from_bytes(ms.to_bytes(6, "big") + h.digest()[:10], "big")
        text = base64.b32encode((n << 30).to_bytes(20, "big")).decode()[:26]
        return text.translate(str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789ABCDEFGHJKMNPQRSTVWXYZ"))

    first = df.limit(100).select(sks.ulid("ms", "slug", "lang").alias("a"), hashlib_udf("ms", "slug", "lang").alias("b")).collect()
    assert all(r.a == r.b for r in first)

    def run(column: Any) -> Callable[[], None]:
        # The noop sink computes every row and column and keeps nothing.
        return lambda: df.select(column.alias("k")).write.format("noop").mode("overwrite").save()

    best = interleaved([
        ("Python UDF + hashlib", run(hashlib_udf("ms", "slug", "lang"))),
        ("built-in sha2(concat_ws) (hash only)", run(F.sha2(F.concat_ws(":", "slug", "lang"), 256))),
        ("samekey.spark.ulid (Arrow UDF)", run(sks.ulid("ms", "slug", "lang"))),
    ], rounds)
    table("Spark local[2], one column of keys", n, best, "Python UDF + hashlib")
    spark.stop()


PYTHON_BATCH = """
import json, sys, samekey
deriver = samekey.UlidDeriver("v1", namespace="posts")
out = sys.stdout
for line in open(sys.argv[1], encoding="utf-8"):
    rec = json.loads(line)
    rec.pop("_id", None); rec.pop("contentHash", None)
    rid = deriver.derive([rec["slug"], rec["lang"]], time=rec["publishedAt"])
    rec["_id"] = str(rid); rec["contentHash"] = samekey.content_hash_json({k: v for k, v in rec.items() if k != "_id"})
    out.write(json.dumps(rec, ensure_ascii=False, separators=(",", ":")) + "\\n")
"""


def jsonl(path: Path, n: int) -> int:
    words = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor".split()
    size = 0
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            record = {
                "slug": f"post-{i:07d}-{words[i % len(words)]}", "lang": ["en", "de", "fr"][i % 3],
                "publishedAt": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:{i * 7 % 60:02d}.{i % 1000:03d}Z",
                "title": " ".join(words[(i + k) % len(words)] for k in range(6)),
                "body": " ".join(words[(i * k) % len(words)] for k in range(14)),
                "tags": [words[i % 5], words[(i + 3) % 7]], "views": i * 37 % 1_000_003,
                "rating": round((i % 500) / 100, 2), "draft": i % 7 == 0,
            }
            line = json.dumps(record, separators=(",", ":")) + "\n"
            size += len(line)
            f.write(line)
    return size


def bench_cli(cli: str, n: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "posts.jsonl"
        size = jsonl(path, n)
        args = [cli, "batch", "--fields", "slug,lang", "--time-field", "publishedAt", "--namespace", "posts", "--no-progress"]
        # The CLI and the Python pipeline give the same ids and hashes.
        head = Path(tmp) / "head.jsonl"
        head.write_text("".join(path.open(encoding="utf-8").readline() for _ in range(1000)), encoding="utf-8")
        by_cli = subprocess.run([*args, str(head)], capture_output=True, text=True, check=True).stdout
        by_py = subprocess.run([sys.executable, "-c", PYTHON_BATCH, str(head)], capture_output=True, text=True, check=True).stdout
        keys = lambda text: [(r["_id"], r["contentHash"]) for r in map(json.loads, text.splitlines())]  # noqa: E731
        assert keys(by_cli) == keys(by_py)

        def command(argv: List[str]) -> Callable[[], None]:
            def run() -> None:
                with open(os.devnull, "wb") as sink:
                    subprocess.run(argv, stdout=sink, check=True)
            return run

        best = interleaved([
            ("Python pipeline (json + samekey binding)", command([sys.executable, "-c", PYTHON_BATCH, str(path)])),
            ("jq -c . (parse and print only)", command(["jq", "-c", ".", str(path)])),
            ("samekey batch --threads 1", command([*args, "--threads", "1", str(path)])),
            ("samekey batch --threads 2", command([*args, "--threads", "2", str(path)])),
        ], rounds)
        print(f"\n(JSONL of {n:,} lines, {size / n:.0f} bytes per line on average)")
        table("CLI batch, JSONL in, keyed JSONL out", n, best, "Python pipeline (json + samekey binding)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True, help="the samekey binary (release build)")
    parser.add_argument("--rows", type=int, default=int(os.environ.get("SAMEKEY_BENCH_ROWS", 1_000_000)))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=["python", "polars", "spark", "cli"])
    a = parser.parse_args()
    print(f"samekey {samekey.__version__}, {os.cpu_count()} CPUs")
    for name, run in [
        ("python", lambda: bench_python(a.rows, a.rounds)),
        ("polars", lambda: bench_polars(a.rows, a.rounds)),
        ("spark", lambda: bench_spark(a.rows, a.rounds)),
        ("cli", lambda: bench_cli(a.cli, a.rows, a.rounds)),
    ]:
        if a.only in (None, name):
            run()


if __name__ == "__main__":
    main()
