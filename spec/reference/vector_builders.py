"""What gen_vectors.py and its case modules build vectors with: the list they fill, one
builder per op (inputs in, the reference's outputs or error as `expect`), and the inputs
many cases share."""

from __future__ import annotations

import json

import samekey_ref as ref
from fault_domains import host, host_fields

vectors: list[dict] = []

POST_T = 1714564800000  # 2024-05-01T12:00:00Z
POST = ["my-first-post-title", "en"]
H1 = ref.content_hash("v1", b'{"rows":3}')
H2 = ref.content_hash("v2", b'{"rows":3}')


def expect(fn) -> dict:
    try:
        return fn()
    except ref.SamekeyError as e:
        return {"error": e.code}


def add(vid: str, op: str, inputs: dict, result: dict) -> None:
    assert "id" not in inputs and "op" not in inputs and "expect" not in inputs, vid
    assert all(v["id"] != vid for v in vectors), vid
    vectors.append({"id": vid, "op": op, **inputs, "expect": result})


def with_secret(inputs: dict, secret) -> dict:
    if secret is not None:
        inputs["secret_hex"] = secret.hex()
    return inputs


def ulid(vid, scheme, t, fields, namespace="", secret=None):
    inputs = with_secret({"scheme": scheme, "namespace": namespace, "timestamp_ms": t,
                          "fields": fields}, secret)
    add(vid, "ulid", inputs, expect(lambda: ref.derive_ulid(
        host(scheme), t, host(namespace), host_fields(fields), secret)))


def content(vid, scheme, data: bytes):
    add(vid, "content", {"scheme": scheme, "data_hex": data.hex()},
        expect(lambda: {"hash": ref.content_hash(host(scheme), data)}))


def content_json(vid, text, scheme="v1"):
    add(vid, "content_json", {"scheme": scheme, "json": text},
        expect(lambda: ref.content_json(host(scheme), host(text))))


def revision(vid, scheme, parent, content_hash, secret=None):
    inputs = with_secret({"scheme": scheme, "parent": parent, "content_hash": content_hash},
                         secret)
    add(vid, "revision", inputs, expect(lambda: ref.revision(
        host(scheme), host(parent), host(content_hash), secret)))


def timestamp(vid, text):
    add(vid, "timestamp", {"rfc3339": text},
        expect(lambda: {"timestamp_ms": ref.parse_timestamp(host(text))}))


def ulid_parse(vid, text):
    def run():
        raw = ref.parse_ulid(host(text))
        return {"ulid": ref.crockford(raw), "uuid": ref.uuid_text(raw),
                "timestamp_ms": int.from_bytes(raw[:6], "big")}
    add(vid, "ulid_parse", {"text": text}, expect(run))


def key_parse(vid, text, accepted=None):
    inputs = {"text": text}
    if accepted is not None:
        inputs["accepted"] = accepted
    add(vid, "key_parse", inputs, expect(lambda: ref.key_scheme(host(text), host(accepted))))


def verify(vid, accepted, id_text, t, fields, namespace="", secret=None):
    inputs = with_secret({"accepted": accepted, "ulid": id_text, "namespace": namespace,
                          "timestamp_ms": t, "fields": fields}, secret)
    add(vid, "verify", inputs, expect(lambda: {"scheme": ref.verify(
        host(accepted), host(id_text), t, host(namespace), host_fields(fields), secret)}))


def candidates(vid, accepted, t, fields, namespace="", secret=None):
    inputs = with_secret({"accepted": accepted, "namespace": namespace, "timestamp_ms": t,
                          "fields": fields}, secret)
    add(vid, "candidates", inputs, expect(lambda: {"candidates": ref.candidates(
        host(accepted), t, host(namespace), host_fields(fields), secret)}))


def ring_revision(vid, accepted, parent, content_hash, secret=None):
    inputs = with_secret({"accepted": accepted, "parent": parent,
                          "content_hash": content_hash}, secret)
    add(vid, "ring_revision", inputs, expect(lambda: ref.ring_revision(
        host(accepted), host(parent), host(content_hash), secret)))


def needs_write(vid, stored, incoming):
    add(vid, "needs_write", {"stored": stored, "incoming": incoming},
        expect(lambda: {"needs_write": ref.needs_write(host(stored), host(incoming))}))


def ulid_text(scheme, t, fields, namespace="", secret=None) -> str:
    return ref.derive_ulid(scheme, t, namespace, host_fields(fields), secret)["ulid"]


def utf16(t: str) -> dict:
    return {"utf16": t.encode("utf-16-be", errors="surrogatepass").hex()}


class Num(float):
    """A number written in the vector file as `text` says (`1.7145648e12`, `-0`), since
    json.dumps writes every float its own way; its value is float(text) (§10.1: the
    decimal value decides, not how it is written)."""

    def __new__(cls, text: str):
        number = super().__new__(cls, text)
        number.text = text
        return number


def render(selected: list[dict], description: str) -> str:
    doc = {"schema": "samekey-test-vectors/1", "description": description,
           "vectors": [{k: numbers_as_written(x) for k, x in v.items()} for v in selected]}
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    for number in WRITTEN:
        text = text.replace(json.dumps(f"{NUM_MARK}{number}"), number)
    return text


NUM_MARK = "\u0001number:"
WRITTEN: set[str] = set()


def numbers_as_written(x):
    if isinstance(x, Num):
        WRITTEN.add(x.text)
        return f"{NUM_MARK}{x.text}"
    return x
