"""Changing the key algorithm while writers run: the key-rings guide's client-side rollout
on pipeline.py's PostgreSQL table, step by step, with writers of the rings each step has
side by side racing on the same posts.

The posts table's natural key (slug, lang) would on its own stop a twin in this example;
these tests drop it, so that what keeps one post per identity is what any collection has:
the per-scheme id columns and the store's required schemes.

Needs SAMEKEY_TEST_POSTGRES (see test_pipeline.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Dict, List, Sequence

import psycopg
import pytest

import pipeline
import samekey
import rollout
from test_pipeline import COUNT, POSTS, fresh_database

NEW_POST = json.dumps({"slug": "rollout", "lang": "en", "publishedAt": "2024-07-01T09:00:00Z", "body": "New."})
LATER_POST = json.dumps({"slug": "contract", "lang": "en", "publishedAt": "2024-08-01T09:00:00Z", "body": "Later."})

# The rings a rollout from v1 to v2 passes through, in order.
BEFORE, EXPAND, SWITCH, CONTRACT = ("v1",), ("v1", "v2"), ("v2", "v1"), ("v2",)


@pytest.fixture
def dsn():
    url = fresh_database("ro")
    asyncio.run(pipeline.create_schema(url))
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER TABLE posts DROP CONSTRAINT posts_slug_lang_key")
    return url


def write(dsn: str, lines: List[str], ring: Sequence[str]) -> Dict[str, str]:
    """Runs a writer of `ring`; returns each post's answer: 'id action'."""
    return answers(asyncio.run(pipeline.run(dsn, lines, ring=ring)))


def answers(out: List[str]) -> Dict[str, str]:
    return {f"{c[1]}/{c[2]}": f"{c[0]} {c[4]}" for c in (line.split("\t") for line in out)}


def race(dsn: str, lines: List[str], rings: Sequence[Sequence[str]]) -> List[Dict[str, str]]:
    async def all_at_once():
        return await asyncio.gather(*(pipeline.run(dsn, lines, ring=ring) for ring in rings))

    return [answers(out) for out in asyncio.run(all_at_once())]


def rows(dsn: str):
    with psycopg.connect(dsn) as conn:
        return conn.execute("SELECT slug, lang, id, id_scheme, id_v1, id_v2 FROM posts ORDER BY slug, lang").fetchall()


def one_post_per_identity(dsn: str, runs: List[Dict[str, str]]) -> None:
    """No twin, and every writer was told the id the post was created under."""
    stored = rows(dsn)
    names = [f"{slug}/{lang}" for slug, lang, *_ in stored]
    assert len(names) == len(set(names)), f"twins: {stored}"
    created = {f"{slug}/{lang}": post_id for slug, lang, post_id, *_ in stored}
    for run in runs:
        for name, answer in run.items():
            post_id, action = answer.split(" ")
            if not action.startswith("refused:"):
                assert post_id == created[name], f"{name}: told {post_id}, created {created[name]}"


def ulid(line: str, scheme: str) -> str:
    post = json.loads(line)
    fields = [post["slug"], post["lang"]]
    return str(samekey.derive_ulid(fields, time=post["publishedAt"], scheme=scheme, namespace=pipeline.NAMESPACE))


# ANCHOR: steps
def test_the_rollout_step_by_step_with_the_previous_steps_writers_still_running(dsn):
    # Before: every writer derives under v1; the store requires v1.
    write(dsn, POSTS, BEFORE)
    assert asyncio.run(rollout.status(dsn))[0].split("\t")[:3] == ["v1", "required", f"created {COUNT}"]

    # 1. Expand: writers with ring (v1, v2), racing the old ones.
    runs = race(dsn, POSTS + [NEW_POST], [BEFORE, EXPAND, EXPAND])
    one_post_per_identity(dsn, runs)

    # 2. Require v2: every post gets its v2 id; a writer without v2 is refused from now on.
    asyncio.run(rollout.require(dsn, "v2"))
    assert [r for r in rows(dsn) if r[5] is None] == []
    assert write(dsn, [LATER_POST], BEFORE)["contract/en"].endswith("refused:scheme_required")

    # 3. Switch: ring (v2, v1) creates under v2, racing ring (v1, v2).
    runs = race(dsn, POSTS + [LATER_POST], [EXPAND, SWITCH, SWITCH])
    one_post_per_identity(dsn, runs)
    created = {f"{r[0]}/{r[1]}": r[3] for r in rows(dsn)}
    assert created["hello-world/en"] == "v1", "a stored post keeps the id it was created under"

    # 4. Retire v1: its ids are cleared, and a writer still recording them is refused.
    asyncio.run(rollout.retire(dsn, "v1"))
    assert all(r[4] is None for r in rows(dsn))
    third = json.dumps({"slug": "retired", "lang": "en", "publishedAt": "2024-09-01T09:00:00Z", "body": "3"})
    assert write(dsn, [third], SWITCH)["retired/en"].endswith("refused:scheme_required")

    # 5. Contract: ring (v2) alone.
    runs = race(dsn, POSTS + [NEW_POST, LATER_POST, third], [CONTRACT, CONTRACT])
    one_post_per_identity(dsn, runs)
    assert runs[0]["retired/en"] in (f"{ulid(third, 'v2')} inserted", f"{ulid(third, 'v2')} unchanged")
    status = [line.split("\t") for line in asyncio.run(rollout.status(dsn))]
    assert [s[1] for s in status] == ["retired", "required"]
    assert status[1][4] == "missing 0", "v2 recorded everywhere: nothing needs v1 again"
# ANCHOR_END: steps


def test_what_a_skipped_step_does(dsn):
    write(dsn, POSTS, BEFORE)
    # Contract before v1 is retired: the store still requires v1, so ring (v2) is refused.
    assert write(dsn, [NEW_POST], CONTRACT)["rollout/en"].endswith("refused:scheme_required")
    # Retire v1 before requiring v2: refused, v1 is the only required scheme.
    with pytest.raises(rollout.RolloutError, match="last required scheme"):
        asyncio.run(rollout.retire(dsn, "v1"))
    # Switch without expanding first is safe: (v2, v1) and (v1) share the required v1.
    one_post_per_identity(dsn, race(dsn, POSTS + [NEW_POST], [BEFORE, SWITCH]))
    asyncio.run(rollout.require(dsn, "v2"))
    asyncio.run(rollout.retire(dsn, "v1"))
    # A retired scheme is never required again.
    with pytest.raises(rollout.RolloutError, match="retired"):
        asyncio.run(rollout.require(dsn, "v1"))


def test_a_writer_meeting_a_post_of_a_scheme_it_does_not_know(dsn):
    # A post created after v1 was retired carries no v1 id: a leftover v1 writer cannot
    # tell whether it is its post, and says so instead of calling it an edited identity.
    write(dsn, POSTS, BEFORE)
    asyncio.run(rollout.require(dsn, "v2"))
    asyncio.run(rollout.retire(dsn, "v1"))
    write(dsn, [NEW_POST], CONTRACT)
    assert write(dsn, [NEW_POST], BEFORE)["rollout/en"] == f"{ulid(NEW_POST, 'v2')} refused:scheme_not_accepted"
    # Ids of its own scheme it still verifies: a moved publishedAt is an edited identity.
    moved = json.dumps({**json.loads(NEW_POST), "publishedAt": "2024-07-02T09:00:00Z"})
    assert write(dsn, [moved], CONTRACT)["rollout/en"].endswith("refused:identity_mismatch")


def test_a_post_created_under_v2_answers_old_writers_with_its_v2_id(dsn):
    write(dsn, [NEW_POST], SWITCH)
    assert write(dsn, [NEW_POST], BEFORE)["rollout/en"] == f"{ulid(NEW_POST, 'v2')} unchanged"


def both_look_then_both_insert(dsn: str, rings: Sequence[Sequence[str]]) -> List[Dict[str, str]]:
    """The interleaving that made twins: every writer reads (finds nothing) before any
    inserts. A lock that lets reads through and holds inserts makes it happen every time."""
    async def scenario():
        async with await psycopg.AsyncConnection.connect(dsn) as blocker:
            await blocker.execute("LOCK TABLE posts IN EXCLUSIVE MODE")
            writers = [asyncio.create_task(pipeline.run(dsn, [NEW_POST], ring=ring)) for ring in rings]
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as watch:
                for _ in range(500):
                    cur = await watch.execute(
                        "SELECT COUNT(*) FROM pg_locks WHERE relation = 'posts'::regclass AND NOT granted")
                    if (await cur.fetchone())[0] == len(rings):
                        break
                    await asyncio.sleep(0.01)
                else:
                    raise AssertionError("the writers never reached their inserts")
            await blocker.rollback()
        return [answers(out) for out in await asyncio.gather(*writers)]

    return asyncio.run(scenario())


@pytest.mark.parametrize("rings", [(BEFORE, SWITCH), (EXPAND, SWITCH), (SWITCH, BEFORE, EXPAND)])
def test_writers_that_all_looked_first_still_make_one_post(dsn, rings):
    runs = both_look_then_both_insert(dsn, rings)
    one_post_per_identity(dsn, runs)
    assert len(rows(dsn)) == 1
    assert sorted(r["rollout/en"].split(" ")[1] for r in runs) == ["inserted"] + ["unchanged"] * (len(rings) - 1)


def test_without_the_per_scheme_unique_columns_the_same_interleaving_makes_a_twin(dsn):
    # The counterexample the columns exist for: look up, then insert, across schemes.
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("ALTER TABLE posts DROP CONSTRAINT posts_id_v1_key, DROP CONSTRAINT posts_id_v2_key")
    both_look_then_both_insert(dsn, (BEFORE, SWITCH))
    assert sorted(r[3] for r in rows(dsn)) == ["v1", "v2"], "two posts for one identity"


# The posts table and upsert of the recipe before key rings (samekey 0.3's pipeline.py).
BEFORE_RINGS = """
CREATE TABLE posts (
    id TEXT PRIMARY KEY, slug TEXT NOT NULL, lang TEXT NOT NULL, published_at TEXT NOT NULL,
    body TEXT NOT NULL, source_hash TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (slug, lang))
"""
UPSERT_BEFORE_RINGS = """
INSERT INTO posts (id, slug, lang, published_at, body, source_hash) VALUES (%s, %s, %s, %s, %s, %s)
ON CONFLICT (id) DO UPDATE SET body = excluded.body, source_hash = excluded.source_hash
WHERE posts.source_hash IS DISTINCT FROM excluded.source_hash
"""


def write_before_rings(conn: psycopg.Connection, line: str) -> None:
    post = json.loads(line)
    row = (ulid(line, "v1"), post["slug"], post["lang"], post["publishedAt"], post["body"],
           samekey.content_hash_json_text(line))
    conn.execute(UPSERT_BEFORE_RINGS, row)


def test_a_table_of_the_recipe_before_rings_is_migrated_and_its_old_writers_refused():
    dsn = fresh_database("old")
    lines = [line for line in POSTS if line.strip()]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(BEFORE_RINGS)
        for line in lines:
            write_before_rings(conn, line)
    # The first writer of the new recipe migrates the table, and finds every post.
    assert set(write(dsn, POSTS, EXPAND).values()) == {f"{ulid(line, 'v1')} unchanged" for line in lines}
    assert asyncio.run(rollout.status(dsn))[0].split("\t") == ["v1", "required", f"created {COUNT}", f"recorded {COUNT}", "missing 0"]
    # A writer of the old recipe still running cannot add a post the store cannot name.
    with psycopg.connect(dsn, autocommit=True) as conn, pytest.raises(psycopg.errors.NotNullViolation):
        write_before_rings(conn, NEW_POST)
    asyncio.run(rollout.require(dsn, "v2"))
    assert [r for r in rows(dsn) if r[5] is None] == []
