"""Runs samekey test vectors (spec §10) through the public Python API.

Used by ``samekey.selftest()`` on the embedded subset and by the test suite on the whole
shared file, so the one runner is exercised by both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Union

import samekey

Json = Dict[str, Any]


@dataclass(frozen=True)
class Outcome:
    id: str
    passed: bool
    expected: Json
    actual: Json


def _text(t: Union[str, Json]) -> str:
    """Text, or ``{"utf16": ...}`` code units (spec §10.1) as the ``str`` Python makes of
    them, lone surrogates included, for samekey to refuse."""
    if isinstance(t, dict):
        return bytes.fromhex(t["utf16"]).decode("utf-16-be", errors="surrogatepass")
    return t


def _field(f: Union[str, Json]) -> Union[str, bytes]:
    return bytes.fromhex(f["hex"]) if isinstance(f, dict) and "hex" in f else _text(f)


def _parent(v: Json) -> Optional[str]:
    return None if v["parent"] is None else _text(v["parent"])


def _secret(v: Json) -> Optional[bytes]:
    return bytes.fromhex(v["secret_hex"]) if "secret_hex" in v else None


def _time(v: Json) -> Any:
    """A vector's time as Python gives it: an integer value as ``int`` (however the JSON
    wrote it), a fraction as the ``float`` it is, which samekey refuses (spec §8.2); hence
    ``Any``, since the API's type rightly has no float."""
    t = v["timestamp_ms"]
    if isinstance(t, float) and t.is_integer():
        return int(t)
    assert isinstance(t, (int, float)) and not isinstance(t, bool), t
    return t


def _ring(v: Json) -> "samekey.KeyRing":
    return samekey.KeyRing.from_accept([_text(name) for name in v["accepted"]])


def _ulid(v: Json) -> Json:
    fields = [_field(f) for f in v["fields"]]
    ulid = samekey.derive_ulid(fields, time=_time(v), namespace=_text(v["namespace"]),
                               scheme=_text(v["scheme"]), secret=_secret(v))
    message = samekey.ulid_message(fields, namespace=_text(v["namespace"]),
                                   scheme=_text(v["scheme"]))
    return {"ulid": str(ulid), "uuid": str(ulid.uuid), "message_hex": message.hex()}


def _content(v: Json) -> Json:
    return {"hash": samekey.content_hash(bytes.fromhex(v["data_hex"]), scheme=_text(v["scheme"]))}


def _content_json(v: Json) -> Json:
    # The hash first: it checks the scheme before the text (spec §6.1).
    text = _text(v["json"])
    hashed = samekey.content_hash_json_text(text, scheme=_text(v["scheme"]))
    return {"canonical": samekey.canonical_json_text(text), "hash": hashed}


def _revision(v: Json) -> Json:
    key = samekey.revision_key(_text(v["content_hash"]), parent=_parent(v), scheme=_text(v["scheme"]),
                               secret=_secret(v))
    message = samekey.revision_message(_text(v["content_hash"]), parent=_parent(v),
                                       scheme=_text(v["scheme"]))
    return {"key": key, "message_hex": message.hex()}


def _timestamp(v: Json) -> Json:
    return {"timestamp_ms": samekey.parse_rfc3339(_text(v["rfc3339"]))}


def _ulid_parse(v: Json) -> Json:
    u = samekey.Ulid.parse(_text(v["text"]))
    return {"ulid": str(u), "uuid": str(u.uuid), "timestamp_ms": u.timestamp_ms}


def _key_parse(v: Json) -> Json:
    # A ring is checked when it is made, before it parses anything (spec §9.1).
    ring = _ring(v) if "accepted" in v else None
    text = _text(v["text"])
    parsed: Json = samekey.parse_key(text)._asdict()
    if ring is not None:
        parsed = {**parsed, "scheme": ring.scheme_of_key(text)}
    return parsed


def _verify(v: Json) -> Json:
    ring = _ring(v)
    scheme = ring.verify_ulid(_text(v["ulid"]), [_field(f) for f in v["fields"]], time=_time(v),
                              namespace=_text(v["namespace"]), secret=_secret(v))
    return {"scheme": scheme}


def _candidates(v: Json) -> Json:
    found = _ring(v).candidate_ulids([_field(f) for f in v["fields"]], time=_time(v),
                                     namespace=_text(v["namespace"]), secret=_secret(v))
    return {"candidates": [{"scheme": s, "ulid": str(u)} for s, u in found]}


def _ring_revision(v: Json) -> Json:
    ring = _ring(v)
    return {"key": ring.revision_key(_text(v["content_hash"]), parent=_parent(v),
                                     secret=_secret(v))}


def _needs_write(v: Json) -> Json:
    stored = None if v["stored"] is None else _text(v["stored"])
    return {"needs_write": samekey.needs_write(stored, _text(v["incoming"]))}


OPS: Dict[str, Callable[[Json], Json]] = {
    "ulid": _ulid, "content": _content, "content_json": _content_json, "revision": _revision,
    "timestamp": _timestamp, "ulid_parse": _ulid_parse, "key_parse": _key_parse,
    "verify": _verify, "candidates": _candidates, "ring_revision": _ring_revision,
    "needs_write": _needs_write,
}


def run_vector(v: Json) -> Outcome:
    """One vector's outcome; anything it raises but a SamekeyError fails that vector alone
    (spec §10.1), so one bad vector never ends the run."""
    try:
        actual = OPS[v["op"]](v)
    except samekey.SamekeyError as e:
        actual = {"error": e.code}
    except Exception as e:  # noqa: BLE001 - reported as this vector's failure
        actual = {"exception": repr(e)}
    return Outcome(v["id"], actual == v["expect"], v["expect"], actual)


def run_document(text: str) -> List[Outcome]:
    doc = json.loads(text)
    if doc.get("schema") != "samekey-test-vectors/1":
        raise ValueError(f"unsupported vector schema {doc.get('schema')!r}")
    outcomes = [run_vector(v) for v in doc["vectors"]]
    ids = [o.id for o in outcomes]
    if len(set(ids)) != len(ids):
        raise ValueError("a vector id appears more than once")
    return outcomes
