"""Ids and content hashes of Arrow columns, zero copy (``pip install samekey[arrow]``).

Inputs are anything that speaks the Arrow PyCapsule interface (``__arrow_c_array__`` or
``__arrow_c_stream__``): pyarrow arrays and chunked arrays, Polars Series, DuckDB's Arrow
results, nanoarrow, arro3. The rows never become Python objects: framing and hashing run
in the core, without the GIL, on every core for large batches.

>>> import pyarrow as pa
>>> import samekey.arrow
>>> times = pa.array([1714564800000], pa.timestamp("ms", tz="UTC"))
>>> samekey.arrow.derive_ulids(times, pa.array(["hello-world"]), pa.array(["en"]),
...                            namespace="posts").to_pylist()
['01HWT0D7G0NXVJZMMA9TW58EBH']
>>> samekey.arrow.content_hashes(pa.array([b"abc"])).to_pylist()
['sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad']

Times are a timestamp column with a time zone (any unit; floored to the millisecond) or
int64 milliseconds since the epoch; a timestamp without a time zone is
``invalid_timestamp``, as a naive ``datetime`` is. Identity fields are utf8, large_utf8,
string_view, binary, large_binary or binary_view columns. A null is an error naming its
row unless ``nulls="propagate"``, which gives that row a null output.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Optional, Sequence, TypeVar, Union

from samekey._samekey import ArrowArray, content_hash_arrow, derive_ulids_arrow

if TYPE_CHECKING:
    import pyarrow as _pa

    _Tabular = TypeVar("_Tabular", _pa.Table, _pa.RecordBatch)

__all__ = ["ArrowArray", "content_hashes", "derive_ulids", "with_ulids"]

_Secret = Optional[bytes]


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as e:  # pragma: no cover - the message is the point
        raise ImportError(
            "samekey.arrow returns pyarrow arrays: pip install 'samekey[arrow]' (or use "
            "UlidDeriver.derive_arrow, which returns a samekey.ArrowArray for any Arrow library)"
        ) from e
    return pyarrow


def derive_ulids(
    times: object,
    *fields: object,
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
    threads: Optional[int] = None,
) -> "_pa.Array":
    """The deterministic ULID of every row, as a ``pyarrow`` utf8 array of ULID text, or a
    ``fixed_size_binary(16)`` array of the 16 bytes with ``binary=True``. Row ``i`` is
    ``samekey.derive_ulid([f[i] for f in fields], time=times[i], ...)``, and the first
    failing row's error is that call's (``SamekeyError.row`` names the row)."""
    pa = _pyarrow()
    ids = derive_ulids_arrow(
        times, *fields, namespace=namespace, scheme=scheme, secret=secret,
        binary=binary, nulls=nulls, threads=threads,
    )
    return pa.array(ids)


def content_hashes(values: object, *, scheme: str = "v1", nulls: Literal["error", "propagate"] = "error") -> "_pa.Array":
    """The content hash (``sha256:...`` or ``blake3:...``) of every value of a binary or
    text column (text is hashed as its UTF-8 bytes), as a ``pyarrow`` utf8 array."""
    pa = _pyarrow()
    return pa.array(content_hash_arrow(values, scheme=scheme, nulls=nulls))


def with_ulids(
    data: "_Tabular",
    *,
    time: str,
    fields: Sequence[str],
    name: str = "id",
    namespace: Optional[str] = None,
    scheme: str = "v1",
    secret: _Secret = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
    threads: Optional[int] = None,
) -> "_Tabular":
    """A ``pyarrow.Table`` or ``RecordBatch`` with a column ``name`` of the ids of its
    ``time`` and ``fields`` columns appended.

    >>> import pyarrow as pa
    >>> posts = pa.table({"published_at": pa.array([1714564800000]),
    ...                   "slug": ["hello-world"], "lang": ["en"]})
    >>> with_ulids(posts, time="published_at", fields=["slug", "lang"],
    ...            namespace="posts").column("id").to_pylist()
    ['01HWT0D7G0NXVJZMMA9TW58EBH']
    """
    if isinstance(fields, str):
        raise TypeError("fields must be a sequence of column names, not one str")
    ids = derive_ulids(
        data.column(time),
        *(data.column(f) for f in fields),
        namespace=namespace,
        scheme=scheme,
        secret=secret,
        binary=binary,
        nulls=nulls,
        threads=threads,
    )
    return data.append_column(name, ids)
