"""Content hashes, canonical JSON, revision keys, the key ring and the guards."""

from __future__ import annotations

import hashlib
import io
import os
import pathlib
import subprocess
import sys
import threading

import pytest

import samekey
from samekey import SamekeyError


def test_content_hash_of_every_input_kind(tmp_path: pathlib.Path) -> None:
    data = os.urandom(3 << 20)
    want = "sha256:" + hashlib.sha256(data).hexdigest()
    path = tmp_path / "f.bin"
    path.write_bytes(data)
    assert samekey.content_hash(data) == want
    assert samekey.content_hash(bytearray(data)) == want
    assert samekey.content_hash(path) == want
    with open(path, "rb") as f:
        assert samekey.content_hash(f) == want
    assert samekey.content_hash(io.BytesIO(data)) == want
    assert samekey.content_hash("é") == "sha256:" + hashlib.sha256("é".encode()).hexdigest()
    h = samekey.ContentHasher("v2")
    h.update(data[:5])
    h.update(io.BytesIO(data[5:]))
    assert h.finalize() == samekey.content_hash(path, scheme="v2") == samekey.content_hash(data, scheme="v2")


def test_content_hash_refuses_text_files_and_other_types(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("x")
    with open(path) as text_file, pytest.raises(TypeError):
        samekey.content_hash(text_file)  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(TypeError):
        samekey.content_hash(123)  # type: ignore[arg-type]  # deliberately wrong
    with pytest.raises(SamekeyError) as e:
        samekey.content_hash(tmp_path / "missing")
    assert e.value.code == "io_error"
    with pytest.raises(SamekeyError) as e:
        samekey.content_hash(b"", scheme="v0")
    assert e.value.code == "scheme_not_supported"


def test_large_file_hashes_in_constant_memory(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.bin"
    with open(path, "wb") as f:
        for i in range(64):
            f.write(bytes([i]) * (4 << 20))  # 256 MiB
    script = (
        "import resource, sys, samekey\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for scheme in ('v1', 'v2'):\n"
        "    samekey.content_hash(__import__('pathlib').Path(sys.argv[1]), scheme=scheme)\n"
        "    with open(sys.argv[1], 'rb') as f:\n"
        "        samekey.content_hash(f, scheme=scheme)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    grew_kib = int(subprocess.check_output([sys.executable, "-c", script, str(path)]))
    assert grew_kib < 64 * 1024, f"peak RSS grew {grew_kib} KiB hashing 256 MiB"


def test_canonical_json_of_python_values() -> None:
    value = {"b": [1.0, -0.0, 1e21, True, None], "a": "é", "c": (1, 2)}
    assert samekey.canonical_json(value) == '{"a":"é","b":[1,0,1e+21,true,null],"c":[1,2]}'
    assert samekey.content_hash_json(value) == samekey.content_hash(samekey.canonical_json(value))
    for bad, code in [(2**53, "number_out_of_range"), (-(2**53), "number_out_of_range"),
                      (float("nan"), "number_out_of_range"), (float("inf"), "number_out_of_range")]:
        with pytest.raises(SamekeyError) as e:
            samekey.canonical_json([bad])
        assert e.value.code == code
    assert samekey.canonical_json(2**53 - 1) == "9007199254740991"
    for bad_type in ({1: "x"}, {"s": {1, 2}}, b"bytes", object()):
        with pytest.raises(TypeError):
            samekey.canonical_json(bad_type)  # type: ignore[arg-type]  # deliberately wrong
    deep: object = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(SamekeyError) as e:
        samekey.canonical_json(deep)  # type: ignore[arg-type]  # deliberately wrong
    assert e.value.code == "nesting_too_deep"
    cycle: list[object] = []
    cycle.append(cycle)
    with pytest.raises(SamekeyError):
        samekey.canonical_json(cycle)  # type: ignore[arg-type]  # deliberately wrong


def test_revision_keys_and_guards() -> None:
    h = samekey.content_hash(b'{"rows":3}')
    root = samekey.revision_key(h)
    child = samekey.revision_key(h, parent=root)
    assert root.startswith("rev:v1:") and child != root
    assert samekey.revision_key(h, parent=root) == child  # a retry finds the same revision
    with pytest.raises(SamekeyError) as e:
        samekey.revision_key(h, scheme="v2")
    assert e.value.code == "scheme_mismatch"
    with pytest.raises(SamekeyError) as e:
        samekey.revision_key(h, parent="")
    assert e.value.code == "empty_parent"
    assert samekey.needs_write(None, h) and not samekey.needs_write(h, h)
    assert samekey.needs_write(h, samekey.content_hash(b"other"))
    assert samekey.parse_key(root) == ("revision", "v1", root)


def test_key_ring_migration_and_verify() -> None:
    ring = samekey.KeyRing("v2", ["v1", "v0"])
    assert ring.accepted == ["v2", "v1", "v0"]
    legacy = samekey.derive_ulid(["slug", "en"], time=0, scheme="v0")
    assert samekey.verify(legacy, ["slug", "en"], time=0, accept=("v2", "v1", "v0")) == "v0"
    schemes = [s for s, _ in ring.candidate_ulids(["slug", "en"], time=0)]
    assert schemes == ["v2", "v1", "v0"]
    with pytest.raises(SamekeyError) as e:
        ring.verify_ulid(legacy, ["slug", "en"], time=1)
    assert e.value.code == "identity_mismatch"
    assert ring.scheme_of_key(samekey.content_hash(b"x", scheme="v1")) == "v1"
    with pytest.raises(SamekeyError) as e:
        samekey.KeyRing("v2").scheme_of_key(samekey.content_hash(b"x"))
    assert e.value.code == "scheme_not_accepted"


def test_a_ring_from_an_accept_list() -> None:
    assert samekey.KeyRing.from_accept(["v2", "v1"]).accepted == samekey.KeyRing("v2", ["v1"]).accepted
    for accept in ([], ["v1,v2"]):
        with pytest.raises(SamekeyError) as e:
            samekey.KeyRing.from_accept(accept)
        assert e.value.code == "unknown_scheme", accept
    legacy = samekey.derive_ulid(["slug", "en"], time=0, scheme="v0")
    with pytest.raises(SamekeyError) as e:
        samekey.verify(legacy, ["slug", "en"], time=0, accept=())
    assert e.value.code == "unknown_scheme"


def test_many_threads_derive_at_once() -> None:
    d = samekey.UlidDeriver("v2", "threads")
    want = {i: samekey.derive_ulid([str(i)], time=i, namespace="threads", scheme="v2") for i in range(200)}
    errors: list[str] = []

    def work() -> None:
        for _ in range(20):
            for i in range(200):
                if d.derive([str(i)], time=i) != want[i]:
                    errors.append(str(i))
            assert d.derive_many(list(range(200)), [str(i) for i in range(200)]) == [want[i] for i in range(200)]

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_errors_are_picklable_value_errors_with_codes() -> None:
    import pickle

    with pytest.raises(SamekeyError) as e:
        samekey.parse_rfc3339("nope")
    again = pickle.loads(pickle.dumps(e.value))
    assert again.code == "invalid_timestamp" and str(again) == str(e.value)
    assert set(samekey.ERROR_CODES) >= {"invalid_timestamp", "identity_mismatch", "invalid_string"}
    assert samekey.version() == samekey.__version__
