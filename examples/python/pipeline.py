"""The blog-ingestion pipeline on PostgreSQL (psycopg 3): one JSONL post per line,
upserted under an id derived from (slug, lang) and publishedAt.

    [SAMEKEY_RING=v2,v1] python pipeline.py postgresql://... INPUT.jsonl [OUTPUT.tsv]

OUTPUT gets one line per post: id, slug, lang, source hash, action; the Node and Go
pipelines write the same file for the same input. Each post is retried on a timeout or a
lost connection (a lost acknowledgement): the retry finds the stored document and writes
nothing, because the id and the content hash are the same.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import List, Optional, Sequence, Tuple

import psycopg

import samekey

import rollout
from rollout import ID_COLUMNS, NAMESPACE

# The store records each post's id under every scheme its writers' rings derive, one
# unique column per scheme (`id` is the id the post was created under, `id_scheme` its
# scheme: a ULID does not name its scheme). Writers with different rings share at least
# one scheme the store requires (rollout.py), so whichever inserts second conflicts on
# that scheme's column instead of adding a twin.
# ANCHOR: schema
SCHEMA = """
CREATE TABLE IF NOT EXISTS posts (
    id TEXT PRIMARY KEY, id_scheme TEXT NOT NULL,
    id_v1 TEXT CONSTRAINT posts_id_v1_key UNIQUE, id_v2 TEXT CONSTRAINT posts_id_v2_key UNIQUE,
    slug TEXT NOT NULL, lang TEXT NOT NULL, published_at TEXT NOT NULL,
    body TEXT NOT NULL, source_hash TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (slug, lang),
    CONSTRAINT posts_require_v1 CHECK (id_v1 IS NOT NULL))
"""
# ANCHOR_END: schema

# ANCHOR: upsert_sql
INSERT = """
INSERT INTO posts (id, id_scheme, id_v1, id_v2, slug, lang, published_at, body, source_hash)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING
RETURNING id
"""

UPDATE = """
UPDATE posts SET body = %s, source_hash = %s, updated_at = clock_timestamp(),
    id_v1 = COALESCE(id_v1, %s), id_v2 = COALESCE(id_v2, %s)
WHERE id = %s AND source_hash IS DISTINCT FROM %s
RETURNING id
"""

FIND = """
SELECT id, id_v1, id_v2, source_hash FROM posts
WHERE (slug = %s AND lang = %s) OR id_v1 = %s OR id_v2 = %s
LIMIT 1
"""

Result = Tuple[str, str, str]


class LookAgain(Exception):
    """Another writer stored this post between our read and our insert."""
# ANCHOR_END: upsert_sql


def key_ring(schemes: Sequence[str] = ("v1",)) -> samekey.KeyRing:
    """The writer's ring, primary first; every scheme in it needs a column."""
    ring = samekey.KeyRing.from_accept(list(schemes))
    missing = [s for s in ring.accepted if s not in ID_COLUMNS]
    if missing:
        raise ValueError(f"the posts table has no id column for {', '.join(missing)}")
    return ring


async def connect(dsn: str) -> psycopg.AsyncConnection:
    return await psycopg.AsyncConnection.connect(dsn, autocommit=True)


async def create_schema(dsn: str) -> None:
    async with await connect(dsn) as conn:
        # Two pipelines may start at once; CREATE TABLE IF NOT EXISTS races in PostgreSQL.
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(4242)")
            await rollout.record_schemes(conn)  # a table of the recipe before rings
            await conn.execute(SCHEMA)


def refusal(e: psycopg.errors.CheckViolation) -> str:
    """The store refused this writer's ring: it lacks a required scheme or holds a retired one."""
    name = e.diag.constraint_name or ""
    if name.startswith(("posts_require_", "posts_retire_")):
        return "refused:scheme_required"
    raise e


# ANCHOR: ingest
async def ingest(conn: psycopg.AsyncConnection, line: str, ring: samekey.KeyRing) -> Result:
    """Ingests one source line; returns (id, source hash, action)."""
    post = json.loads(line)
    fields, t = [post["slug"], post["lang"]], post["publishedAt"]
    ids = {s: str(u) for s, u in ring.candidate_ulids(fields, time=t, namespace=NAMESPACE)}
    ulid = ids[ring.primary]
    source_hash = samekey.content_hash_json_text(line)
    cur = await conn.execute(FIND, (post["slug"], post["lang"], ids.get("v1"), ids.get("v2")))
    stored = await cur.fetchone()
    try:
        if stored is None:
            row = (ulid, ring.primary, ids.get("v1"), ids.get("v2"), *fields, t, post["body"], source_hash)
            if await (await conn.execute(INSERT, row)).fetchone() is None:
                raise LookAgain()  # a unique id, or (slug, lang), is taken: read what is there
            return ulid, source_hash, "inserted"
        stored_id, recorded = stored[0], dict(zip(ID_COLUMNS, stored[1:3]))
        known = [(s, recorded[s]) for s in ring.accepted if recorded[s] is not None]
        if not known:
            # Created by a ring that shares no scheme with ours: we cannot tell whether it
            # is this post, and must not write it under an id of our own.
            return stored_id, source_hash, "refused:scheme_not_accepted"
        for scheme, recorded_id in known:
            # Every recorded id of our ring must be ours: an edited identity field fails,
            # and so would a collision in one scheme.
            try:
                if ring.verify_ulid(recorded_id, fields, time=t, namespace=NAMESPACE) != scheme:
                    return ulid, source_hash, "refused:identity_mismatch"
            except samekey.SamekeyError as e:
                return ulid, source_hash, f"refused:{e.code}"
        if not samekey.needs_write(stored[3], source_hash):
            return stored_id, source_hash, "unchanged"
        row = (post["body"], source_hash, ids.get("v1"), ids.get("v2"), stored_id, source_hash)
        if await (await conn.execute(UPDATE, row)).fetchone() is None:
            return stored_id, source_hash, "unchanged"  # another run wrote it first
        return stored_id, source_hash, "updated"
    except psycopg.errors.CheckViolation as e:
        return ulid, source_hash, refusal(e)
# ANCHOR_END: ingest


async def run(
    dsn: str, lines: List[str], timeout: float = 2.0, attempts: int = 5, ring: Sequence[str] = ("v1",)
) -> List[str]:
    """Ingests every line with a writer of key ring `ring` (primary first), retrying a post
    whose answer did not arrive within `timeout`."""
    keys = key_ring(ring)
    await create_schema(dsn)
    conn: Optional[psycopg.AsyncConnection] = None
    out = []
    for line in lines:
        if not line.strip():
            continue
        # ANCHOR: retry
        for attempt in range(attempts):
            try:
                if conn is None:
                    conn = await connect(dsn)
                ulid, source_hash, action = await asyncio.wait_for(ingest(conn, line, keys), timeout)
                break
            except (LookAgain, psycopg.errors.UniqueViolation):
                # A concurrent writer stored this post first: look again.
                continue
            except (TimeoutError, asyncio.TimeoutError, psycopg.OperationalError) as e:
                print(f"pipeline: attempt {attempt + 1} failed ({type(e).__name__}); retrying", file=sys.stderr)
                if conn is not None:
                    await conn.close()
                conn = None
        else:
            raise RuntimeError(f"gave up after {attempts} attempts: {line}")
        # ANCHOR_END: retry
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
    ring = os.environ.get("SAMEKEY_RING", "v1").split(",")
    out = asyncio.run(run(argv[1], lines, ring=ring))
    if len(argv) > 3:
        with open(argv[3], "w", encoding="utf-8", newline="\n") as f:
            f.write("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
