"""A registration's body, its content hashes under the client's ring before (or while)
it is sent, and the check of the registry's answer against them."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import IO, AsyncIterator, Iterator, Union

import samekey
from samekey._types import JsonValue
from samekey import ContentHasher, KeyRing
from samekey.registry._types import NOT_REWINDABLE, KeyMismatchError, RegistryError, Revision

JSON = "application/json"
OCTET_STREAM = "application/octet-stream"

#: Bytes read from a file or stream at a time: the client's memory for a body.
CHUNK = 1 << 20

FileLike = Union[str, "os.PathLike[str]", IO[bytes]]


class Hashes:
    """One content hasher per scheme of a ring, fed the same bytes."""

    def __init__(self, ring: KeyRing) -> None:
        self.hashers = {s: ContentHasher(s) for s in ring.accepted}

    def update(self, chunk: bytes) -> None:
        for h in self.hashers.values():
            h.update(chunk)

    def finalize(self) -> dict[str, str]:
        return {s: h.finalize() for s, h in self.hashers.items()}


class Payload:
    """Bytes in memory: the body of JSON (in canonical form) and of ``bytes``."""

    rewindable = True

    def __init__(self, ring: KeyRing, media_type: str, data: bytes, body: bytes | None = None) -> None:
        """``data`` is what the registry stores and hashes (JSON's canonical form);
        ``body``, what is sent, when it differs."""
        self.media_type, self.size = media_type, len(data)
        self.body = data if body is None else body
        self.hashes: dict[str, str] | None = dict(zip(ring.accepted, ring.content_hashes(data)))

    def content(self) -> bytes | Iterator[bytes]:
        return self.body

    def async_content(self) -> bytes | AsyncIterator[bytes]:
        return self.body

    def body_size(self) -> int | None:
        return len(self.body)

    def done(self) -> None:
        """After an answer: a payload hashed while it was sent has its hashes now."""

    def _chunks(self) -> Iterator[bytes]:
        yield self.body

    async def _async_chunks(self) -> AsyncIterator[bytes]:
        """The chunks of ``_chunks``, each read on a worker thread."""
        import asyncio

        chunks = self._chunks()
        while chunk := await asyncio.to_thread(next, chunks, b""):
            yield chunk


class FilePayload(Payload):
    """A file by its path, or a seekable binary stream from its current position, read a
    chunk at a time for each attempt. Above ``hash_above`` bytes it is hashed in a first
    pass (its key is known before the upload, to look it up); otherwise, or with
    ``hash_above=None``, it is hashed while it is sent, in one pass."""

    def __init__(self, ring: KeyRing, source: Path | IO[bytes], hash_above: int | None) -> None:
        self.media_type, self.source, self.ring = OCTET_STREAM, source, ring
        if isinstance(source, Path):
            self.start, self.size = 0, source.stat().st_size
        else:
            self.start = source.tell()
            self.size = source.seek(0, io.SEEK_END) - self.start
        self.hashes: dict[str, str] | None = None
        self.hashing: Hashes | None = None
        self.sent = 0
        if hash_above is not None and self.size > hash_above:
            for _ in self._hashed():
                pass
            self.done()

    def _read(self) -> Iterator[bytes]:
        if isinstance(self.source, Path):
            with open(self.source, "rb") as f:
                yield from iter(lambda: f.read(CHUNK), b"")
        else:
            self.source.seek(self.start)
            yield from iter(lambda: self.source.read(CHUNK), b"")  # type: ignore[union-attr]

    def _hashed(self) -> Iterator[bytes]:
        """The chunks, hashed and counted as they are read; ``done`` keeps the hashes."""
        self.hashing = hashing = Hashes(self.ring)
        self.sent = 0
        for chunk in self._read():
            hashing.update(chunk)
            self.sent += len(chunk)
            yield chunk

    def _chunks(self) -> Iterator[bytes]:
        # Hashed first, or each attempt hashes what it sends (the answered one's are kept).
        return self._read() if self.hashes is not None else self._hashed()

    def content(self) -> Iterator[bytes]:
        return self._chunks()

    def async_content(self) -> AsyncIterator[bytes]:
        return self._async_chunks()

    def done(self) -> None:
        if self.hashing is not None:
            self.size, self.hashes, self.hashing = self.sent, self.hashing.finalize(), None

    def body_size(self) -> int | None:
        return self.size


class StreamPayload(Payload):
    """A stream that cannot seek: hashed while it is sent, so its key is checked after
    the answer, the registry is always sent the body, and once a byte was read it cannot
    be sent again (a retry fails with ``not_rewindable``)."""

    rewindable = False

    def __init__(self, ring: KeyRing, source: IO[bytes]) -> None:
        self.media_type, self.source, self.size = OCTET_STREAM, source, None  # type: ignore[assignment]
        self.hashes, self.hashing, self.started = None, Hashes(ring), False

    def _chunks(self) -> Iterator[bytes]:
        if self.started:
            raise RegistryError(NOT_REWINDABLE, "the stream was partly sent and cannot be read again; register a path or a seekable stream to have it retried")
        self.started = True
        while chunk := self.source.read(CHUNK):
            self.hashing.update(chunk)
            yield chunk

    def content(self) -> Iterator[bytes]:
        return self._chunks()

    def async_content(self) -> AsyncIterator[bytes]:
        return self._async_chunks()

    def done(self) -> None:
        self.hashes = self.hashing.finalize()

    def body_size(self) -> int | None:
        return None

    def unread(self) -> bool:
        return not self.started


# JSON is sent as written (a value as json.dumps writes it), not in its canonical form:
# a double from 2^53 to 1e21 is canonically an integer literal, which a JSON reader of
# the registry refuses as text (number_out_of_range, spec §6).
def json_value(ring: KeyRing, value: JsonValue) -> Payload:
    canonical = samekey.canonical_json(value).encode()
    return Payload(ring, JSON, canonical, json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode())


def json_text(ring: KeyRing, text: str) -> Payload:
    return Payload(ring, JSON, samekey.canonical_json_text(text).encode(), text.encode())


def raw(ring: KeyRing, data: bytes | bytearray | memoryview) -> Payload:
    return Payload(ring, OCTET_STREAM, bytes(data))


def file(ring: KeyRing, source: FileLike, hash_above: int | None) -> Payload:
    """The payload of a file; above ``hash_above`` bytes (None: never) hashed first."""
    if isinstance(source, (str, os.PathLike)):
        return FilePayload(ring, Path(source), hash_above)
    if isinstance(source, io.TextIOBase):
        raise TypeError("register_file takes a binary stream (open(path, 'rb')), not text")
    if source.seekable():
        return FilePayload(ring, source, hash_above)
    return StreamPayload(ring, source)


def expected_key(ring: KeyRing, hashes: dict[str, str], parent: str | None) -> str:
    """The key this client derives: the ring's primary scheme over ``parent``."""
    return samekey.revision_key(hashes[ring.primary], parent=parent, scheme=ring.primary)


def check(ring: KeyRing, payload: Payload, parent: str | None, rev: Revision) -> Revision:
    """The answer, if its key is one this client derives for the payload under one of its
    ring's schemes; else KeyMismatchError.

    A revision created under an older scheme of the ring is answered with that key, and
    checked under that scheme. A parent named by another of its keys is answered as the
    key it was created under, over which the registry derives; it is then checked as the
    registry resolved it.
    """
    hashes = payload.hashes
    assert hashes is not None

    def fail(why: str) -> KeyMismatchError:
        # The key this client expected is derived only to name it in the error.
        return KeyMismatchError(expected_key(ring, hashes, parent), rev.key, why)

    try:
        scheme = ring.scheme_of_key(rev.key)
    except samekey.SamekeyError as e:
        raise fail(f"its scheme is not one of this client's ring {ring.accepted}: {e}") from e
    if rev.parent != parent:
        if parent is None or rev.parent is None:
            raise fail(f"its parent is {rev.parent}, not {parent}")
        try:
            ring.scheme_of_key(rev.parent)
        except samekey.SamekeyError as e:
            raise fail(f"its parent {rev.parent} is not a key of this client's ring") from e
    want_hash = hashes[scheme]
    if rev.content_hash != want_hash:
        raise fail(f"its content hash is {rev.content_hash}, this client's {want_hash}")
    want = samekey.revision_key(want_hash, parent=rev.parent, scheme=scheme)
    if rev.key != want:
        raise KeyMismatchError(want, rev.key, f"derived under {scheme} over parent {rev.parent}")
    if payload.size is not None and rev.size != payload.size:
        raise fail(f"its size is {rev.size} bytes, the payload's {payload.size}")
    return rev
