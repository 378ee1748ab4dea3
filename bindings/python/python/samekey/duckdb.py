"""samekey as DuckDB SQL functions (``pip install samekey[duckdb]``): vectorized Python
UDFs over Arrow, no Python object per row.

>>> import duckdb
>>> import samekey.duckdb
>>> con = duckdb.connect()
>>> samekey.duckdb.register(con, fields=2, namespace="posts")
>>> con.execute("SELECT samekey_ulid(TIMESTAMPTZ '2024-05-01 12:00:00+00', 'hello-world', 'en')").fetchone()
('01HWT0D7G0NXVJZMMA9TW58EBH',)
>>> con.execute("SELECT samekey_content_hash('abc'::BLOB)").fetchone()
('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',)
>>> con.close()

A NULL argument gives a NULL result, as SQL functions do. Pass ``TIMESTAMPTZ`` values:
DuckDB casts a ``TIMESTAMP`` (no time zone) argument to ``TIMESTAMPTZ`` with the
session's ``TimeZone`` setting before the function sees it, so the id of a naive time
would depend on that setting; write ``ts AT TIME ZONE 'UTC'`` (or the zone the times
were recorded in) to say which instant a naive time is. Milliseconds since the epoch
(a ``BIGINT``) are ``make_timestamptz(ms * 1000)``, an instant whatever ``TimeZone``
says; not ``epoch_ms(ms)``, which is a naive ``TIMESTAMP`` and would be cast in the
session's zone. (A DuckDB function has one signature: the time is ``TIMESTAMPTZ``.)

>>> con = duckdb.connect()
>>> samekey.duckdb.register(con, fields=2, namespace="posts")
>>> con.execute("SET TimeZone = 'America/New_York'")  # doctest: +ELLIPSIS
<...>
>>> con.execute("SELECT samekey_ulid(make_timestamptz(1714564800000 * 1000), 'hello-world', 'en')").fetchone()
('01HWT0D7G0NXVJZMMA9TW58EBH',)
>>> con.close()

DuckDB's own Arrow results are Arrow streams: ``samekey.arrow`` and
``UlidDeriver.derive_arrow`` take ``con.sql(...).arrow()`` columns directly.
"""

from __future__ import annotations

import inspect
from typing import Any, Optional, Union

from samekey._errors import code_in_text
from samekey._samekey import UlidDeriver, content_hash_arrow

__all__ = ["register"]

_Secret = Optional[bytes]


def register(
    con: Any,
    *,
    fields: int,
    name: str = "samekey_ulid",
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    content_hash_name: Optional[str] = "samekey_content_hash",
) -> None:
    """Registers ``name(t TIMESTAMPTZ, field1 VARCHAR, ..., fieldN VARCHAR)`` on the
    DuckDB connection ``con``, returning ULID text (``VARCHAR``; ``BLOB`` of 16 bytes with
    ``binary=True``), and ``content_hash_name(BLOB) -> VARCHAR`` unless it is None (a
    ``VARCHAR`` argument is cast to its UTF-8 bytes by DuckDB). Scheme, namespace and
    secret are fixed here, once; the function's arguments are the time and the fields.

    A name that is already a function on ``con`` (a second ``register`` on one connection,
    or a DuckDB function) is a ``ValueError`` before anything is registered: DuckDB keeps
    one function per name, and half a registration would mix two settings."""
    try:
        import pyarrow as pa
        from duckdb.sqltypes import BLOB, TIMESTAMP_TZ, VARCHAR
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("samekey.duckdb needs duckdb and pyarrow: pip install 'samekey[duckdb]'") from e
    deriver = UlidDeriver(scheme, namespace, secret)
    if fields < 1:
        deriver.derive_arrow(pa.array([], pa.int64()))  # no_fields, when registering
    names = [n for n in (name, content_hash_name) if n is not None]
    taken = sorted({n for (n,) in con.execute(
        "SELECT function_name FROM duckdb_functions() WHERE list_contains(?, function_name)",
        [names]).fetchall()})
    if taken:
        raise ValueError(
            f"{', '.join(taken)} is already a function on this connection: nothing was "
            "registered. Pass other names (name=, content_hash_name=), or remove the old "
            "ones first (con.remove_function(...)).")

    def ulids(times: Any, *columns: Any) -> Any:
        with code_in_text():
            ids = deriver.derive_arrow(times, *columns, binary=binary, nulls="propagate")
        return pa.array(ids)

    # DuckDB counts a UDF's parameters from its signature.
    positional = inspect.Parameter.POSITIONAL_ONLY
    params = [inspect.Parameter(f"a{i}", positional) for i in range(fields + 1)]
    ulids.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]

    con.create_function(
        name,
        ulids,
        [TIMESTAMP_TZ] + [VARCHAR] * fields,
        BLOB if binary else VARCHAR,
        type="arrow",
        null_handling="special",
    )
    if content_hash_name is not None:

        def hashes(values: Any) -> Any:
            with code_in_text():
                return pa.array(content_hash_arrow(values, scheme=scheme, nulls="propagate"))

        con.create_function(
            content_hash_name, hashes, [BLOB], VARCHAR, type="arrow", null_handling="special"
        )
