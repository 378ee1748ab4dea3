"""samekey.registry through the HTTP fault proxy: lost answers, cut uploads, 503 and 429
bursts, a server slower than the deadline. Every registration a client reported done
is then read back with its bytes, and the registry created one revision per payload."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import time
import urllib.request
import uuid
from typing import Any

import pytest

from registry_harness import Proxy, Server, proxy, proxy_server, registry, start_registry  # noqa: F401 (fixtures)
from samekey.registry import AsyncRegistry, Registry, RegistryError, Retry, Revision

FAST = Retry(max_retries=3, initial_delay=0.05, max_delay=0.2, deadline=20)
#: By proxy (one per registry process): what clients reported done, and the payloads a
#: client was told failed although the registry created them (a lost answer, not retried).
DONE: dict[str, list[tuple[str, bytes]]] = {}
UNREPORTED: dict[str, int] = {}


def payload() -> bytes:
    return os.urandom(4096) + uuid.uuid4().hex.encode()


def register(kind: str, url: str, data: bytes, retry: Retry = FAST, timeout: float = 10.0) -> Revision:
    """A registration through the sync or the async client, recorded once reported done."""
    if kind == "sync":
        with Registry(url, retry=retry, timeout=timeout) as client:
            rev = client.register_bytes(data)
    else:

        async def run() -> Revision:
            async with AsyncRegistry(url, retry=retry, timeout=timeout) as client:
                return await client.register_bytes(data)

        rev = asyncio.run(run())
    DONE.setdefault(url, []).append((rev.key, data))
    return rev


both = pytest.mark.parametrize("kind", ["sync", "async"])


@both
def test_a_lost_answer_is_retried_and_finds_what_the_first_attempt_created(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    proxy.faults({"kind": "drop_response", "method": "POST"})
    rev = register(kind, proxy_server.url, payload())
    assert not rev.created  # the first attempt created it; the retry found it
    assert [(e["method"], e["forwarded"], e["status"]) for e in proxy.log()] == [("POST", True, None), ("POST", True, 200)]


@both
def test_an_upload_cut_mid_body_is_sent_again(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    proxy.faults({"kind": "cut_body", "after": 1000, "method": "POST"})
    rev = register(kind, proxy_server.url, payload())
    assert rev.created  # the cut attempt registered nothing
    assert [e["status"] for e in proxy.log()] == [None, 201]


@both
def test_a_file_hashed_while_sent_is_hashed_anew_by_each_attempt(kind: str, proxy_server: Server, proxy: Proxy, tmp_path: Any) -> None:
    data = payload()
    path = tmp_path / "data.bin"
    path.write_bytes(data)
    proxy.faults({"kind": "cut_body", "after": 1000, "method": "POST"}, {"kind": "drop_response", "method": "POST"})
    if kind == "sync":
        with Registry(proxy_server.url, retry=FAST) as client:
            rev = client.register_file(path)
    else:

        async def run() -> Revision:
            async with AsyncRegistry(proxy_server.url, retry=FAST) as client:
                return await client.register_file(io.BytesIO(data))

        rev = asyncio.run(run())
    DONE.setdefault(proxy_server.url, []).append((rev.key, data))
    assert not rev.created and rev.size == len(data)
    # Below skip_upload_above: no lookup, one read an attempt (the cut one, the lost answer, the found).
    assert [(e["method"], e["status"]) for e in proxy.log()] == [("POST", None), ("POST", None), ("POST", 200)]


@both
def test_503_and_429_are_retried_honouring_retry_after(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    proxy.faults({"kind": "status", "status": 503}, {"kind": "status", "status": 429, "code": "too_many_requests", "retry_after": "1"})
    start = time.monotonic()
    rev = register(kind, proxy_server.url, payload())
    assert rev.created and time.monotonic() - start >= 1.0
    assert [e["status"] for e in proxy.log()] == [503, 429, 201]


@both
def test_retries_stop_at_max_retries_with_the_last_problem(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    proxy.faults(*[{"kind": "status", "status": 503}] * 3)
    with pytest.raises(RegistryError) as e:
        register(kind, proxy_server.url, payload(), retry=Retry(max_retries=2, initial_delay=0.01))
    assert (e.value.code, e.value.status) == ("database_unavailable", 503)
    assert [x["status"] for x in proxy.log()] == [503, 503, 503]


@both
def test_another_4xx_is_never_retried(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    proxy.faults({"kind": "status", "status": 409, "code": "conflict"})
    with pytest.raises(RegistryError) as e:
        register(kind, proxy_server.url, payload())
    assert (e.value.code, e.value.status) == ("conflict", 409)
    assert len(proxy.log()) == 1


@both
def test_a_server_slower_than_the_deadline_fails_in_time_and_the_write_is_found_later(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    data = payload()
    proxy.faults(*[{"kind": "delay", "seconds": 3, "method": "POST"}] * 3)
    start = time.monotonic()
    with pytest.raises(RegistryError) as e:
        register(kind, proxy_server.url, data, retry=Retry(max_retries=5, initial_delay=0.05, deadline=1.2), timeout=0.5)
    assert e.value.code in ("deadline_exceeded", "connection_failed")
    assert time.monotonic() - start < 2.5
    time.sleep(3)  # the delayed answers are gone; their writes committed
    proxy.reset()
    assert not register(kind, proxy_server.url, data).created


@both
def test_an_answer_cut_after_the_commit_is_retried_and_finds_the_revision(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    proxy.faults({"kind": "cut_answer", "after": 10, "method": "POST"})
    rev = register(kind, proxy_server.url, payload())
    assert not rev.created  # the cut attempt created it; the retry found it
    assert [(e["method"], e["status"]) for e in proxy.log()] == [("POST", 201), ("POST", 200)]


@both
def test_an_answer_that_trickles_in_stops_at_the_deadline(kind: str, proxy_server: Server, proxy: Proxy) -> None:
    # A byte every 0.3 s never trips a per-read timeout (2 s here); the call's deadline holds.
    data = payload()
    proxy.faults(*[{"kind": "trickle", "interval": 0.3, "method": "POST"}] * 4)
    start = time.monotonic()
    with pytest.raises(RegistryError) as e:
        register(kind, proxy_server.url, data, retry=Retry(max_retries=3, initial_delay=0.05, deadline=6), timeout=2)
    took = time.monotonic() - start
    assert e.value.code == "deadline_exceeded", e.value
    assert 5.5 < took < 7.5, f"{took:.1f} s for a 6 s deadline"
    proxy.reset()
    assert not register(kind, proxy_server.url, data).created  # its write committed before the trickle


def test_a_stream_that_cannot_seek_is_not_sent_twice(proxy_server: Server, proxy: Proxy) -> None:
    class Pipe(io.RawIOBase):
        def __init__(self, data: bytes) -> None:
            self.inner = io.BytesIO(data)

        def readable(self) -> bool:
            return True

        def readinto(self, b: Any) -> int:
            return self.inner.readinto(b)

    proxy.faults({"kind": "drop_response", "method": "POST"})
    with pytest.raises(RegistryError) as e, Registry(proxy_server.url, retry=FAST) as client:
        client.register_file(Pipe(payload()))  # type: ignore[arg-type]
    assert e.value.code == "not_rewindable" and "seekable" in str(e.value)
    assert [x["status"] for x in proxy.log()] == [None]  # one attempt, which created it
    UNREPORTED[proxy_server.url] = UNREPORTED.get(proxy_server.url, 0) + 1


def test_every_registration_reported_done_is_there_and_retries_created_nothing(registry: Server, proxy_server: Server) -> None:
    """Runs after the others (pytest keeps a module's order), on this module's registry."""
    done = DONE[proxy_server.url]
    assert len(done) >= 8
    with Registry(registry.url) as client:
        for key, data in done:
            with client.data(key) as chunks:
                assert chunks.read() == data, key
    with urllib.request.urlopen(registry.url + "/metrics", timeout=10) as response:
        metrics = response.read().decode()
    created = next(line for line in metrics.splitlines() if line.startswith('samekey_registry_registrations_total{outcome="created"}'))
    # Every payload is new: one revision each, whatever the retries.
    assert int(float(created.split()[-1])) == len({key for key, _ in done}) + UNREPORTED.get(proxy_server.url, 0)


@both
def test_a_certificate_that_does_not_verify_is_not_retried(kind: str, tmp_path: Any) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = start_registry(f"sqlite:{tmp_path / 'r.db'}", "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        url = server.url.replace("127.0.0.1", "localhost")
        patient = Retry(max_retries=3, initial_delay=1.0, max_delay=1.0, deadline=20)
        with pytest.raises(RegistryError) as raised:
            register(kind, url, payload(), retry=patient)
        assert raised.value.code == "connection_failed"
        assert "did not verify" in str(raised.value) and "not retried" in str(raised.value), str(raised.value)
    finally:
        server.stop()
