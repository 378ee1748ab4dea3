"""The pipeline's promises on PostgreSQL: re-runs write nothing, a lost acknowledgement
and its retry leave one document, two concurrent runs make no duplicate, a changed
publishedAt is refused, a changed body is written once.

Needs SAMEKEY_TEST_POSTGRES: a server these tests may create databases on
(`just test-examples` starts one with scripts/postgres.sh)."""

from __future__ import annotations

import asyncio
import os
import pathlib
import socket
import subprocess
import sys
import uuid

import psycopg
import pytest

import pipeline

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "data"
POSTS = (DATA / "posts.jsonl").read_text(encoding="utf-8").split("\n")
EDITED = (DATA / "posts-edited.jsonl").read_text(encoding="utf-8").split("\n")
COUNT = sum(1 for line in POSTS if line.strip())


def fresh_database(prefix: str = "ex") -> str:
    """A new, empty database on SAMEKEY_TEST_POSTGRES's server; its URL."""
    admin = os.environ.get("SAMEKEY_TEST_POSTGRES")
    if not admin:
        pytest.fail("SAMEKEY_TEST_POSTGRES is not set (just test-examples starts PostgreSQL)")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return f"{admin.rsplit('/', 1)[0]}/{name}?sslmode=disable&gssencmode=disable"


@pytest.fixture
def dsn():
    return fresh_database()


def snapshot(dsn: str):
    """Every row with its xmin: the row version PostgreSQL changes on every write."""
    with psycopg.connect(dsn) as conn:
        return conn.execute(
            "SELECT xmin::text, id, slug, lang, published_at, body, source_hash, updated_at, id_scheme, id_v1, id_v2"
            " FROM posts ORDER BY id").fetchall()


def documents(dsn: str):
    """The documents without their write metadata (xmin, updated_at)."""
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT id, slug, lang, published_at, body, source_hash FROM posts ORDER BY id").fetchall()


def run(dsn: str, lines, **kw):
    return asyncio.run(pipeline.run(dsn, lines, **kw))


def test_rerunning_writes_nothing(dsn):
    run(dsn, POSTS)
    before = snapshot(dsn)
    assert len(before) == COUNT
    for _ in range(5):
        assert {line.split("\t")[4] for line in run(dsn, POSTS)} == {"unchanged"}
    assert snapshot(dsn) == before, "no row version moved (xmin, updated_at)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_lost_acknowledgement_and_its_retry_leave_one_document(dsn):
    port = free_port()
    target = dsn.split("@", 1)[1].split("/", 1)[0]
    proxy = subprocess.Popen(
        [sys.executable, str(HERE.parent / "faultproxy.py"), "--protocol", "postgres",
         "--listen", f"127.0.0.1:{port}", "--target", target],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proxy.stdout.readline().strip() == "ready"
        proxied = dsn.replace(target, f"127.0.0.1:{port}")
        out = run(proxied, POSTS, timeout=1.0)
        assert proxy.stdout.readline().startswith("dropped the reply to INSERT INTO posts"), "the fault happened"
    finally:
        proxy.terminate()
        proxy.wait()
    assert out[0].split("\t")[4] == "unchanged", "the retry found the write whose reply was lost"
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT COUNT(*) FROM posts").fetchone()[0] == COUNT
    # Identical to a run without the fault.
    other = fresh_database()
    run(other, POSTS)
    assert documents(dsn) == documents(other)


def test_two_pipelines_at_once_make_no_duplicate(dsn):
    async def both():
        await pipeline.create_schema(dsn)
        return await asyncio.gather(pipeline.run(dsn, POSTS), pipeline.run(dsn, POSTS))

    first, second = asyncio.run(both())
    assert [l.split("\t")[0] for l in first] == [l.split("\t")[0] for l in second]
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT id) FROM posts").fetchone() == (COUNT, COUNT)


def test_a_changed_published_at_is_refused_and_a_changed_body_written_once(dsn):
    run(dsn, POSTS)
    before = {row[2:4]: row for row in snapshot(dsn)}
    actions = {tuple(l.split("\t")[1:3]): l.split("\t")[4] for l in run(dsn, EDITED)}
    assert actions[("hello-world", "fr")] == "refused:identity_mismatch"
    assert actions[("hello-world", "en")] == "updated"
    assert actions[("deterministic-ids", "en")] == "unchanged"
    after = {row[2:4]: row for row in snapshot(dsn)}
    assert len(after) == len(before)
    assert after[("hello-world", "fr")] == before[("hello-world", "fr")], "nothing written"
    assert "edited" in after[("hello-world", "en")][5]
    run(dsn, EDITED)
    assert {row[2:4]: row for row in snapshot(dsn)} == after, "written once"


def test_writes_the_cross_language_comparison_file(dsn):
    out = os.environ.get("SAMEKEY_EXAMPLES_OUT")
    lines = run(dsn, POSTS) + run(dsn, EDITED)
    assert len(lines) == COUNT + sum(1 for line in EDITED if line.strip())
    if out:
        pathlib.Path(out).mkdir(parents=True, exist_ok=True)
        (pathlib.Path(out) / "python.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
