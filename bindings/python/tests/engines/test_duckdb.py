"""samekey in DuckDB: SQL functions registered as Arrow UDFs, and DuckDB's own Arrow
results through samekey.arrow."""

from __future__ import annotations

from typing import Any, Dict, Iterator, List

import duckdb
import pyarrow as pa
import pytest

import samekey
import samekey.arrow
import samekey.duckdb


@pytest.fixture
def con() -> Iterator[Any]:
    connection = duckdb.connect()
    yield connection
    connection.close()


def _text_vectors(ulid_vectors: List[Dict[str, Any]], scheme: str, width: int) -> List[Dict[str, Any]]:
    rows = [
        v for v in ulid_vectors
        if "ulid" in v["expect"] and v["scheme"] == scheme and v["namespace"] == "" and "secret_hex" not in v
        and len(v["fields"]) == width and all(isinstance(f, str) for f in v["fields"])
    ]
    assert rows
    return rows


@pytest.mark.parametrize("scheme", ["v1", "v2"])
def test_vectors_through_sql(con: Any, ulid_vectors: List[Dict[str, Any]], scheme: str) -> None:
    rows = _text_vectors(ulid_vectors, scheme, 2)
    samekey.duckdb.register(con, fields=2, scheme=scheme)
    con.execute("CREATE TABLE posts (i INTEGER, ms BIGINT, a VARCHAR, b VARCHAR)")
    con.executemany("INSERT INTO posts VALUES (?, ?, ?, ?)",
                    [(i, int(v["timestamp_ms"]), v["fields"][0], v["fields"][1]) for i, v in enumerate(rows)])
    got = con.sql("SELECT samekey_ulid(make_timestamptz(ms * 1000), a, b) FROM posts ORDER BY i").fetchall()
    assert [g for (g,) in got] == [v["expect"]["ulid"] for v in rows]


def test_arrow_results_feed_samekey_arrow(con: Any, ulid_vectors: List[Dict[str, Any]]) -> None:
    rows = _text_vectors(ulid_vectors, "v1", 2)
    table = pa.table({"ms": [int(v["timestamp_ms"]) for v in rows],
                      "a": [v["fields"][0] for v in rows], "b": [v["fields"][1] for v in rows]})
    con.register("src", table)
    result = con.sql("SELECT make_timestamptz(ms * 1000) AS t, a, b FROM src").arrow()
    reader = result if isinstance(result, pa.Table) else result.read_all()
    assert samekey.arrow.with_ulids(reader, time="t", fields=["a", "b"])["id"].to_pylist() == [
        v["expect"]["ulid"] for v in rows
    ]


def test_nulls_give_null_and_errors_carry_their_code(con: Any) -> None:
    samekey.duckdb.register(con, fields=1, namespace="posts")
    assert con.sql("SELECT samekey_ulid(NULL, 'x'), samekey_ulid(TIMESTAMPTZ '2024-05-01 12:00:00+00', NULL)").fetchall() == [(None, None)]
    with pytest.raises(duckdb.Error, match=r"error\[timestamp_out_of_range\] row 0"):
        con.sql("SELECT samekey_ulid(TIMESTAMPTZ '1969-12-31 23:59:59+00', 'x')").fetchall()


def test_binary_ids_content_hashes_and_names(con: Any) -> None:
    samekey.duckdb.register(con, fields=1, name="post_id", binary=True, scheme="v2",
                            content_hash_name="post_hash")
    (id_, hash_) = con.execute("SELECT post_id(TIMESTAMPTZ '2024-05-01 12:00:00+00', 'x'), post_hash('x'::BLOB)").fetchone()
    assert bytes(id_) == bytes(samekey.derive_ulid(["x"], time_ms=1714564800000, scheme="v2"))
    assert hash_ == samekey.content_hash(b"x", scheme="v2")  # the same scheme for both


def test_a_parallel_scan_gives_every_row_its_own_id(con: Any) -> None:
    samekey.duckdb.register(con, fields=1)
    con.execute("SET threads = 2")
    got = con.sql(
        "SELECT i, samekey_ulid(make_timestamptz(i * 1000), i::VARCHAR) FROM range(1, 200001) t(i) ORDER BY i"
    ).fetchall()
    assert len(got) == 200_000
    deriver = samekey.UlidDeriver()
    assert [g for _, g in got[::997]] == [str(deriver.derive([str(i)], time_ms=i)) for i, _ in got[::997]]


def test_settings_are_checked_when_registering(con: Any) -> None:
    with pytest.raises(samekey.SamekeyError) as e:
        samekey.duckdb.register(con, fields=1, scheme="v0", namespace="posts")
    assert e.value.code == "namespace_not_supported"
    with pytest.raises(samekey.SamekeyError) as e:
        samekey.duckdb.register(con, fields=0)
    assert e.value.code == "no_fields"


def test_milliseconds_through_make_timestamptz_whatever_the_time_zone(
        con: Any, ulid_vectors: List[Dict[str, Any]]) -> None:
    rows = _text_vectors(ulid_vectors, "v1", 2)
    samekey.duckdb.register(con, fields=2)
    for zone in ("UTC", "America/New_York", "Asia/Kolkata"):
        con.execute(f"SET TimeZone = '{zone}'")
        got = [con.execute("SELECT samekey_ulid(make_timestamptz(?::BIGINT * 1000), ?, ?)",
                           [int(v["timestamp_ms"]), *v["fields"]]).fetchone()[0] for v in rows]
        assert got == [v["expect"]["ulid"] for v in rows], zone


def test_a_second_register_fails_before_registering_anything(con: Any) -> None:
    samekey.duckdb.register(con, fields=1)
    with pytest.raises(ValueError, match="samekey_content_hash is already a function"):
        samekey.duckdb.register(con, fields=1, name="other_ulid", scheme="v2")
    functions = {n for (n,) in con.sql("SELECT function_name FROM duckdb_functions()").fetchall()}
    assert "other_ulid" not in functions  # nothing of the refused call was registered
    with pytest.raises(ValueError, match="lower is already a function"):
        samekey.duckdb.register(con, fields=1, name="lower", content_hash_name=None)
    # The first registration still works, and other names register beside it.
    samekey.duckdb.register(con, fields=1, name="other_ulid", content_hash_name=None, scheme="v2")
    got = con.execute("SELECT samekey_ulid(TIMESTAMPTZ '2024-05-01 12:00:00+00', 'x'), "
                      "other_ulid(TIMESTAMPTZ '2024-05-01 12:00:00+00', 'x')").fetchone()
    assert got == (str(samekey.derive_ulid(["x"], time_ms=1714564800000)),
                   str(samekey.derive_ulid(["x"], time_ms=1714564800000, scheme="v2")))
