"""The registry client on httpx's blocking ``Client``."""

from __future__ import annotations

import time
from types import TracebackType
from typing import Any, Iterator

import httpx

import samekey
from samekey._types import JsonValue
from samekey import KeyRing
from samekey.registry import _deadline, _payload
from samekey.registry._common import (
    Settings,
    answer,
    ask_first,
    delay_after_failure,
    delay_after_status,
    headers_for,
    revision_path,
    revisions_of,
)
from samekey.registry._retry import Schedule
from samekey.registry._types import CONNECTION_FAILED, RegistryError, Retry, Revision


class DataStream:
    """A revision's stored bytes as they arrive: an iterator of chunks and a context
    manager. ``media_type`` is the revision's."""

    def __init__(self, key: str, response: httpx.Response) -> None:
        self.key, self._response = key, response
        self.media_type = response.headers.get("content-type", "")
        self._chunks = response.iter_bytes()

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        try:
            return next(self._chunks)
        except httpx.TransportError as e:
            self.close()
            raise RegistryError(CONNECTION_FAILED, f"the data of {self.key} was cut off: {e}") from e

    def read(self) -> bytes:
        """Every remaining byte."""
        return b"".join(self)

    def close(self) -> None:
        self._response.close()

    def __enter__(self) -> DataStream:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()


class Registry:
    """A client of a samekey registry at ``base_url``.

    ``ring`` is the key ring this client expects the registry to use (``KeyRing("v1")``
    by default, the registry's default): every registration's key is derived here
    before it is sent, and every answer is checked against it. A payload larger than
    ``skip_upload_above`` bytes (1 MiB by default; None never asks) is looked up first
    and not sent when the registry has it; a file no larger is hashed while it is sent. ``retry`` says when a request is tried again;
    ``timeout`` is each attempt's (seconds or an ``httpx.Timeout``). Pass ``client`` to
    use your own ``httpx.Client`` (its base URL is not used; this client does not close
    it).

    >>> with Registry("http://127.0.0.1:8080", token="...") as registry:  # doctest: +SKIP
    ...     rev = registry.register({"title": "Hello"})
    """

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        ring: KeyRing | None = None,
        retry: Retry = Retry(),
        timeout: float | httpx.Timeout = 30.0,
        skip_upload_above: int | None = 1 << 20,
        client: httpx.Client | None = None,
    ) -> None:
        self._s = Settings.make(base_url, token, ring, retry, skip_upload_above)
        self._own = client is None
        self._client = client or httpx.Client(timeout=timeout, transport=_deadline.transport())
        self._timeout = timeout

    @property
    def ring(self) -> KeyRing:
        return self._s.ring

    def close(self) -> None:
        if self._own:
            self._client.close()

    def __enter__(self) -> Registry:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def register(self, value: JsonValue, *, parent: str | None = None) -> Revision:
        """Registers a JSON value (sent in its canonical form)."""
        return self._register(_payload.json_value(self._s.ring, value), parent)

    def register_json(self, text: str, *, parent: str | None = None) -> Revision:
        """Registers JSON text: the same data as any other spelling of the same JSON."""
        return self._register(_payload.json_text(self._s.ring, text), parent)

    def register_bytes(self, data: bytes | bytearray | memoryview, *, parent: str | None = None) -> Revision:
        """Registers bytes (``application/octet-stream``)."""
        return self._register(_payload.raw(self._s.ring, data), parent)

    def register_file(self, file: _payload.FileLike, *, parent: str | None = None) -> Revision:
        """Registers a file's bytes, by its path or as a binary stream, in bounded memory:
        a path or a seekable stream is sent (again on a retry), hashed first when it is
        larger than ``skip_upload_above``, else while it is sent; a stream that cannot seek is hashed while it is sent and cannot be retried once read."""
        return self._register(_payload.file(self._s.ring, file, self._s.skip_upload_above), parent)

    def revision(self, key: str) -> Revision:
        """The revision ``key`` names (any of its keys)."""
        response = self._request("GET", revision_path(key))
        return answer(response.status_code, response.headers, response.content)

    def history(self, key: str, *, limit: int | None = None) -> list[Revision]:
        """The revision and its ancestors, nearest first (at most ``limit``, 1 to 1000)."""
        params = {} if limit is None else {"limit": str(limit)}
        response = self._request("GET", revision_path(key) + "/history", params=params)
        return revisions_of(response.status_code, response.headers, response.content)

    def data(self, key: str) -> DataStream:
        """The stored bytes of ``key`` (canonical JSON for JSON), streamed: iterate over
        the chunks as they arrive, or ``read()`` them all; close it (or use ``with``)
        when done early. Retried until the answer starts; a failure after that raises.

        >>> with registry.data(key) as chunks:  # doctest: +SKIP
        ...     for chunk in chunks: out.write(chunk)
        """
        response = self._request("GET", revision_path(key) + "/data", stream=True)
        if response.status_code != 200:
            response.read()
            response.close()
            answer(response.status_code, response.headers, response.content)
        return DataStream(key, response)

    def _register(self, payload: _payload.Payload, parent: str | None) -> Revision:
        s = self._s
        if ask_first(s, payload):
            assert payload.hashes is not None
            key = _payload.expected_key(s.ring, payload.hashes, parent)
            response = self._request("GET", revision_path(key))
            if response.status_code == 200:
                found = answer(response.status_code, response.headers, response.content)
                return _payload.check(s.ring, payload, parent, found)
            if response.status_code != 404:
                answer(response.status_code, response.headers, response.content)
        params = None if parent is None else {"parent": parent}
        response = self._request("POST", "/v1/revisions", params=params, payload=payload)
        payload.done()
        rev = answer(response.status_code, response.headers, response.content)
        return _payload.check(s.ring, payload, parent, rev)

    def _request(
        self, method: str, path: str, *, params: dict[str, str] | None = None, payload: _payload.Payload | None = None, stream: bool = False
    ) -> httpx.Response:
        schedule = Schedule(self._s.retry)
        while True:
            content: Any = None if payload is None else payload.content()
            headers = headers_for(self._s, payload, content)
            request = self._client.build_request(method, self._s.base_url + path, params=params or None, headers=headers, content=content)
            try:
                with _deadline.attempt(schedule.start + self._s.retry.deadline, self._timeout):
                    response = self._client.send(request, stream=stream)
            except httpx.TransportError as e:
                time.sleep(delay_after_failure(schedule, payload, method, path, e))
                continue
            delay = delay_after_status(self._s, schedule, payload, response.status_code, response.headers.get("retry-after"))
            if delay is not None:
                response.close()
                time.sleep(delay)
                continue
            if stream and response.status_code in self._s.retry.statuses:
                response.read()
            return response
