"""samekey.registry against a real registry (``samekey serve``, SQLite and PostgreSQL):
results, streaming, errors, the key derived before the upload and checked after it."""

from __future__ import annotations

import asyncio
import io
import os
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

import samekey
from registry_harness import Proxy, Server, proxy, proxy_server, registry, start_registry  # noqa: F401 (fixtures)
from samekey import KeyRing
from samekey.registry import AsyncRegistry, KeyMismatchError, Registry, RegistryError, Retry


def unique() -> str:
    return uuid.uuid4().hex


def test_json_in_any_spelling_is_one_revision_with_the_key_derived_here(registry: Server) -> None:
    value: dict[str, Any] = {"title": "Grüße", "n": 1.5e3, "tags": ["a", "b"], "id": unique()}
    with Registry(registry.url) as client:
        first = client.register(value)
        assert first.created and first.media_type == "application/json" and first.parent is None
        assert first.key == samekey.revision_key(samekey.content_hash_json(value))
        text = '{ "tags": ["a","b"], "n": 1500, "id": "%s", "title": "Gr\\u00fc\\u00dfe" }' % value["id"]
        again = client.register_json(text)
        assert (again.key, again.created) == (first.key, False)
        assert client.revision(first.key) == again
        with client.data(first.key) as chunks:
            assert chunks.read() == samekey.canonical_json(value).encode()


def test_a_double_whose_canonical_form_is_integer_digits_is_registered(registry: Server) -> None:
    # Canonically 123456789012345680000: sent that way, the registry's reader refuses it.
    with Registry(registry.url) as client:
        from_text = client.register_json('{"big": 1.2345678901234568e20, "id": "%s"}' % unique())
        assert from_text.created
        value: dict[str, Any] = {"big": 1.2345678901234568e20, "id": unique()}
        assert client.register(value).key == samekey.revision_key(samekey.content_hash_json(value))


def test_bytes_files_and_streams_of_the_same_data_are_one_revision(registry: Server, tmp_path: Path) -> None:
    data = os.urandom(3 << 20) + unique().encode()
    path = tmp_path / "data.bin"
    path.write_bytes(data)
    with Registry(registry.url) as client:
        root = client.register({"root": unique()})
        first = client.register_bytes(data, parent=root.key)
        assert first.created and first.parent == root.key and first.size == len(data)
        assert first.key == samekey.revision_key(samekey.content_hash(data), parent=root.key)
        r, w = os.pipe()
        os.close(w)  # an empty pipe: a stream that cannot seek
        unseekable = os.fdopen(r, "rb")
        sources: list[Any] = [path, str(path), open(path, "rb"), io.BytesIO(data)]
        for source in sources:
            found = client.register_file(source, parent=root.key)
            assert (found.key, found.created) == (first.key, False)
        empty = client.register_file(unseekable, parent=root.key)
        assert empty.key == samekey.revision_key(samekey.content_hash(b""), parent=root.key)
        with client.data(first.key) as chunks:
            assert b"".join(chunks) == data
        assert [r.key for r in client.history(first.key)] == [first.key, root.key]
        assert [r.key for r in client.history(first.key, limit=1)] == [first.key]


def test_failures_carry_the_problem_code_and_status(registry: Server) -> None:
    with Registry(registry.url) as client:
        missing = samekey.revision_key(samekey.content_hash(unique().encode()))
        calls: list[tuple[Callable[[], Any], str, int]] = [
            (lambda: client.revision(missing), "not_found", 404),
            (lambda: client.data(missing), "not_found", 404),
            (lambda: client.history(missing), "not_found", 404),
            (lambda: client.register({"a": 1}, parent=missing), "unknown_parent", 422),
            (lambda: client.register({"a": 1}, parent="rev:v1:zz"), "invalid_key", 400),
            (lambda: client.history(missing, limit=0), "invalid_query", 400),
        ]
        for call, code, status in calls:
            with pytest.raises(RegistryError) as e:
                call()
            assert (e.value.code, e.value.status) == (code, status)
            assert e.value.detail
    with pytest.raises(samekey.SamekeyError) as bad:
        Registry(registry.url).register({"a": float("nan")})
    assert bad.value.code == "number_out_of_range"


def test_input_samekey_refuses_raises_its_own_error_and_sends_nothing() -> None:
    # No registry on port 9: a request would fail with connection_failed.
    refused: list[tuple[Callable[[Any], Any], str]] = [
        (lambda c: c.register_json('{"a": 1, "a": 2}'), "duplicate_key"),
        (lambda c: c.register({"a": "\ud800"}), "invalid_string"),
        (lambda c: c.register_json('{"a": 1e400}'), "number_out_of_range"),
    ]
    with Registry("http://127.0.0.1:9", retry=Retry(max_retries=0)) as client:
        for call, code in refused:
            with pytest.raises(samekey.SamekeyError) as e:
                call(client)
            assert (e.value.code, isinstance(e.value, RegistryError)) == (code, False)

    async def run() -> None:
        async with AsyncRegistry("http://127.0.0.1:9", retry=Retry(max_retries=0)) as client:
            for call, code in refused:
                with pytest.raises(samekey.SamekeyError) as e:
                    await call(client)
                assert (e.value.code, isinstance(e.value, RegistryError)) == (code, False)

    asyncio.run(run())


def test_a_token_is_sent_and_a_missing_one_is_unauthorized(tmp_path: Path) -> None:
    (tmp_path / "tokens").write_text("s3cret\n")
    server = start_registry("sqlite:" + str(tmp_path / "r.db"), "--token-file", str(tmp_path / "tokens"))
    try:
        with Registry(server.url, token="s3cret") as client:
            assert client.register({"ok": True}).key.startswith("rev:v1:")
        with pytest.raises(RegistryError) as e, Registry(server.url) as anonymous:
            anonymous.register({"ok": True})
        assert (e.value.code, e.value.status) == ("unauthorized", 401)
    finally:
        server.stop()


def test_a_key_of_another_ring_is_refused_and_an_older_scheme_of_the_ring_accepted(registry: Server) -> None:
    value = {"ring": unique()}
    with Registry(registry.url, ring=KeyRing("v2")) as newer:
        with pytest.raises(KeyMismatchError) as e:
            newer.register(value)
        assert e.value.code == "key_mismatch" and e.value.answered.startswith("rev:v1:") and e.value.expected.startswith("rev:v2:")
        assert "rev:v1:" in str(e.value) and "rev:v2:" in str(e.value)
    with Registry(registry.url, ring=KeyRing("v2", ["v1"])) as rolling:
        found = rolling.register(value)
        assert found.scheme == "v1" and not found.created


def test_a_large_payload_the_registry_has_is_not_uploaded_again(registry: Server, proxy_server: Server, proxy: Proxy, tmp_path: Path) -> None:
    data = os.urandom(2 << 20) + unique().encode()
    with Registry(proxy_server.url, skip_upload_above=1 << 20) as client:
        first = client.register_bytes(data)
        assert [(e["method"], e["status"]) for e in proxy.log()] == [("GET", 404), ("POST", 201)]
        proxy.reset()
        again = client.register_bytes(data)
        assert (again.key, again.created) == (first.key, False)
        log = proxy.log()
        assert [(e["method"], e["status"], e["body_bytes"]) for e in log] == [("GET", 200, 0)]
    with Registry(proxy_server.url, skip_upload_above=None) as always:
        proxy.reset()
        assert always.register_bytes(data).key == first.key
        assert [(e["method"], e["body_bytes"]) for e in proxy.log()] == [("POST", len(data))]
        proxy.reset()
        path = tmp_path / "data.bin"
        path.write_bytes(data)
        assert always.register_file(path).key == first.key  # hashed while sent: one read
        assert [(e["method"], e["body_bytes"]) for e in proxy.log()] == [("POST", len(data))]


def test_the_async_client_gives_the_sync_clients_answers(registry: Server, tmp_path: Path) -> None:
    data = os.urandom(1 << 16) + unique().encode()
    path = tmp_path / "data.bin"
    path.write_bytes(data)

    async def run() -> list[Any]:
        async with AsyncRegistry(registry.url) as client:
            root = await client.register({"async": unique()})
            from_bytes = await client.register_bytes(data, parent=root.key)
            from_file = await client.register_file(path, parent=root.key)
            stream = await client.data(from_bytes.key)
            async with stream:
                got = await stream.read()
            history = await client.history(from_file.key)
            return [root, from_bytes, from_file, got, [r.key for r in history], await client.revision(root.key)]

    root, from_bytes, from_file, got, history, again = asyncio.run(run())
    assert from_bytes.created and not from_file.created and from_file.key == from_bytes.key
    assert got == data and history == [from_bytes.key, root.key] and again.key == root.key
    with Registry(registry.url) as client:
        assert client.register_bytes(data, parent=root.key).key == from_bytes.key


def test_the_readme_example_runs_and_creates_nothing_the_second_time(registry: Server, tmp_path: Path) -> None:
    import subprocess
    import sys

    example = Path(__file__).resolve().parents[1] / "examples" / "registry_client.py"
    data = tmp_path / "data.csv"
    data.write_text("id,name\n1," + unique() + "\n")
    runs = [subprocess.run([sys.executable, str(example), registry.url, str(data)], capture_output=True, text=True, timeout=60) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    first, second = (run.stdout.splitlines() for run in runs)
    assert first[1].startswith("data created ") and second[1].startswith("data found ")
    assert first[1].split()[2] == second[1].split()[2] == samekey.revision_key(
        samekey.content_hash(data), parent=samekey.revision_key(samekey.content_hash_json({"columns": ["id", "name"], "version": 1}))
    )
