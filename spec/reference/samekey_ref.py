"""Reference implementation of samekey, written from spec/samekey.md alone.

Plain Python (standard library plus the `blake3` package), no speed tricks, one function
per rule. It shares no code with the Rust core: when the two disagree, one of them
misreads the spec, and the vectors this module generates are how we find out.
"""

from __future__ import annotations

import hashlib
import hmac
import struct

import blake3

from basics import MAX_MS, SamekeyError, bad_text
from canonical_json import canonical, parse_json
from key_text import (content_scheme, hash_fault, named_scheme, parse_content_hash,
                      parsed_key)
from rfc3339 import parse_rfc3339 as _parse_rfc3339

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
V2_SECRET_CONTEXT = "samekey v2 secret"



# §2 schemes and tags -------------------------------------------------------------------

def run_checks(checks, *args) -> None:
    """Runs an ordered check list: each check is (name, test); a test returns whether it
    failed, or the code of its own failure (a check that stands for several codes). A
    name is the check's code, with the input it looks at when the code has several
    (`invalid_string(namespace)`): each is a check of its own that an implementation may
    place anywhere, so check_orders.py moves each on its own."""
    for name, failed in checks:
        fault = failed(*args)
        if fault:
            raise SamekeyError(fault if isinstance(fault, str) else code_of(name))


def code_of(name: str) -> str:
    return name.split("(", 1)[0]


def block(scheme: str, purpose: str) -> bytes:
    tag = f"samekey/{scheme}/{purpose}".encode("ascii")
    return tag + b"\x00" * (64 - len(tag))


def tagged_hash(scheme: str, message: bytes, secret: bytes | None) -> bytes:
    if scheme == "v1":
        if secret is None:
            return hashlib.sha256(message).digest()
        return hmac.new(secret, message, hashlib.sha256).digest()
    if secret is None:
        return blake3.blake3(message).digest()
    key = blake3.blake3(secret, derive_key_context=V2_SECRET_CONTEXT).digest()
    return blake3.blake3(message, key=key).digest()


# §3 framing ---------------------------------------------------------------------------

def u32be(n: int) -> bytes:
    if n > 0xFFFFFFFF:
        raise SamekeyError("field_too_long")
    return struct.pack(">I", n)


def enc(b: bytes) -> bytes:
    return u32be(len(b)) + b


# §4 deterministic ULIDs ----------------------------------------------------------------

def crockford(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    return "".join(CROCKFORD[(n >> (5 * (25 - i))) & 31] for i in range(26))


def uuid_text(data: bytes) -> str:
    h = data.hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def field_bytes(f) -> bytes:
    """An identity field: bytes as they are, text as its UTF-8 (after §2.2's check)."""
    return f if isinstance(f, bytes) else f.encode("utf-8")


def ulid_message(scheme: str, namespace: str, fields: list) -> bytes:
    fields = [field_bytes(f) for f in fields]
    if scheme == "v0":
        return b":".join(fields)
    return (block(scheme, "ulid") + enc(namespace.encode("utf-8"))
            + u32be(len(fields)) + b"".join(enc(f) for f in fields))


def is_time(t) -> bool:
    """§8.2 host conversion: whether a number of milliseconds is an integer. The vectors'
    JSON numbers arrive as int or float; a number's value decides, not how it is written."""
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        raise TypeError("a time is a number of milliseconds")
    return isinstance(t, int) or t.is_integer()


def out_of_range(t) -> bool:
    """Whether a time's value lies outside 0..2^48-1, integer or not: an implementation
    that compares a number before deciding that it is an integer sees -1.5 as out of
    range, so the check is written to fail for it too (§4.4 puts it after the conversion)."""
    return not 0 <= t <= MAX_MS


def empty(k) -> bool:
    return k is not None and len(k) == 0


# §2.2, §8.2 and §4.4: the host conversions (each string, then the time), then the checks,
# in order. Each is (name, test); a test sees every input and fails whenever its own input
# is faulty, whatever the others hold, so the list can be permuted (check_orders.py does,
# to show that the vectors pin this order). Every op has a list of its own, written out:
# an implementation need not share code between ops, so the proof does not either.
ULID_CHECKS = [
    ("invalid_string(scheme)", lambda s, t, ns, f, k: bad_text(s)),
    ("invalid_string(namespace)", lambda s, t, ns, f, k: bad_text(ns)),
    ("invalid_string(fields)", lambda s, t, ns, f, k: bad_text(f)),
    ("invalid_timestamp", lambda s, t, ns, f, k: not is_time(t)),
    ("unknown_scheme", lambda s, t, ns, f, k: s not in ("v0", "v1", "v2")),
    ("secret_not_supported", lambda s, t, ns, f, k: s == "v0" and k is not None),
    ("namespace_not_supported", lambda s, t, ns, f, k: s == "v0" and ns != ""),
    ("empty_secret", lambda s, t, ns, f, k: empty(k)),
    ("timestamp_out_of_range", lambda s, t, ns, f, k: out_of_range(t)),
    ("no_fields", lambda s, t, ns, f, k: not f),
]


def derive_ulid(scheme: str, t, namespace: str, fields: list,
                secret: bytes | None) -> dict:
    run_checks(ULID_CHECKS, scheme, t, namespace, fields, secret)
    t = int(t)
    m = ulid_message(scheme, namespace, fields)
    d = hashlib.sha256(m).digest() if scheme == "v0" else tagged_hash(scheme, m, secret)
    raw = t.to_bytes(6, "big") + d[:10]
    return {"ulid": crockford(raw), "uuid": uuid_text(raw), "message_hex": m.hex()}


# §4.6: the text's conversion, then its parse.
ULID_PARSE_CHECKS = [
    ("invalid_string(text)", lambda text: bad_text(text)),
    ("invalid_ulid", lambda text: not _ulid_syntax(text)),
]


def _ulid_syntax(text: str) -> bool:
    return len(text) == 26 and text.isascii() and all(c in CROCKFORD for c in text.upper()) \
        and text[0] in "01234567"


def parse_ulid(text: str) -> bytes:
    run_checks(ULID_PARSE_CHECKS, text)
    if len(text) != 26 or not text.isascii():
        raise SamekeyError("invalid_ulid")
    n = 0
    for i, ch in enumerate(text.upper()):
        v = CROCKFORD.find(ch)
        if v < 0 or (i == 0 and v > 7):
            raise SamekeyError("invalid_ulid")
        n = n * 32 + v
    return n.to_bytes(16, "big")


# §5 content hashes ----------------------------------------------------------------------

# §5: the scheme name's conversion, then the scheme.
CONTENT_CHECKS = [
    ("invalid_string(scheme)", lambda s: bad_text(s)),
    ("unknown_scheme", lambda s: s not in ("v0", "v1", "v2")),
    ("scheme_not_supported", lambda s: s == "v0"),
]


def content_hash(scheme: str, data: bytes) -> str:
    run_checks(CONTENT_CHECKS, scheme)
    if scheme == "v1":
        return "sha256:" + hashlib.sha256(data).hexdigest()
    if scheme == "v2":
        return "blake3:" + blake3.blake3(data).hexdigest()
    raise SamekeyError("scheme_not_supported")


# §6 canonical JSON (the parse and RFC 8785 form: canonical_json.py) ------------------


def _json_fault(text: str) -> str | None:
    try:
        parse_json(text)
    except SamekeyError as e:
        return e.code
    return None


# §6.1: the strings' conversion, the scheme, then the text, each of the text's faults a
# check of its own (spec 1.4): an implementation that parses before it checks the text's
# Unicode, or checks duplicates after the parse, moves one of them. Among themselves they
# are not ordered (a text with two JSON faults may report either, §6.1), so the fault
# domains hold texts with one JSON fault each, some also not valid Unicode.
JSON_FAULTS = ("invalid_json", "duplicate_key", "number_out_of_range", "nesting_too_deep")
CONTENT_JSON_CHECKS = [
    ("invalid_string(scheme)", lambda s, text: bad_text(s)),
    ("invalid_string(json)", lambda s, text: bad_text(text)),
    ("unknown_scheme", lambda s, text: s not in ("v0", "v1", "v2")),
    ("scheme_not_supported", lambda s, text: s == "v0"),
    *[(code, lambda s, text, code=code: _json_fault(text) == code) for code in JSON_FAULTS],
]


def content_json(scheme: str, text: str) -> dict:
    run_checks(CONTENT_JSON_CHECKS, scheme, text)
    c = canonical(parse_json(text))
    return {"canonical": c, "hash": content_hash(scheme, c.encode("utf-8"))}


# §7 revision keys -----------------------------------------------------------------------

# §7.3: the conversions and the checks in order, permutable like ULID_CHECKS.
REVISION_CHECKS = [
    ("invalid_string(scheme)", lambda s, p, c, k: bad_text(s)),
    ("invalid_string(parent)", lambda s, p, c, k: bad_text(p)),
    ("invalid_string(content_hash)", lambda s, p, c, k: bad_text(c)),
    ("unknown_scheme", lambda s, p, c, k: s not in ("v0", "v1", "v2")),
    ("invalid_key", lambda s, p, c, k: content_scheme(c) is None),
    ("scheme_not_supported", lambda s, p, c, k: s == "v0"),
    ("empty_secret", lambda s, p, c, k: empty(k)),
    ("empty_parent", lambda s, p, c, k: p == ""),
    ("scheme_mismatch", lambda s, p, c, k: named_scheme(c) not in (None, s)),
]


def revision(scheme: str, parent: str | None, content_hash_text: str,
             secret: bytes | None) -> dict:
    run_checks(REVISION_CHECKS, scheme, parent, content_hash_text, secret)
    _, digest = parse_content_hash(content_hash_text)
    p = b"\x00" if parent is None else b"\x01" + enc(parent.encode("utf-8"))
    m = block(scheme, "revision") + p + enc(digest)
    return {"key": f"rev:{scheme}:" + tagged_hash(scheme, m, secret).hex(),
            "message_hex": m.hex()}


# §8 timestamps (the RFC 3339 grammar: rfc3339.py) ------------------------------------


def _timestamp_fault(text: str) -> str | None:
    try:
        _parse_rfc3339(text)
    except SamekeyError as e:
        return e.code
    return None


# §8.1: the text's conversion, then its parse (which stands for both of its codes).
TIMESTAMP_CHECKS = [
    ("invalid_string(rfc3339)", lambda text: bad_text(text)),
    ("timestamp", _timestamp_fault),
]


def parse_timestamp(text: str) -> int:
    run_checks(TIMESTAMP_CHECKS, text)
    return _parse_rfc3339(text)


# §9 key ring and guards --------------------------------------------------------------

ORDER = {"v2": 0, "v1": 1, "v0": 2}  # newest first


def ring_fault(accepted: list[str]) -> str | None:
    """§9.1: a ring's own error, checked when it is made: RING_CHECKS in their order."""
    return next((code_of(name) for name, failed in RING_CHECKS if failed(accepted)), None)


def key_ring(accepted: list[str]) -> list[str]:
    """§9.1: the accepted list checked and ordered: primary, then newest to oldest."""
    fault = ring_fault(accepted)
    if fault:
        raise SamekeyError(fault)
    primary = accepted[0]
    others = sorted(set(accepted) - {primary}, key=ORDER.__getitem__)
    return [primary] + others


def primary(accepted) -> str | None:
    return accepted[0] if accepted else None


# §9.1: a ring's checks, each name a check of its own (spec 1.4): every name's conversion
# (the first, then the later ones), then every name (a list with no first name has no
# primary, `unknown_scheme` like an unknown first name). An implementation that checks the
# later names lazily (when it derives their candidates, after the primary's own checks)
# moves the `[1:]` checks; the vectors catch it.
RING_CHECKS = [
    ("invalid_string(accepted[0])", lambda a: bad_text(a[:1])),
    ("invalid_string(accepted[1:])", lambda a: bad_text(a[1:])),
    ("unknown_scheme(accepted[0])", lambda a: not a or a[0] not in ORDER),
    ("unknown_scheme(accepted[1:])", lambda a: any(name not in ORDER for name in a[1:])),
]


def ring_checks(at: int = 0) -> list:
    """RING_CHECKS in the list of an op whose argument `at` is the ring, or None where the
    op's ring is optional (`key_parse`), which fails none of them."""
    return [(name, lambda *args, test=test: args[at] is not None and test(args[at]))
            for name, test in RING_CHECKS]


# §9.1, §9.2: the ring (its names' conversion, then its names), the host conversions
# (each string, then the time), then the primary's checks of §4.4 (its name is a scheme
# once the ring is made, so unknown_scheme is the ring's).
CANDIDATES_CHECKS = [
    *ring_checks(),
    ("invalid_string(namespace)", lambda a, t, ns, f, k: bad_text(ns)),
    ("invalid_string(fields)", lambda a, t, ns, f, k: bad_text(f)),
    ("invalid_timestamp", lambda a, t, ns, f, k: not is_time(t)),
    ("secret_not_supported", lambda a, t, ns, f, k: primary(a) == "v0" and k is not None),
    ("namespace_not_supported", lambda a, t, ns, f, k: primary(a) == "v0" and ns != ""),
    ("empty_secret", lambda a, t, ns, f, k: empty(k)),
    ("timestamp_out_of_range", lambda a, t, ns, f, k: out_of_range(t)),
    ("no_fields", lambda a, t, ns, f, k: not f),
]


def candidates(accepted: list[str], t, namespace: str, fields: list,
               secret: bytes | None) -> list[dict]:
    run_checks(CANDIDATES_CHECKS, accepted, t, namespace, fields, secret)
    out = []
    for i, scheme in enumerate(key_ring(accepted)):
        try:
            candidate = derive_ulid(scheme, t, namespace, fields, secret)
        except SamekeyError as e:
            if i > 0 and e.code in ("namespace_not_supported", "secret_not_supported"):
                continue
            raise
        out.append({"scheme": scheme, "ulid": candidate["ulid"]})
    return out


def _id_fault(text) -> bool:
    try:
        parse_ulid(text)
    except SamekeyError:
        return True
    return False


# §9.2: as candidates, with the id: its conversion is a string's like the others (before
# the time); its parse (invalid_ulid) is in the host's order among the conversions, which
# no vector combines with it (fault_domains.py leaves those inputs out).
VERIFY_CHECKS = [
    *ring_checks(),
    ("invalid_string(ulid)", lambda a, i, t, ns, f, k: bad_text(i)),
    ("invalid_string(namespace)", lambda a, i, t, ns, f, k: bad_text(ns)),
    ("invalid_string(fields)", lambda a, i, t, ns, f, k: bad_text(f)),
    ("invalid_timestamp", lambda a, i, t, ns, f, k: not is_time(t)),
    ("invalid_ulid", lambda a, i, t, ns, f, k: _id_fault(i)),
    ("secret_not_supported", lambda a, i, t, ns, f, k: primary(a) == "v0" and k is not None),
    ("namespace_not_supported", lambda a, i, t, ns, f, k: primary(a) == "v0" and ns != ""),
    ("empty_secret", lambda a, i, t, ns, f, k: empty(k)),
    ("timestamp_out_of_range", lambda a, i, t, ns, f, k: out_of_range(t)),
    ("no_fields", lambda a, i, t, ns, f, k: not f),
]


def verify(accepted: list[str], id_text: str, t, namespace: str,
           fields: list, secret: bytes | None) -> str:
    run_checks(VERIFY_CHECKS, accepted, id_text, t, namespace, fields, secret)
    target = parse_ulid(id_text)
    for c in candidates(accepted, t, namespace, fields, secret):
        if parse_ulid(c["ulid"]) == target:
            return c["scheme"]
    raise SamekeyError("identity_mismatch")


def _not_accepted(accepted, text) -> bool:
    scheme = named_scheme(text)
    return scheme is not None and scheme not in accepted


# §9.1: the ring, the conversions, the hash's parse, whether the ring accepts its scheme,
# then §7.3's checks that remain for a revision under that scheme.
RING_REVISION_CHECKS = [
    *ring_checks(),
    ("invalid_string(parent)", lambda a, p, c, k: bad_text(p)),
    ("invalid_string(content_hash)", lambda a, p, c, k: bad_text(c)),
    ("invalid_key", lambda a, p, c, k: content_scheme(c) is None),
    ("scheme_not_accepted", lambda a, p, c, k: _not_accepted(a, c)),
    ("empty_secret", lambda a, p, c, k: empty(k)),
    ("empty_parent", lambda a, p, c, k: p == ""),
]


def ring_revision(accepted: list[str], parent: str | None, content_hash_text: str,
                  secret: bytes | None) -> dict:
    run_checks(RING_REVISION_CHECKS, accepted, parent, content_hash_text, secret)
    scheme, _ = parse_content_hash(content_hash_text)
    return {"key": revision(scheme, parent, content_hash_text, secret)["key"]}


# §9.3: both converted, then both parsed, incoming first (one code, so the order of the
# two parses cannot be seen).
NEEDS_WRITE_CHECKS = [
    ("invalid_string(stored)", lambda stored, incoming: bad_text(stored)),
    ("invalid_string(incoming)", lambda stored, incoming: bad_text(incoming)),
    ("invalid_key(incoming)", lambda stored, incoming: hash_fault(incoming)),
    ("invalid_key(stored)", lambda stored, incoming: stored is not None and hash_fault(stored)),
]


def needs_write(stored: str | None, incoming: str) -> bool:
    run_checks(NEEDS_WRITE_CHECKS, stored, incoming)
    return stored is None or parse_content_hash(stored) != parse_content_hash(incoming)


# §9.1: the ring (when one is given), the text's conversion, its parse, then the ring.
KEY_PARSE_CHECKS = [
    *ring_checks(at=1),
    ("invalid_string(text)", lambda text, a: bad_text(text)),
    ("invalid_key", lambda text, a: parsed_key(text) is None),
    ("scheme_not_accepted", lambda text, a: a is not None and _not_accepted(a, text)),
]


def key_scheme(text: str, accepted: list[str] | None) -> dict:
    run_checks(KEY_PARSE_CHECKS, text, accepted)
    kind, scheme, digest = parsed_key(text)
    if kind == "revision":
        canonical_text = f"rev:{scheme}:{digest.hex()}"
    else:
        canonical_text = {"v1": "sha256", "v2": "blake3"}[scheme] + ":" + digest.hex()
    return {"kind": kind, "scheme": scheme, "canonical": canonical_text}
