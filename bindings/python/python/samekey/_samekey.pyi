"""Type stubs of the native module. Import from ``samekey``, not from here."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import IO, Iterable, Literal, Mapping, Protocol, Sequence, final, overload

from typing_extensions import Self

from samekey._types import Data, Field, JsonValue, Time

# The names the module sets in its __all__ (pyo3 lists every item added to it).
__all__ = [
    "__version__",
    "SELFTEST_VECTORS",
    "ERROR_CODES",
    "MAX_TIMESTAMP_MS",
    "PARALLEL_MIN_ROWS",
    "Ulid",
    "UlidDeriver",
    "ContentHasher",
    "KeyRing",
    "ArrowArray",
    "derive_ulid",
    "content_hash",
    "content_hash_arrow",
    "derive_ulids_arrow",
    "canonical_json",
    "canonical_json_text",
    "content_hash_json",
    "content_hash_json_text",
    "revision_key",
    "needs_write",
    "parse_rfc3339",
    "revision_message",
    "parse_key",
    "ulid_message",
]

__version__: str
SELFTEST_VECTORS: str
ERROR_CODES: list[str]
MAX_TIMESTAMP_MS: int
PARALLEL_MIN_ROWS: int

class _ArrowArrayLike(Protocol):
    """An Arrow array or stream: `__arrow_c_array__` or `__arrow_c_stream__` (the Arrow
    PyCapsule interface); pyarrow, Polars, DuckDB and others give one."""

@final
class ArrowArray:
    """An Arrow array made by samekey; any Arrow library takes it through the PyCapsule
    interface (`pyarrow.array(a)`, `polars.Series(a)`), without a copy."""

    def __arrow_c_array__(self, requested_schema: object | None = None) -> tuple[object, object]: ...
    def __arrow_c_schema__(self) -> object: ...
    def __len__(self) -> int: ...
    @property
    def null_count(self) -> int: ...

def derive_ulids_arrow(
    times: _ArrowArrayLike,
    *columns: _ArrowArrayLike,
    namespace: str | None = None,
    scheme: str = "v1",
    secret: bytes | None = None,
    binary: bool = False,
    nulls: Literal["error", "propagate"] = "error",
    threads: int | None = None,
) -> ArrowArray: ...
def content_hash_arrow(
    values: _ArrowArrayLike, *, scheme: str = "v1", nulls: Literal["error", "propagate"] = "error"
) -> ArrowArray: ...
@final
class Ulid:
    """A ULID: 48-bit millisecond timestamp and 80 bits; ordered, hashable, immutable."""

    def __new__(cls, text: str) -> Self: ...
    @staticmethod
    def parse(text: str) -> Ulid: ...
    @staticmethod
    def from_bytes(data: bytes) -> Ulid: ...
    def __bytes__(self) -> bytes: ...
    def __int__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __lt__(self, other: Ulid, /) -> bool: ...
    def __le__(self, other: Ulid, /) -> bool: ...
    def __gt__(self, other: Ulid, /) -> bool: ...
    def __ge__(self, other: Ulid, /) -> bool: ...
    def __hash__(self) -> int: ...
    @property
    def uuid(self) -> uuid.UUID: ...
    @property
    def timestamp_ms(self) -> int: ...
    @property
    def datetime(self) -> datetime: ...

@final
class UlidDeriver:
    """Derives ids for one scheme, namespace and secret, prepared once."""

    def __new__(cls, scheme: str = "v1", namespace: str | None = None, secret: bytes | None = None) -> Self: ...
    @property
    def scheme(self) -> str: ...
    def derive(self, fields: Iterable[Field], *, time: Time | None = None, time_ms: int | None = None) -> Ulid: ...
    @overload
    def derive_many(
        self, times: Iterable[Time], *columns: Iterable[Field], as_str: Literal[False] = False, threads: int | None = None
    ) -> list[Ulid]: ...
    @overload
    def derive_many(
        self, times: Iterable[Time], *columns: Iterable[Field], as_str: Literal[True], threads: int | None = None
    ) -> list[str]: ...
    @overload
    def derive_many(
        self, times: Iterable[Time], *columns: Iterable[Field], as_str: bool, threads: int | None = None
    ) -> list[Ulid] | list[str]: ...
    def derive_arrow(
        self,
        times: _ArrowArrayLike,
        *columns: _ArrowArrayLike,
        binary: bool = False,
        nulls: Literal["error", "propagate"] = "error",
        threads: int | None = None,
    ) -> ArrowArray: ...
    @overload
    def derive_records(
        self, records: Iterable[Mapping[str, object]], *, time: str, fields: Sequence[str], as_str: Literal[False] = False
    ) -> list[Ulid]: ...
    @overload
    def derive_records(
        self, records: Iterable[Mapping[str, object]], *, time: str, fields: Sequence[str], as_str: Literal[True]
    ) -> list[str]: ...
    @overload
    def derive_records(
        self, records: Iterable[Mapping[str, object]], *, time: str, fields: Sequence[str], as_str: bool
    ) -> list[Ulid] | list[str]: ...

@final
class ContentHasher:
    """An incremental content hash."""

    def __new__(cls, scheme: str = "v1") -> Self: ...
    def update(self, data: bytes | bytearray | str | IO[bytes]) -> None: ...
    def finalize(self) -> str: ...

@final
class KeyRing:
    """Derives under ``primary`` and recognises every scheme of ``accepted``."""

    def __new__(cls, primary: str, accepted: Sequence[str] = ...) -> Self: ...
    @staticmethod
    def from_accept(accept: Sequence[str]) -> KeyRing:
        """The ring of ``accept``, newest first: the first is the primary. An empty list
        raises ``SamekeyError`` with code ``unknown_scheme``."""
    @property
    def primary(self) -> str: ...
    @property
    def accepted(self) -> list[str]: ...
    def derive_ulid(self, fields: Iterable[Field], *, time: Time | None = None, time_ms: int | None = None, namespace: str | None = None, secret: bytes | None = None) -> Ulid: ...
    def candidate_ulids(
        self, fields: Iterable[Field], *, time: Time | None = None, time_ms: int | None = None, namespace: str | None = None, secret: bytes | None = None
    ) -> list[tuple[str, Ulid]]: ...
    def verify_ulid(
        self, ulid: Ulid | str, fields: Iterable[Field], *, time: Time | None = None, time_ms: int | None = None, namespace: str | None = None, secret: bytes | None = None
    ) -> str: ...
    def content_hash(self, data: Data) -> str: ...
    def content_hashes(self, data: bytes) -> list[str]: ...
    def revision_key(self, content_hash: str, *, parent: str | None = None, secret: bytes | None = None) -> str: ...
    def scheme_of_key(self, key: str) -> str: ...

def derive_ulid(
    fields: Iterable[Field], *, time: Time | None = None, time_ms: int | None = None, namespace: str | None = None, scheme: str = "v1", secret: bytes | None = None
) -> Ulid: ...
def ulid_message(fields: Iterable[Field], *, namespace: str | None = None, scheme: str = "v1") -> bytes: ...
def content_hash(data: Data, *, scheme: str = "v1") -> str: ...
def canonical_json(value: JsonValue) -> str: ...
def canonical_json_text(text: str) -> str: ...
def content_hash_json(value: JsonValue, *, scheme: str = "v1") -> str: ...
def content_hash_json_text(text: str, *, scheme: str = "v1") -> str: ...
def revision_key(
    content_hash: str, *, parent: str | None = None, scheme: str | None = None, secret: bytes | None = None
) -> str: ...
def revision_message(content_hash: str, *, parent: str | None = None, scheme: str | None = None) -> bytes: ...
def needs_write(stored: str | None, incoming: str) -> bool: ...
def parse_rfc3339(text: str) -> int: ...
def parse_key(text: str) -> tuple[str, str, str]: ...
