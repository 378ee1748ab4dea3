"""ALTER EXTENSION samekey UPDATE from the previous release (scripts/test-upgrade.sh
installs that release's files, and gives this test the new tarball to install over them):
the update reaches this version, the extension's catalog is then exactly a fresh
install's, ids stored under the old version are unchanged, and every vector passes."""

from __future__ import annotations

import os
import subprocess
from typing import Any, Dict, Iterator, List, Tuple

import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from sqlvectors import run_vector

OLD = os.environ.get("SAMEKEY_UPGRADE_FROM", "")
TARBALL = os.environ.get("SAMEKEY_UPGRADE_TARBALL", "")
UPGRADED, FRESH = "samekey_upgraded", "samekey_fresh"

# Every object of the extension, and for a function its whole definition (arguments,
# volatility, strictness, parallel safety, cost, the library symbol or SQL body).
CATALOG = """
SELECT pg_describe_object(d.classid, d.objid, 0),
       CASE WHEN d.classid = 'pg_proc'::regclass THEN pg_get_functiondef(d.objid) END
FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'samekey'
ORDER BY 1, 2
"""


def _database(admin: str, name: str) -> str:
    with psycopg.connect(admin, autocommit=True) as con:
        con.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        con.execute(f"CREATE DATABASE {name} ENCODING 'UTF8' TEMPLATE template0")
    return make_conninfo(admin, dbname=name)


def _version(con: psycopg.Connection) -> str:
    row = con.execute("SELECT extversion FROM pg_extension WHERE extname = 'samekey'").fetchone()
    assert row is not None
    return str(row[0])


@pytest.fixture(scope="module")
def upgrade() -> Iterator[Dict[str, Any]]:
    assert OLD and TARBALL, "run through scripts/test-upgrade.sh"
    admin = os.environ["SAMEKEY_TEST_POSTGRES"]
    upgraded = _database(admin, UPGRADED)
    with psycopg.connect(upgraded, autocommit=True) as con:
        con.execute("CREATE EXTENSION samekey")
        assert _version(con) == OLD, "the old release's files are not the installed ones"
        con.execute("SET timezone = 'UTC'")
        con.execute("""CREATE TABLE posts (slug text, lang text, published_at timestamptz,
                       id text GENERATED ALWAYS AS
                       (samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang])) STORED PRIMARY KEY)""")
        con.execute("""INSERT INTO posts (slug, lang, published_at)
                       SELECT 'post-' || i, 'en', timestamptz '2024-05-01T12:00:00Z' + i * interval '1 minute'
                       FROM generate_series(1, 1000) i""")
        con.execute("CREATE INDEX posts_uuid ON posts (samekey_ulid_parse(id))")
        stored = con.execute("SELECT slug, id FROM posts ORDER BY slug").fetchall()
    # The new release as INSTALL.md installs it, over the old one.
    subprocess.run(["tar", "-C", "/", "-xzf", TARBALL, "--no-overwrite-dir", "usr"], check=True)
    with psycopg.connect(upgraded, autocommit=True) as con:
        con.execute("ALTER EXTENSION samekey UPDATE")
        new = _version(con)
    fresh = _database(admin, FRESH)
    with psycopg.connect(fresh, autocommit=True) as con:
        con.execute("CREATE EXTENSION samekey")
    yield {"upgraded": upgraded, "fresh": fresh, "stored": stored, "new": new}


def _catalog(url: str) -> List[Tuple[str, str]]:
    with psycopg.connect(url) as con:
        return [(o, d or "") for o, d in con.execute(CATALOG).fetchall()]


def test_update_reaches_the_new_version(upgrade: Dict[str, Any]) -> None:
    with psycopg.connect(upgrade["fresh"]) as con:
        default = _version(con)
    assert default != OLD and upgrade["new"] == default


def test_upgraded_catalog_is_a_fresh_install(upgrade: Dict[str, Any]) -> None:
    upgraded, fresh = _catalog(upgrade["upgraded"]), _catalog(upgrade["fresh"])
    only_upgraded = sorted(set(upgraded) - set(fresh))
    only_fresh = sorted(set(fresh) - set(upgraded))
    assert not only_upgraded and not only_fresh, (
        f"after the update, not in a fresh install: {only_upgraded}\n"
        f"in a fresh install, missing after the update: {only_fresh}")
    assert len(fresh) > 30


def test_ids_stored_before_the_update_are_unchanged(upgrade: Dict[str, Any]) -> None:
    with psycopg.connect(upgrade["upgraded"]) as con:
        con.execute("SET timezone = 'UTC'")
        recomputed = con.execute(
            "SELECT slug, samekey_ulid('v1', published_at, 'posts', ARRAY[slug, lang]) FROM posts ORDER BY slug"
        ).fetchall()
        via_ms = con.execute(
            "SELECT count(*) FROM posts WHERE id = samekey_ulid_ms('v1', "
            "(extract(epoch FROM published_at) * 1000)::bigint, 'posts', ARRAY[slug, lang])").fetchone()
        con.execute("SET enable_seqscan = off")
        found = con.execute("SELECT count(*) FROM posts WHERE samekey_ulid_parse(id) = samekey_ulid_parse(%s)",
                            (upgrade["stored"][0][1],)).fetchone()
    assert recomputed == upgrade["stored"]
    assert via_ms == (len(upgrade["stored"]),)
    assert found == (1,)


def test_every_vector_after_the_update(upgrade: Dict[str, Any], vectors: List[Dict[str, Any]]) -> None:
    with psycopg.connect(upgrade["upgraded"], autocommit=True) as con:
        con.execute("SET timezone = 'UTC'")
        outcomes = [run_vector(con, v) for v in vectors]
    ran = [o for o in outcomes if o is not None]
    failed = [f"{o.id}: expected {o.expected}, got {o.actual}" for o in ran if not o.passed]
    assert ran and not failed, "\n".join(failed)
