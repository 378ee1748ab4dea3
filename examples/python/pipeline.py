"""The blog-ingestion pipeline on PostgreSQL (psycopg 3): one JSONL post per line,
upserted under an id derived from (slug, lang) and publishedAt.

    python pipeline.py postgresql://... INPUT.jsonl [OUTPUT.tsv]

OUTPUT gets one line per post: id, slug, lang, source hash, action; the Node and Go
pipelines write the same file for the same input. Each post is retried on a timeout or a
lost connection (a lost acknowledgement): the retry finds the stored document and writes
nothing, because the id and the content hash are the same.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import List, Optional, Tuple

import psycopg

import samekey

NAMESPACE = "posts"
DERIVER = samekey.UlidDeriver("v1", namespace=NAMESPACE)

SCHEMA = """
CREATE TABLE IF NOT EXISTS posts (
    id TEXT PRIMARY KEY, slug TEXT NOT NULL, lang TEXT NOT NULL, published_at TEXT NOT NULL,
    body TEXT NOT NULL, source_hash TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (slug, lang))
"""

# ANCHOR: upsert_sql
UPSERT = """
INSERT INTO posts (id, slug, lang, published_at, body, source_hash)
VALUES (%s, %s, %s, %s, %s, %s)
ON CONFLICT (id) DO UPDATE SET body = excluded.body, source_hash = excluded.source_hash,
    updated_at = clock_timestamp()
WHERE posts.source_hash IS DISTINCT FROM excluded.source_hash
RETURNING id
"""
# ANCHOR_END: upsert_sql

Result = Tuple[str, str, str]


async def connect(dsn: str) -> psycopg.AsyncConnection:
    return await psycopg.AsyncConnection.connect(dsn, autocommit=True)


async def create_schema(dsn: str) -> None:
    async with await connect(dsn) as conn:
        # Two pipelines may start at once; CREATE TABLE IF NOT EXISTS races in PostgreSQL.
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(4242)")
            await conn.execute(SCHEMA)


# ANCHOR: ingest
async def ingest(conn: psycopg.AsyncConnection, line: str) -> Result:
    """Ingests one source line; returns (id, source hash, action)."""
    post = json.loads(line)
    fields = [post["slug"], post["lang"]]
    ulid = str(DERIVER.derive(fields, time=post["publishedAt"]))
    source_hash = samekey.content_hash_json_text(line)
    cur = await conn.execute("SELECT id, source_hash FROM posts WHERE slug = %s AND lang = %s", (post["slug"], post["lang"]))
    stored = await cur.fetchone()
    if stored and stored[0] != ulid:
        # An identity field changed: writing would orphan the stored document.
        try:
            samekey.verify(stored[0], fields, time=post["publishedAt"], namespace=NAMESPACE)
        except samekey.SamekeyError as e:
            return ulid, source_hash, f"refused:{e.code}"
    if stored and not samekey.needs_write(stored[1], source_hash):
        return ulid, source_hash, "unchanged"
    cur = await conn.execute(UPSERT, (ulid, post["slug"], post["lang"], post["publishedAt"], post["body"], source_hash))
    if await cur.fetchone() is None:
        # Another run wrote the same document between our read and our write.
        return ulid, source_hash, "unchanged"
    return ulid, source_hash, "updated" if stored else "inserted"
# ANCHOR_END: ingest


async def run(dsn: str, lines: List[str], timeout: float = 2.0, attempts: int = 5) -> List[str]:
    """Ingests every line, retrying a post whose answer did not arrive within `timeout`."""
    await create_schema(dsn)
    conn: Optional[psycopg.AsyncConnection] = None
    out = []
    for line in lines:
        if not line.strip():
            continue
        for attempt in range(attempts):
            try:
                if conn is None:
                    conn = await connect(dsn)
                ulid, source_hash, action = await asyncio.wait_for(ingest(conn, line), timeout)
                break
            except psycopg.errors.UniqueViolation:
                # A concurrent run stored this (slug, lang) first: look again.
                continue
            except (TimeoutError, asyncio.TimeoutError, psycopg.OperationalError) as e:
                print(f"pipeline: attempt {attempt + 1} failed ({type(e).__name__}); retrying", file=sys.stderr)
                if conn is not None:
                    await conn.close()
                conn = None
        else:
            raise RuntimeError(f"gave up after {attempts} attempts: {line}")
        post = json.loads(line)
        out.append("\t".join([ulid, post["slug"], post["lang"], source_hash, action]))
    if conn is not None:
        await conn.close()
    return out


def main(argv: List[str]) -> int:
    if len(argv) < 3:
        print("usage: python pipeline.py DSN INPUT.jsonl [OUTPUT.tsv]", file=sys.stderr)
        return 2
    with open(argv[2], encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = asyncio.run(run(argv[1], lines))
    if len(argv) > 3:
        with open(argv[3], "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
