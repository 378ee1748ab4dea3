"""The registry client on httpx's ``AsyncClient``: ``Registry``'s API, awaited."""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Any, AsyncIterator

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


class AsyncDataStream:
    """A revision's stored bytes as they arrive: an async iterator of chunks and an async
    context manager. ``media_type`` is the revision's."""

    def __init__(self, key: str, response: httpx.Response) -> None:
        self.key, self._response = key, response
        self.media_type = response.headers.get("content-type", "")
        self._chunks = response.aiter_bytes()

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    async def __anext__(self) -> bytes:
        try:
            return await self._chunks.__anext__()
        except httpx.TransportError as e:
            await self.aclose()
            raise RegistryError(CONNECTION_FAILED, f"the data of {self.key} was cut off: {e}") from e

    async def read(self) -> bytes:
        """Every remaining byte."""
        return b"".join([chunk async for chunk in self])

    async def aclose(self) -> None:
        await self._response.aclose()

    async def __aenter__(self) -> AsyncDataStream:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.aclose()


class AsyncRegistry:
    """``Registry`` for asyncio: the same settings, methods and errors, awaited. Files are
    read and hashed on a worker thread, a chunk at a time.

    >>> async with AsyncRegistry("http://127.0.0.1:8080") as registry:  # doctest: +SKIP
    ...     rev = await registry.register({"title": "Hello"})
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
        client: httpx.AsyncClient | None = None,
    ) -> None:
        self._s = Settings.make(base_url, token, ring, retry, skip_upload_above)
        self._own = client is None
        self._client = client or httpx.AsyncClient(timeout=timeout, transport=_deadline.async_transport())
        self._timeout = timeout

    @property
    def ring(self) -> KeyRing:
        return self._s.ring

    async def aclose(self) -> None:
        if self._own:
            await self._client.aclose()

    async def __aenter__(self) -> AsyncRegistry:
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.aclose()

    async def register(self, value: JsonValue, *, parent: str | None = None) -> Revision:
        return await self._register(_payload.json_value(self._s.ring, value), parent)

    async def register_json(self, text: str, *, parent: str | None = None) -> Revision:
        return await self._register(_payload.json_text(self._s.ring, text), parent)

    async def register_bytes(self, data: bytes | bytearray | memoryview, *, parent: str | None = None) -> Revision:
        return await self._register(_payload.raw(self._s.ring, data), parent)

    async def register_file(self, file: _payload.FileLike, *, parent: str | None = None) -> Revision:
        payload = await asyncio.to_thread(_payload.file, self._s.ring, file, self._s.skip_upload_above)
        return await self._register(payload, parent)

    async def revision(self, key: str) -> Revision:
        response = await self._request("GET", revision_path(key))
        return answer(response.status_code, response.headers, response.content)

    async def history(self, key: str, *, limit: int | None = None) -> list[Revision]:
        params = {} if limit is None else {"limit": str(limit)}
        response = await self._request("GET", revision_path(key) + "/history", params=params)
        return revisions_of(response.status_code, response.headers, response.content)

    async def data(self, key: str) -> AsyncDataStream:
        response = await self._request("GET", revision_path(key) + "/data", stream=True)
        if response.status_code != 200:
            await response.aread()
            await response.aclose()
            answer(response.status_code, response.headers, response.content)
        return AsyncDataStream(key, response)

    async def _register(self, payload: _payload.Payload, parent: str | None) -> Revision:
        s = self._s
        if ask_first(s, payload):
            assert payload.hashes is not None
            key = _payload.expected_key(s.ring, payload.hashes, parent)
            response = await self._request("GET", revision_path(key))
            if response.status_code == 200:
                found = answer(response.status_code, response.headers, response.content)
                return _payload.check(s.ring, payload, parent, found)
            if response.status_code != 404:
                answer(response.status_code, response.headers, response.content)
        params = None if parent is None else {"parent": parent}
        response = await self._request("POST", "/v1/revisions", params=params, payload=payload)
        payload.done()
        rev = answer(response.status_code, response.headers, response.content)
        return _payload.check(s.ring, payload, parent, rev)

    async def _request(
        self, method: str, path: str, *, params: dict[str, str] | None = None, payload: _payload.Payload | None = None, stream: bool = False
    ) -> httpx.Response:
        schedule = Schedule(self._s.retry)
        while True:
            content: Any = None if payload is None else payload.async_content()
            headers = headers_for(self._s, payload, content)
            request = self._client.build_request(method, self._s.base_url + path, params=params or None, headers=headers, content=content)
            try:
                with _deadline.attempt(schedule.start + self._s.retry.deadline, self._timeout):
                    response = await self._client.send(request, stream=stream)
            except httpx.TransportError as e:
                await asyncio.sleep(delay_after_failure(schedule, payload, method, path, e))
                continue
            delay = delay_after_status(self._s, schedule, payload, response.status_code, response.headers.get("retry-after"))
            if delay is not None:
                await response.aclose()
                await asyncio.sleep(delay)
                continue
            if stream and response.status_code in self._s.retry.statuses:
                await response.aread()
            return response
