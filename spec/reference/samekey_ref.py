"""Reference implementation of samekey, written from spec/samekey.md alone.

Plain Python (standard library plus the `blake3` package), no speed tricks, one function
per rule. It shares no code with the Rust core: when the two disagree, one of them
misreads the spec, and the vectors this module generates are how we find out.
"""

from __future__ import annotations

import calendar
import hashlib
import hmac
import json
import re
import struct

import blake3

MAX_MS = 2**48 - 1
MAX_SAFE_INTEGER = 2**53 - 1
MAX_DEPTH = 128
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
V2_SECRET_CONTEXT = "samekey v2 secret"


class SamekeyError(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


# §2 schemes and tags -------------------------------------------------------------------

def check_text(text: str) -> str:
    """§2.2: a host string that is not valid Unicode is invalid_string, never repaired."""
    if bad_text(text):
        raise SamekeyError("invalid_string")
    return text


def bad_text(*values) -> bool:
    """Whether any host string among `values` (strings, bytes, None, lists of them) holds
    a lone surrogate. Python strings can; the conversion of §2.2 refuses them."""
    for v in values:
        if isinstance(v, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in v):
            return True
        if isinstance(v, (list, tuple)) and bad_text(*v):
            return True
    return False


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


def check_scheme(scheme: str) -> str:
    if scheme not in ("v0", "v1", "v2"):
        raise SamekeyError("unknown_scheme")
    return scheme


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


HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)


def parse_content_hash(text: str) -> tuple[str, bytes]:
    check_text(text)
    algorithm, sep, digest = text.partition(":")
    scheme = {"sha256": "v1", "blake3": "v2"}.get(algorithm)
    if not sep or scheme is None or not HEX64.fullmatch(digest):
        raise SamekeyError("invalid_key")
    return scheme, bytes.fromhex(digest)


def parse_revision_key(text: str) -> tuple[str, bytes]:
    check_text(text)
    parts = text.split(":")
    if len(parts) != 3 or parts[0] != "rev" or parts[1] not in ("v1", "v2") \
            or not HEX64.fullmatch(parts[2]):
        raise SamekeyError("invalid_key")
    return parts[1], bytes.fromhex(parts[2])


# §6 canonical JSON ------------------------------------------------------------------

def _reject_constant(name: str):
    raise SamekeyError("invalid_json")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > 17 or abs(int(text)) > MAX_SAFE_INTEGER:
        raise SamekeyError("number_out_of_range")
    return int(text)


def _parse_float(text: str) -> float:
    x = float(text)
    if x in (float("inf"), float("-inf")):
        raise SamekeyError("number_out_of_range")
    return x


def _pairs(pairs: list) -> dict:
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise SamekeyError("duplicate_key")
        seen[k] = v
    return seen


def _check_tree(v, depth: int) -> None:
    if isinstance(v, str):
        if any(0xD800 <= ord(c) <= 0xDFFF for c in v):
            raise SamekeyError("invalid_json")
    elif isinstance(v, (list, dict)):
        if depth + 1 > MAX_DEPTH:
            raise SamekeyError("nesting_too_deep")
        items = v.items() if isinstance(v, dict) else ((None, x) for x in v)
        for k, x in items:
            if k is not None:
                _check_tree(k, depth)
            _check_tree(x, depth + 1)


def parse_json(text: str):
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_int=_parse_int,
                           parse_float=_parse_float, parse_constant=_reject_constant)
    except (json.JSONDecodeError, RecursionError):
        raise SamekeyError("invalid_json") from None
    _check_tree(value, 0)
    return value


def es_number(x: float) -> str:
    """ECMAScript Number::toString from Python's shortest round-trip repr."""
    if x == 0:
        return "0"
    if x < 0:
        return "-" + es_number(-x)
    mantissa, _, exp = repr(x).partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = (whole + frac).lstrip("0")
    stripped = digits.rstrip("0")
    k = len(stripped)
    n = int(exp or 0) - len(frac) + (len(digits) - k) + k
    s = stripped
    if k <= n <= 21:
        return s + "0" * (n - k)
    if 0 < n <= 21:
        return s[:n] + "." + s[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + s
    e = n - 1
    return s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))


ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
           "\r": "\\r"}


def es_string(s: str) -> str:
    out = []
    for c in s:
        if c in ESCAPES:
            out.append(ESCAPES[c])
        elif ord(c) < 0x20:
            out.append("\\u%04x" % ord(c))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def canonical(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return es_number(float(v))
    if isinstance(v, float):
        return es_number(v)
    if isinstance(v, str):
        return es_string(v)
    if isinstance(v, list):
        return "[" + ",".join(canonical(x) for x in v) + "]"
    keys = sorted(v, key=lambda k: k.encode("utf-16-be"))
    return "{" + ",".join(es_string(k) + ":" + canonical(v[k]) for k in keys) + "}"


def _json_fault(text: str) -> str | None:
    try:
        parse_json(text)
    except SamekeyError as e:
        return e.code
    return None


# §6.1: the strings' conversion, the scheme, then the text; the JSON check stands for
# every code of §6.1's table.
CONTENT_JSON_CHECKS = [
    ("invalid_string(scheme)", lambda s, text: bad_text(s)),
    ("invalid_string(json)", lambda s, text: bad_text(text)),
    ("unknown_scheme", lambda s, text: s not in ("v0", "v1", "v2")),
    ("scheme_not_supported", lambda s, text: s == "v0"),
    ("json", lambda s, text: _json_fault(text)),
]


def content_json(scheme: str, text: str) -> dict:
    run_checks(CONTENT_JSON_CHECKS, scheme, text)
    c = canonical(parse_json(text))
    return {"canonical": c, "hash": content_hash(scheme, c.encode("utf-8"))}


# §7 revision keys -----------------------------------------------------------------------

def _content_scheme(text: str) -> str | None:
    if bad_text(text):
        return None
    try:
        return parse_content_hash(text)[0]
    except SamekeyError:
        return None


def named_scheme(text) -> str | None:
    """The scheme a content hash or revision key text names by its prefix, however its
    digest is written (`blake3:zz` names v2): an implementation that reads the prefix
    before the digest could check the scheme first, so scheme_mismatch and
    scheme_not_accepted fail for it too, and the vectors must show that invalid_key wins."""
    if not isinstance(text, str):
        return None
    if text.startswith("rev:"):
        name = text.split(":")[1]
        return name if name in ("v1", "v2") else None
    return {"sha256": "v1", "blake3": "v2"}.get(text.partition(":")[0])


# §7.3: the conversions and the checks in order, permutable like ULID_CHECKS.
REVISION_CHECKS = [
    ("invalid_string(scheme)", lambda s, p, c, k: bad_text(s)),
    ("invalid_string(parent)", lambda s, p, c, k: bad_text(p)),
    ("invalid_string(content_hash)", lambda s, p, c, k: bad_text(c)),
    ("unknown_scheme", lambda s, p, c, k: s not in ("v0", "v1", "v2")),
    ("invalid_key", lambda s, p, c, k: _content_scheme(c) is None),
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


# §8 timestamps ----------------------------------------------------------------------

RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))",
    re.ASCII)


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


def _parse_rfc3339(text: str) -> int:
    m = RFC3339.fullmatch(text)
    if not m:
        raise SamekeyError("invalid_timestamp")
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    frac, zulu, sign, oh, om = m.group(7), m.group(8), m.group(9), m.group(10), m.group(11)
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    month_days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= mo <= 12 and 1 <= d <= month_days[mo - 1] and h <= 23 and mi <= 59
            and s <= 59):
        raise SamekeyError("invalid_timestamp")
    offset = 0
    if not zulu:
        if int(oh) > 23 or int(om) > 59:
            raise SamekeyError("invalid_timestamp")
        offset = (int(oh) * 60 + int(om)) * (1 if sign == "+" else -1)
    if y == 0:
        raise SamekeyError("timestamp_out_of_range")  # long before 1970 whatever the offset
    seconds = calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) - offset * 60
    ms = seconds * 1000 + int((frac or "0")[:3].ljust(3, "0"))
    if not 0 <= ms <= MAX_MS:
        raise SamekeyError("timestamp_out_of_range")
    return ms


# §9 key ring and guards --------------------------------------------------------------

ORDER = {"v2": 0, "v1": 1, "v0": 2}  # newest first


def ring_fault(accepted: list[str]) -> str | None:
    """§9.1: a ring's own error, checked when it is made: its names' conversion, then
    each name, then a list that names no primary."""
    if bad_text(accepted):
        return "invalid_string"
    if any(name not in ORDER for name in accepted) or not accepted:
        return "unknown_scheme"
    return None


def key_ring(accepted: list[str]) -> list[str]:
    """§9.1: the accepted list checked and ordered: primary, then newest to oldest."""
    fault = ring_fault(accepted)
    if fault:
        raise SamekeyError(fault)
    primary = accepted[0]
    others = sorted(set(accepted) - {primary}, key=ORDER.__getitem__)
    return [primary] + others


def bad_ring(accepted) -> bool:
    """A ring's unknown_scheme (§9.1), on its own: a name that is no scheme, or no name."""
    return not accepted or any(name not in ORDER for name in accepted)


def primary(accepted) -> str | None:
    return accepted[0] if accepted else None


# §9.1, §9.2: the ring (its names' conversion, then its names), the host conversions
# (each string, then the time), then the primary's checks of §4.4 (its name is a scheme
# once the ring is made, so unknown_scheme is the ring's).
CANDIDATES_CHECKS = [
    ("invalid_string(accepted)", lambda a, t, ns, f, k: bad_text(a)),
    ("unknown_scheme(accepted)", lambda a, t, ns, f, k: bad_ring(a)),
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
    ("invalid_string(accepted)", lambda a, i, t, ns, f, k: bad_text(a)),
    ("unknown_scheme(accepted)", lambda a, i, t, ns, f, k: bad_ring(a)),
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
    ("invalid_string(accepted)", lambda a, p, c, k: bad_text(a)),
    ("unknown_scheme(accepted)", lambda a, p, c, k: bad_ring(a)),
    ("invalid_string(parent)", lambda a, p, c, k: bad_text(p)),
    ("invalid_string(content_hash)", lambda a, p, c, k: bad_text(c)),
    ("invalid_key", lambda a, p, c, k: _content_scheme(c) is None),
    ("scheme_not_accepted", lambda a, p, c, k: _not_accepted(a, c)),
    ("empty_secret", lambda a, p, c, k: empty(k)),
    ("empty_parent", lambda a, p, c, k: p == ""),
]


def ring_revision(accepted: list[str], parent: str | None, content_hash_text: str,
                  secret: bytes | None) -> dict:
    run_checks(RING_REVISION_CHECKS, accepted, parent, content_hash_text, secret)
    scheme, _ = parse_content_hash(content_hash_text)
    return {"key": revision(scheme, parent, content_hash_text, secret)["key"]}


def _hash_fault(text) -> bool:
    try:
        parse_content_hash(text)
    except SamekeyError:
        return True
    return False


# §9.3: both converted, then both parsed, incoming first (one code, so the order of the
# two parses cannot be seen).
NEEDS_WRITE_CHECKS = [
    ("invalid_string(stored)", lambda stored, incoming: bad_text(stored)),
    ("invalid_string(incoming)", lambda stored, incoming: bad_text(incoming)),
    ("invalid_key(incoming)", lambda stored, incoming: _hash_fault(incoming)),
    ("invalid_key(stored)", lambda stored, incoming: stored is not None and _hash_fault(stored)),
]


def needs_write(stored: str | None, incoming: str) -> bool:
    run_checks(NEEDS_WRITE_CHECKS, stored, incoming)
    return stored is None or parse_content_hash(stored) != parse_content_hash(incoming)


def _parsed_key(text) -> tuple[str, str, bytes] | None:
    """(kind, scheme, digest) of a content hash or revision key text, or None."""
    if bad_text(text):
        return None
    try:
        if text.startswith("rev:"):
            return ("revision",) + parse_revision_key(text)
        return ("content",) + parse_content_hash(text)
    except SamekeyError:
        return None


# §9.1: the ring (when one is given), the text's conversion, its parse, then the ring.
KEY_PARSE_CHECKS = [
    ("invalid_string(accepted)", lambda text, a: a is not None and bad_text(a)),
    ("unknown_scheme(accepted)", lambda text, a: a is not None and bad_ring(a)),
    ("invalid_string(text)", lambda text, a: bad_text(text)),
    ("invalid_key", lambda text, a: _parsed_key(text) is None),
    ("scheme_not_accepted", lambda text, a: a is not None and _not_accepted(a, text)),
]


def key_scheme(text: str, accepted: list[str] | None) -> dict:
    run_checks(KEY_PARSE_CHECKS, text, accepted)
    kind, scheme, digest = _parsed_key(text)
    if kind == "revision":
        canonical_text = f"rev:{scheme}:{digest.hex()}"
    else:
        canonical_text = {"v1": "sha256", "v2": "blake3"}[scheme] + ":" + digest.hex()
    return {"kind": kind, "scheme": scheme, "canonical": canonical_text}
