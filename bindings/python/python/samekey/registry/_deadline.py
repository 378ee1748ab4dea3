"""The call's deadline at the socket, for the clients' own httpx transports.

httpx's timeouts bound each read, not an answer: an answer that trickles in (a byte every
0.3 s) never trips them, and a call with a 6 s deadline took 147 s. Here every read of an
attempt's answer is bounded as well by the attempt's ``answer_by``: the call's deadline,
or the per-try read timeout after the answer's first read when that ends later (so that
a large upload which outlives the deadline still gets its answer). Writes keep httpx's
per-write timeout alone: an upload is as long as its data. A read past ``answer_by``
fails as httpx's ``ReadTimeout`` does, and the client's schedule reports
``deadline_exceeded``.

A client given its own ``httpx.Client`` keeps that client's transport and timeouts.
"""

from __future__ import annotations

import contextlib
import contextvars
import ssl
import time
import typing
from collections.abc import Iterator
from dataclasses import dataclass

import httpcore
import httpx


@dataclass
class Attempt:
    """One attempt's bound: ``deadline`` (monotonic seconds) and ``per_try`` (seconds, or
    None); ``answer_by`` is set at the answer's first read."""

    deadline: float
    per_try: float | None
    answer_by: float | None = None

    def left(self) -> float:
        now = time.monotonic()
        if self.answer_by is None:
            self.answer_by = max(self.deadline, now + (self.per_try or 0.0))
        return self.answer_by - now


_ATTEMPT: contextvars.ContextVar[Attempt | None] = contextvars.ContextVar("samekey_registry_attempt", default=None)


@contextlib.contextmanager
def attempt(deadline: float, timeout: float | httpx.Timeout) -> Iterator[None]:
    """Bounds the answer of the request sent within the block (see the module)."""
    per_try = timeout.read if isinstance(timeout, httpx.Timeout) else timeout
    token = _ATTEMPT.set(Attempt(deadline, per_try))
    try:
        yield
    finally:
        _ATTEMPT.reset(token)


def _read_timeout(timeout: float | None) -> float | None:
    bound = _ATTEMPT.get()
    if bound is None:
        return timeout
    left = bound.left()
    if left <= 0:
        raise httpcore.ReadTimeout("the call's deadline passed while its answer was read")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _read_timeout(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, timeout)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None) -> httpcore.NetworkStream:
        return _Stream(self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> typing.Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self) -> None:
        self._inner = httpcore.SyncBackend()

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: typing.Iterable[typing.Any] | None = None) -> httpcore.NetworkStream:
        return _Stream(self._inner.connect_tcp(host, port, timeout, local_address, socket_options))

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: typing.Iterable[typing.Any] | None = None) -> httpcore.NetworkStream:
        return _Stream(self._inner.connect_unix_socket(path, timeout, socket_options))

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


class _AsyncStream(httpcore.AsyncNetworkStream):
    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return await self._inner.read(max_bytes, _read_timeout(timeout))

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._inner.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> typing.Any:
        return self._inner.get_extra_info(info)


class _AsyncBackend(httpcore.AsyncNetworkBackend):
    def __init__(self) -> None:
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: typing.Iterable[typing.Any] | None = None) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._inner.connect_tcp(host, port, timeout, local_address, socket_options))

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: typing.Iterable[typing.Any] | None = None) -> httpcore.AsyncNetworkStream:
        return _AsyncStream(await self._inner.connect_unix_socket(path, timeout, socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


# httpx's transports keep their connection pool in `_pool` (since 0.18): the pool is
# replaced with one of httpx's settings (its SSL context, its default limits) and this
# network backend.
def _settings() -> dict[str, typing.Any]:
    return {"ssl_context": httpx.create_ssl_context(), "max_connections": 100, "max_keepalive_connections": 20,
            "keepalive_expiry": 5.0}


def transport() -> httpx.HTTPTransport:
    t = httpx.HTTPTransport()
    t._pool = httpcore.ConnectionPool(network_backend=_Backend(), **_settings())
    return t


def async_transport() -> httpx.AsyncHTTPTransport:
    t = httpx.AsyncHTTPTransport()
    t._pool = httpcore.AsyncConnectionPool(network_backend=_AsyncBackend(), **_settings())
    return t
