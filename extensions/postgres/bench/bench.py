"""Rows per second of samekey_ulid in SQL against the closest built-in expression a user
would write without the extension, encode(sha256(convert_to(slug || ':' || lang,
'UTF8')), 'hex') (a hash, not an id: no framing, no time, no ULID text), over the same
table in the same run, rounds interleaved, one backend (no parallel workers)."""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Dict, List

import psycopg

CONTENDERS = {
    "samekey_ulid v1 (text)": "samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang])",
    "samekey_ulid v2 (text)": "samekey_ulid('v2', published_at, 'posts', ARRAY[slug, lang])",
    "samekey_ulid_uuid v1": "samekey_ulid_uuid('v1', published_at, 'posts', ARRAY[slug, lang])",
    "built-in sha256 + encode": "encode(sha256(convert_to(slug || ':' || lang, 'UTF8')), 'hex')",
}
PEER = "built-in sha256 + encode"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    with psycopg.connect(os.environ["SAMEKEY_TEST_POSTGRES"], autocommit=True) as con:
        con.execute("CREATE EXTENSION IF NOT EXISTS samekey")
        con.execute("SET max_parallel_workers_per_gather = 0")
        con.execute("SET jit = off")
        con.execute("DROP TABLE IF EXISTS samekey_bench")
        con.execute("""CREATE TABLE samekey_bench AS
            SELECT 'a-post-title-of-some-length-' || i AS slug, (ARRAY['en','de','fr'])[1 + i %% 3] AS lang,
                   timestamptz '2024-01-01' + i * interval '1 s' AS published_at
            FROM generate_series(1, %s) i""", (args.rows,))
        con.execute("VACUUM ANALYZE samekey_bench")
        con.execute("SELECT count(*) FROM samekey_bench")  # warm the cache
        times: Dict[str, List[float]] = {name: [] for name in CONTENDERS}
        for _ in range(args.rounds):
            for name, expr in CONTENDERS.items():
                start = time.perf_counter()
                row = con.execute(f"SELECT count({expr}) FROM samekey_bench").fetchone()
                times[name].append(time.perf_counter() - start)
                assert row is not None and row[0] == args.rows
        con.execute("DROP TABLE samekey_bench")
        version = con.execute("SHOW server_version").fetchone()
    peer = statistics.median(times[PEER])
    print(f"PostgreSQL {version[0] if version else '?'}, {args.rows:,} rows, median of {args.rounds} "
          "interleaved rounds, one backend")
    print(f"| {'expression':<26} | {'seconds':>8} | {'rows/s':>11} | {'vs built-in':>11} |")
    print(f"|{'-' * 28}|{'-' * 9}:|{'-' * 12}:|{'-' * 12}:|")
    for name in CONTENDERS:
        m = statistics.median(times[name])
        print(f"| {name:<26} | {m:8.3f} | {args.rows / m:11,.0f} | {peer / m:10.2f}x |")


if __name__ == "__main__":
    main()
