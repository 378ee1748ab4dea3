"""samekey: deterministic ULIDs, content hashes and revision keys that are identical,
byte for byte, in every language samekey supports.

>>> import samekey
>>> from datetime import datetime, timezone
>>> t = datetime(2024, 5, 1, 12, tzinfo=timezone.utc)
>>> str(samekey.derive_ulid(["hello-world", "en"], time=t, namespace="posts"))
'01HWT0D7G0NXVJZMMA9TW58EBH'
>>> samekey.content_hash(b"abc")
'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'

The rules are specified in spec/samekey.md of the samekey repository.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, NamedTuple

from samekey._errors import SamekeyError, SamekeyIOError, SecondsWarning
from samekey._samekey import (
    ERROR_CODES,
    MAX_TIMESTAMP_MS,
    PARALLEL_MIN_ROWS,
    ArrowArray,
    ContentHasher,
    KeyRing,
    Ulid,
    UlidDeriver,
    canonical_json,
    canonical_json_text,
    content_hash,
    content_hash_json,
    content_hash_json_text,
    derive_ulid,
    needs_write,
    parse_rfc3339,
    revision_key,
    revision_message,
    ulid_message,
)
from samekey._samekey import __version__ as _core_version
from samekey._samekey import parse_key as _parse_key

if TYPE_CHECKING:
    from samekey._types import Field, Time

__version__ = _core_version

__all__ = [
    "ERROR_CODES",
    "MAX_TIMESTAMP_MS",
    "PARALLEL_MIN_ROWS",
    "ArrowArray",
    "ContentHasher",
    "KeyRing",
    "ParsedKey",
    "SamekeyError",
    "SamekeyIOError",
    "SecondsWarning",
    "Ulid",
    "UlidDeriver",
    "canonical_json",
    "canonical_json_text",
    "content_hash",
    "content_hash_json",
    "content_hash_json_text",
    "derive_ulid",
    "json_default",
    "needs_write",
    "parse_key",
    "parse_rfc3339",
    "revision_key",
    "revision_message",
    "selftest",
    "ulid_message",
    "verify",
    "version",
]


class ParsedKey(NamedTuple):
    """A parsed key text: ``kind`` is ``"content"`` or ``"revision"``."""

    kind: str
    scheme: str
    canonical: str


def parse_key(text: str) -> ParsedKey:
    """Parses a content hash (``sha256:...``, ``blake3:...``) or revision key (``rev:v1:...``)."""
    return ParsedKey(*_parse_key(text))


def verify(
    ulid: Ulid | str,
    fields: Iterable[Field],
    *,
    time: Time | None = None,
    time_ms: int | None = None,
    namespace: str = "",
    accept: tuple[str, ...] | list[str] = ("v1",),
    secret: bytes | None = None,
) -> str:
    """Returns the scheme (of ``accept``, newest first) that derived ``ulid`` from these
    inputs, or raises ``SamekeyError`` with code ``identity_mismatch``: the guard that
    refuses a write which would orphan the document stored under ``ulid``. The time is
    ``time=`` (an aware ``datetime`` or RFC 3339 text) or ``time_ms=`` (int milliseconds)."""
    ring = KeyRing.from_accept(list(accept))
    return ring.verify_ulid(ulid, fields, time=time, time_ms=time_ms, namespace=namespace, secret=secret)


def json_default(value: object) -> object:
    """The ``default`` hook for :func:`json.dumps`: a :class:`Ulid` is written as its ULID
    text; anything else raises ``TypeError`` as ``json`` does.

    >>> import json, samekey
    >>> json.dumps({"_id": samekey.Ulid("01HWT0D7G0NXVJZMMA9TW58EBH")}, default=samekey.json_default)
    '{"_id": "01HWT0D7G0NXVJZMMA9TW58EBH"}'
    """
    if isinstance(value, Ulid):
        return str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def version() -> str:
    """The version of the samekey core this package is built on."""
    return _core_version


def selftest() -> int:
    """Runs the embedded test vectors through this package; returns how many passed or
    raises ``AssertionError`` naming the first that failed."""
    from samekey import _samekey, _vectors

    outcomes = _vectors.run_document(_samekey.SELFTEST_VECTORS)
    for o in outcomes:
        if not o.passed:
            raise AssertionError(f"samekey selftest: {o.id}: expected {o.expected}, got {o.actual}")
    return len(outcomes)
