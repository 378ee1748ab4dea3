"""The extension as a database uses it: generated columns and expression indexes, a
1M-row backfill, a parallel plan, NULLs, times, JSON (the identity trigger is the
README's, in test_readme.py). Ids are compared with the Python binding's, never with copied values."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any, List, Tuple

import psycopg
import pytest
import samekey

UTC = dt.timezone.utc


def rows(n: int, seed: int) -> List[Tuple[str, str, dt.datetime]]:
    """Slugs with non-ASCII text, languages, and times with microseconds (which must be
    floored), before and after 2000 (PostgreSQL's own epoch)."""
    r = random.Random(seed)
    words = ["hello", "wörld", "日本語", "emoji-🙂", "a:b", "", "x" * 300]
    out = []
    for i in range(n):
        slug = f"{r.choice(words)}-{i}"
        lang = r.choice(["en", "de", "ja", ""])
        us = r.randrange(0, 2_000_000_000_000_000)
        out.append((slug, lang, dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=us)))
    return out


def python_id(slug: str, lang: str, t: dt.datetime, scheme: str = "v1") -> str:
    return str(samekey.derive_ulid([slug, lang], time=t, namespace="posts", scheme=scheme))


def one_value(con: psycopg.Connection, sql: str, *params: Any) -> Any:
    row = con.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


def sql_error(con: psycopg.Connection, sql: str, params: Any = None) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as err:
        con.execute(sql, params)
    return err.value


def test_generated_column_ids_equal_the_python_bindings(con: psycopg.Connection) -> None:
    con.execute("DROP TABLE IF EXISTS posts")
    con.execute("""
        CREATE TABLE posts (
            slug text NOT NULL, lang text NOT NULL, published_at timestamptz NOT NULL,
            id text GENERATED ALWAYS AS
               (samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang])) STORED PRIMARY KEY,
            uuid uuid GENERATED ALWAYS AS
               (samekey_ulid_uuid('v2', published_at, 'posts', ARRAY[slug, lang])) STORED)""")
    data = rows(3000, seed=1)
    with con.cursor() as cur:
        cur.executemany("INSERT INTO posts (slug, lang, published_at) VALUES (%s, %s, %s)", data)
    got = con.execute("SELECT slug, lang, published_at, id, uuid FROM posts").fetchall()
    assert len(got) == len(data)
    for slug, lang, t, id_, uuid in got:
        assert id_ == python_id(slug, lang, t), (slug, lang, t)
        assert uuid == samekey.derive_ulid([slug, lang], time=t, namespace="posts", scheme="v2").uuid
    # A retried insert of the same post is the same id: the primary key refuses it.
    err = sql_error(con, "INSERT INTO posts (slug, lang, published_at) VALUES (%s, %s, %s)", data[0])
    assert err.sqlstate == "23505"
    # The session's time zone does not change an id; the instant does.
    con.execute("SET timezone = 'Pacific/Chatham'")
    again = con.execute("SELECT samekey_ulid('v1', %s, 'posts', ARRAY[%s, %s])",
                        (data[1][2], data[1][0], data[1][1])).fetchone()
    assert again is not None and again[0] == python_id(data[1][0], data[1][1], data[1][2])


def test_expression_index_is_used(con: psycopg.Connection) -> None:
    con.execute("DROP TABLE IF EXISTS docs")
    con.execute("CREATE TABLE docs (slug text, t timestamptz)")
    con.execute("INSERT INTO docs SELECT 'doc-' || i, timestamptz '2024-01-01' + i * interval '1 s'"
                " FROM generate_series(1, 20000) i")
    con.execute("CREATE INDEX docs_id ON docs (samekey_ulid('v1', t, 'docs', ARRAY[slug]))")
    con.execute("ANALYZE docs")
    t = dt.datetime(2024, 1, 1, tzinfo=UTC) + dt.timedelta(seconds=777)
    want = str(samekey.derive_ulid(["doc-777"], time=t, namespace="docs", scheme="v1"))
    query = "SELECT slug FROM docs WHERE samekey_ulid('v1', t, 'docs', ARRAY[slug]) = %s"
    plan = json.dumps(con.execute("EXPLAIN (FORMAT JSON) " + query, (want,)).fetchone())
    assert "docs_id" in plan, plan
    assert con.execute(query, (want,)).fetchall() == [("doc-777",)]


def test_backfill_of_a_million_rows(con: psycopg.Connection) -> None:
    con.execute("DROP TABLE IF EXISTS legacy")
    con.execute("""
        CREATE TABLE legacy AS
        SELECT 'post-' || i AS slug, (ARRAY['en','de','fr'])[1 + i % 3] AS lang,
               timestamptz '2020-01-01' + i * interval '1.001 s' AS published_at, NULL::text AS id
        FROM generate_series(1, 1000000) i""")
    updated = con.execute("UPDATE legacy SET id = samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang])")
    assert updated.rowcount == 1_000_000
    distinct = con.execute("SELECT count(DISTINCT id), count(*) FILTER (WHERE id IS NULL) FROM legacy").fetchone()
    assert distinct == (1_000_000, 0)
    sample = con.execute("SELECT slug, lang, published_at, id FROM legacy TABLESAMPLE BERNOULLI (0.2)"
                         " REPEATABLE (7)").fetchall()
    assert len(sample) > 1000
    assert all(id_ == python_id(s, lang, t) for s, lang, t, id_ in sample)


def test_parallel_plan_runs_the_function_in_workers(con: psycopg.Connection) -> None:
    con.execute("DROP TABLE IF EXISTS wide")
    con.execute("CREATE TABLE wide AS SELECT 'w-' || i AS slug, timestamptz '2024-05-01' + i * interval '1 ms' AS t"
                " FROM generate_series(1, 200000) i")
    con.execute("ANALYZE wide")
    for setting in ("max_parallel_workers_per_gather = 2", "parallel_setup_cost = 0",
                    "parallel_tuple_cost = 0", "min_parallel_table_scan_size = 0"):
        con.execute("SET " + setting)
    query = ("SELECT count(*), max(samekey_ulid('v2', t, 'wide', ARRAY[slug])) FROM wide"
             " WHERE samekey_ulid('v2', t, 'wide', ARRAY[slug]) > '01HX'")
    row = con.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + query).fetchone()
    assert row is not None
    plan = row[0][0]["Plan"]

    def nodes(n: Any) -> List[Any]:
        return [n] + [m for c in n.get("Plans", []) for m in nodes(c)]

    gathers = [n for n in nodes(plan) if n["Node Type"] in ("Gather", "Gather Merge")]
    assert gathers and gathers[0]["Workers Launched"] >= 1, json.dumps(plan)
    parallel = con.execute(query).fetchone()
    con.execute("SET max_parallel_workers_per_gather = 0")
    assert con.execute(query).fetchone() == parallel


def test_nulls(con: psycopg.Connection) -> None:
    assert one_value(con, "SELECT samekey_ulid('v1', NULL, 'posts', ARRAY['a'])") is None
    assert one_value(con, "SELECT samekey_content_hash('v1', NULL::bytea)") is None
    # A NULL secret is NULL, never an unkeyed id.
    assert one_value(con, "SELECT samekey_ulid('v1', now(), 'posts', ARRAY['a'], NULL::bytea)") is None
    assert one_value(con, "SELECT samekey_revision_key('v1', NULL, 'sha256:' || repeat('ab', 32), NULL::bytea)") is None
    err = sql_error(con, "SELECT samekey_ulid('v1', now(), 'posts', ARRAY['a', NULL])")
    assert err.sqlstate == "22004" and "fields[2]" in str(err)
    content = samekey.content_hash(b"doc", scheme="v1")
    assert one_value(con, "SELECT samekey_revision_key(NULL, NULL, %s)", content) == samekey.revision_key(content)
    assert one_value(con, "SELECT samekey_revision_key('v1', 'parent', %s)", content) == \
        samekey.revision_key(content, parent="parent", scheme="v1")
    assert one_value(con, "SELECT samekey_revision_key('v1', 'p', NULL)") is None
    assert one_value(con, "SELECT samekey_needs_write(NULL, %s)", content) is True
    assert one_value(con, "SELECT samekey_needs_write(%s, %s)", content, content) is False


def test_times_are_floored_and_checked(con: psycopg.Connection) -> None:
    t = dt.datetime(2024, 5, 1, 12, 0, 0, 999_999, tzinfo=UTC)
    assert one_value(con, "SELECT samekey_ulid('v1', %s, 'posts', ARRAY['a'])", t) == \
        str(samekey.derive_ulid(["a"], time=t, namespace="posts", scheme="v1"))
    assert one_value(con, "SELECT samekey_ulid_timestamp_ms(samekey_ulid('v1', timestamptz '1970-01-01 00:00:00.0019Z',"
               " 'p', ARRAY['a']))") == 1
    for literal, code in (("1969-12-31 23:59:59.999999Z", "timestamp_out_of_range"),
                          ("infinity", "invalid_timestamp"), ("-infinity", "invalid_timestamp"),
                          ("10889-08-02 05:31:50.656Z", "timestamp_out_of_range")):
        err = sql_error(con, f"SELECT samekey_ulid('v1', timestamptz '{literal}', 'p', ARRAY['a'])")
        assert (err.diag.message_primary or "").startswith(f"error[{code}]"), (literal, str(err))
    # RFC 3339 under the spec's rules, not PostgreSQL's lenient input.
    assert one_value(con, "SELECT samekey_parse_rfc3339('2024-05-01T14:00:00.1239+02:00')") == \
        dt.datetime(2024, 5, 1, 12, 0, 0, 123_000, tzinfo=UTC)
    for text in ("2024-05-01 12:00:00Z", "2024-05-01T12:00:00", "now"):
        err = sql_error(con, "SELECT samekey_parse_rfc3339(%s)", (text,))
        assert err.sqlstate == "22007", text


def test_json_hashes_the_text_and_refuses_jsonb(con: psycopg.Connection) -> None:
    doc = '{"b": [1.0, 2e0, "\\u00e9"], "a": {"z": null, "y": true}}'
    want = samekey.content_hash_json_text(doc, scheme="v2")
    assert one_value(con, "SELECT samekey_content_hash_json('v2', %s::json)", doc) == want
    assert one_value(con, "SELECT samekey_content_hash_json('v2', %s::text)", doc) == want
    assert one_value(con, "SELECT samekey_canonical_json(%s::json)", doc) == samekey.canonical_json_text(doc)
    # json keeps a duplicate key for samekey to refuse; jsonb would have dropped it.
    err = sql_error(con, """SELECT samekey_content_hash_json('v1', '{"a":1,"a":2}'::json)""")
    assert err.sqlstate == "22030" and "error[duplicate_key]" in str(err)
    for call in ("samekey_content_hash_json('v1', '{}'::jsonb)", "samekey_canonical_json('{}'::jsonb)"):
        err = sql_error(con, "SELECT " + call)
        assert err.sqlstate == "42804" and "jsonb" in str(err)
    # ::text is the explicit choice of jsonb's own text.
    assert one_value(con, """SELECT samekey_content_hash_json('v1', '{"b":1,"a":2}'::jsonb::text)""") == \
        samekey.content_hash_json_text('{"a": 2, "b": 1}', scheme="v1")


def test_byte_fields_and_secrets_match_the_python_binding(con: psycopg.Connection) -> None:
    t = dt.datetime(2024, 5, 1, tzinfo=UTC)
    fields = [b"\x00\xff", "naïve".encode()]
    got = con.execute("SELECT samekey_ulid('v2', %s, 'files', %s::bytea[], %s::bytea)",
                      (t, fields, b"key")).fetchone()
    assert got is not None
    assert got[0] == str(samekey.derive_ulid(fields, time=t, namespace="files", scheme="v2", secret=b"key"))
    candidates = con.execute("SELECT scheme, ulid FROM samekey_candidates(ARRAY['v2','v1'], %s, 'files',"
                             " %s::bytea[])", (t, fields)).fetchall()
    ring = samekey.KeyRing.from_accept(["v2", "v1"])
    assert candidates == [(s, str(u)) for s, u in ring.candidate_ulids(fields, time=t, namespace="files")]
