"""Ids and content hashes in Polars (``pip install samekey[polars]``), zero copy.

>>> from datetime import datetime, timezone
>>> import polars as pl
>>> import samekey.polars as skp
>>> posts = pl.DataFrame({
...     "published_at": [datetime(2024, 5, 1, 12, tzinfo=timezone.utc)],
...     "slug": ["hello-world"], "lang": ["en"]})
>>> posts.with_columns(id=skp.ulid("published_at", "slug", "lang", namespace="posts"))["id"].to_list()
['01HWT0D7G0NXVJZMMA9TW58EBH']

``ulid`` is an expression: it works in ``select``, ``with_columns`` and lazy frames.
It runs through ``map_batches`` on whole columns (Arrow, no Python object per row),
not as a compiled expression plugin: a plugin links its own copy of Polars, which makes
the package many times larger and slower to build, for no faster hashing.

Times are ``Datetime`` columns with a time zone (any unit; floored to the millisecond)
or ``Int64`` milliseconds since the epoch; a ``Datetime`` without a time zone is
``invalid_timestamp``, as a naive ``datetime`` is. Identity fields are ``String`` or
``Binary`` columns (cast a ``Categorical`` first).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional, Union

from samekey._errors import code_in_text
from samekey._samekey import UlidDeriver, content_hash_arrow, derive_ulids_arrow

if TYPE_CHECKING:
    import polars as _pl

__all__ = ["content_hash", "derive_ulids", "ulid"]

_Secret = Optional[bytes]


def _polars() -> Any:
    try:
        import polars
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError("samekey.polars needs Polars: pip install 'samekey[polars]'") from e
    return polars


def derive_ulids(
    times: "_pl.Series",
    *fields: "_pl.Series",
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
    threads: Optional[int] = None,
) -> "_pl.Series":
    """The ids of Series rows, as a ``String`` Series (``Binary`` with ``binary=True``)."""
    plm = _polars()
    ids = derive_ulids_arrow(
        times, *fields, namespace=namespace, scheme=scheme, secret=secret,
        binary=binary, nulls=nulls, threads=threads,
    )
    return plm.Series("id", ids)


def ulid(
    time: "Union[str, _pl.Expr]",
    *fields: "Union[str, _pl.Expr]",
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
) -> "_pl.Expr":
    """An expression of the ids of ``time`` and ``fields`` (column names or expressions)."""
    plm = _polars()
    deriver = UlidDeriver(scheme, namespace, secret)
    if not fields:
        # The core's no_fields error, where the expression is built rather than run.
        deriver.derive_arrow(plm.Series([], dtype=plm.Int64))

    def column(e: "Union[str, _pl.Expr]") -> Any:
        return plm.col(e) if isinstance(e, str) else e

    # Struct fields need distinct names, whatever the columns are called.
    packed = plm.struct(
        column(time).alias("t"), *(column(f).alias(f"f{i}") for i, f in enumerate(fields))
    )

    def batch(s: "_pl.Series") -> "_pl.Series":
        columns = s.struct.unnest().get_columns()
        with code_in_text():
            ids = deriver.derive_arrow(columns[0], *columns[1:], binary=binary, nulls=nulls)
        return plm.Series(s.name, ids)

    dtype = plm.Binary if binary else plm.String
    return packed.map_batches(batch, return_dtype=dtype, is_elementwise=True)


def content_hash(values: "Union[str, _pl.Expr]", *, scheme: str = "v1", nulls: Literal["error", "propagate"] = "error") -> "_pl.Expr":
    """An expression of the content hash of every value of a ``String`` or ``Binary``
    column (text is hashed as its UTF-8 bytes)."""
    plm = _polars()
    expr = plm.col(values) if isinstance(values, str) else values

    def batch(s: "_pl.Series") -> "_pl.Series":
        with code_in_text():
            hashes = content_hash_arrow(s, scheme=scheme, nulls=nulls)
        return plm.Series(s.name, hashes)

    return expr.map_batches(batch, return_dtype=plm.String, is_elementwise=True)
