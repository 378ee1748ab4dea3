"""The faults each ordered check list of the reference tests, and every combination of
them (spec §10.3): check_orders.py runs reordered lists over them, and gen_vectors.py
takes from them a vector for each pair of checks that no hand-written vector orders."""

from __future__ import annotations

import itertools

import samekey_ref as ref

H1 = ref.content_hash("v1", b"x")
H2 = ref.content_hash("v2", b"x")
BAD = "sha256:" + "G" * 64
LONE = "\ud800"


def host(t):
    """A vector's string input as the host's string (spec §10.1): a JSON string, or
    {"utf16": hex code units}, which may hold a lone surrogate that the reference's checks
    refuse (invalid_string, §2.2) in their order. Lists and None pass through."""
    if isinstance(t, dict) and "utf16" in t:
        return bytes.fromhex(t["utf16"]).decode("utf-16-be", errors="surrogatepass")
    if isinstance(t, list):
        return [host(x) for x in t]
    return t


def host_fields(fields) -> list:
    return [bytes.fromhex(f["hex"]) if isinstance(f, dict) and "hex" in f else host(f)
            for f in fields]


def text(t):
    """A host string as a vector writes it: {"utf16": ...} when it is not valid Unicode."""
    if isinstance(t, list):
        return [text(x) for x in t]
    if ref.bad_text(t):
        return {"utf16": t.encode("utf-16-be", errors="surrogatepass").hex()}
    return t


def vector_fields(fields) -> list:
    return [{"hex": f.hex()} if isinstance(f, bytes) else text(f) for f in fields]


def secret(v) -> bytes | None:
    return bytes.fromhex(v["secret_hex"]) if "secret_hex" in v else None


h, hf = host, host_fields
# Each list's arguments from a vector of its op (the inverse of AS_VECTOR).
ARGS = {
    "ULID_CHECKS": lambda v: (h(v["scheme"]), v["timestamp_ms"], h(v["namespace"]),
                              hf(v["fields"]), secret(v)),
    "REVISION_CHECKS": lambda v: (h(v["scheme"]), h(v["parent"]), h(v["content_hash"]),
                                  secret(v)),
    "CONTENT_JSON_CHECKS": lambda v: (h(v["scheme"]), h(v["json"])),
    "CONTENT_CHECKS": lambda v: (h(v["scheme"]),),
    "TIMESTAMP_CHECKS": lambda v: (h(v["rfc3339"]),),
    "ULID_PARSE_CHECKS": lambda v: (h(v["text"]),),
    "CANDIDATES_CHECKS": lambda v: (h(v["accepted"]), v["timestamp_ms"], h(v["namespace"]),
                                    hf(v["fields"]), secret(v)),
    "VERIFY_CHECKS": lambda v: (h(v["accepted"]), h(v["ulid"]), v["timestamp_ms"],
                                h(v["namespace"]), hf(v["fields"]), secret(v)),
    "RING_REVISION_CHECKS": lambda v: (h(v["accepted"]), h(v["parent"]), h(v["content_hash"]),
                                       secret(v)),
    "KEY_PARSE_CHECKS": lambda v: (h(v["text"]), h(v.get("accepted"))),
    "NEEDS_WRITE_CHECKS": lambda v: (h(v["stored"]), h(v["incoming"])),
}

# Each op: its vector's outputs from the reference, on the arguments of its list.
OPS = {
    "ulid": lambda v: ref.derive_ulid(*ARGS["ULID_CHECKS"](v)),
    "verify": lambda v: {"scheme": ref.verify(*ARGS["VERIFY_CHECKS"](v))},
    "candidates": lambda v: {"candidates": ref.candidates(*ARGS["CANDIDATES_CHECKS"](v))},
    "revision": lambda v: ref.revision(*ARGS["REVISION_CHECKS"](v)),
    "ring_revision": lambda v: ref.ring_revision(*ARGS["RING_REVISION_CHECKS"](v)),
    "content_json": lambda v: ref.content_json(*ARGS["CONTENT_JSON_CHECKS"](v)),
    "content": lambda v: {"hash": ref.content_hash(*ARGS["CONTENT_CHECKS"](v),
                                                   bytes.fromhex(v["data_hex"]))},
    "timestamp": lambda v: {"timestamp_ms": ref.parse_timestamp(*ARGS["TIMESTAMP_CHECKS"](v))},
    "ulid_parse": lambda v: ulid_parsed(ref.parse_ulid(*ARGS["ULID_PARSE_CHECKS"](v))),
    "key_parse": lambda v: ref.key_scheme(*ARGS["KEY_PARSE_CHECKS"](v)),
    "needs_write": lambda v: {"needs_write": ref.needs_write(*ARGS["NEEDS_WRITE_CHECKS"](v))},
}


def ulid_parsed(raw: bytes) -> dict:
    return {"ulid": ref.crockford(raw), "uuid": ref.uuid_text(raw),
            "timestamp_ms": int.from_bytes(raw[:6], "big")}


def with_secret(inputs: dict, k) -> dict:
    if k is not None:
        inputs["secret_hex"] = k.hex()
    return inputs


# Each list's input as a vector's inputs.
AS_VECTOR = {
    "ULID_CHECKS": lambda s, t, ns, f, k: with_secret(
        {"scheme": text(s), "namespace": text(ns), "timestamp_ms": t,
         "fields": vector_fields(f)}, k),
    "REVISION_CHECKS": lambda s, p, c, k: with_secret(
        {"scheme": text(s), "parent": text(p), "content_hash": text(c)}, k),
    "CONTENT_JSON_CHECKS": lambda s, j: {"scheme": text(s), "json": text(j)},
    "CONTENT_CHECKS": lambda s: {"scheme": text(s), "data_hex": ""},
    "TIMESTAMP_CHECKS": lambda t: {"rfc3339": text(t)},
    "ULID_PARSE_CHECKS": lambda t: {"text": text(t)},
    "CANDIDATES_CHECKS": lambda a, t, ns, f, k: with_secret(
        {"accepted": text(a), "namespace": text(ns), "timestamp_ms": t,
         "fields": vector_fields(f)}, k),
    "VERIFY_CHECKS": lambda a, i, t, ns, f, k: with_secret(
        {"accepted": text(a), "ulid": text(i), "namespace": text(ns), "timestamp_ms": t,
         "fields": vector_fields(f)}, k),
    "RING_REVISION_CHECKS": lambda a, p, c, k: with_secret(
        {"accepted": text(a), "parent": text(p), "content_hash": text(c)}, k),
    "KEY_PARSE_CHECKS": lambda t, a: {"text": text(t)} | ({} if a is None else {"accepted": text(a)}),
    "NEEDS_WRITE_CHECKS": lambda s, i: {"stored": text(s), "incoming": text(i)},
}


def pairs(name: str, args) -> set[tuple[str, str]]:
    """The pairs (reported, also failed) of checks that one input shows in their order:
    the first check it fails in the spec's order, and each later check it fails too."""
    checks = getattr(ref, name)
    failed = [check for check, test in checks if test(*args)]
    return {(failed[0], later) for later in failed[1:]} if failed else set()


def outcome(fn, *args):
    try:
        return fn(*args)
    except ref.SamekeyError as e:
        return {"error": e.code}


def fault_count(name: str, args) -> int:
    """How many of the list's checks an input fails, each alone."""
    return sum(1 for _, failed in getattr(ref, name) if failed(*args))
V1_ID = ref.derive_ulid("v1", 0, "", [b"a"], None)["ulid"]
SCHEMES = ("v0", "v1", "v2", "v9", LONE)
# Each name of a ring is checked on its own (spec 1.4): later names that are not text or
# no scheme, beside a first name that is fine, that is not, and that is not text.
RINGS = (["v1"], ["v2", "v1", "v0"], ["v0"], ["v0", "v1"], ["v2"], [], ["v9"], ["v1", LONE],
         ["v1", "v9"], ["v0", "v9"], ["v9", LONE], [LONE, "v9"], [LONE, "v1"])
TIMES = (0, -1, 2**48, 1.5, -1.5)
NAMESPACES = ("", "ns", LONE)
FIELDS = ([b"a"], [], ["a", LONE])
SECRETS = (None, b"", b"k")
PARENTS = (None, "", "p", LONE)
# JSON texts with one JSON fault each (§6.1 leaves the order of two open), each also with
# a lone surrogate in a string (not text: the conversion comes first, §2.2).
JSON_TEXTS = ("{}", "{", '{"a":1,"a":2}', "1e400", "[" * 129 + "]" * 129, '"' + LONE + '"',
              '"' + LONE, '{"a":"' + LONE + '","a":1}', '["' + LONE + '",1e400]',
              "[" * 129 + '"' + LONE + '"' + "]" * 129)
# Malformed hashes that name a scheme by their prefix (BAD v1, `blake3:zz` v2), so that a
# scheme check made before the digest's parse shows.
HASHES = (H1, H2, BAD, "blake3:zz", LONE, "blake3:" + LONE)

# Every combination of the faults each check list tests, to tell a harmless reordering
# (checks that never fail together) from one the vectors miss. Verify's id parse is in the
# host's order among the conversions (§9.2): its domain gives an id that converts but
# does not parse only with otherwise convertible inputs (a lone surrogate in the id is its
# conversion's fault, which comes before the time like every string's).
# name: (run one input, the inputs, the ops whose vectors test the list).
DOMAINS = {
    "ULID_CHECKS": (
        lambda a: ref.derive_ulid(*a),
        list(itertools.product(SCHEMES, TIMES, NAMESPACES, FIELDS, SECRETS)),
        ("ulid",),
    ),
    "REVISION_CHECKS": (
        lambda a: ref.revision(*a),
        list(itertools.product(SCHEMES, PARENTS, HASHES, (None, b""))),
        ("revision",),
    ),
    "CONTENT_JSON_CHECKS": (
        lambda a: ref.content_json(*a),
        list(itertools.product(SCHEMES, JSON_TEXTS)),
        ("content_json",),
    ),
    "CANDIDATES_CHECKS": (
        lambda a: ref.candidates(*a),
        list(itertools.product(RINGS, TIMES, NAMESPACES, FIELDS, SECRETS)),
        ("candidates",),
    ),
    "VERIFY_CHECKS": (
        lambda a: ref.verify(*a),
        [(r, i, t, ns, f, k)
         for r, i, t, ns, f, k in itertools.product(RINGS, (V1_ID, "bad", LONE), TIMES,
                                                    NAMESPACES, FIELDS, SECRETS)
         if i != "bad" or not (ref.bad_text(ns, f) or not ref.is_time(t))],
        ("verify",),
    ),
    "RING_REVISION_CHECKS": (
        lambda a: ref.ring_revision(*a),
        list(itertools.product(RINGS, PARENTS, HASHES, (None, b""))),
        ("ring_revision",),
    ),
    "KEY_PARSE_CHECKS": (
        lambda a: ref.key_scheme(*a),
        list(itertools.product((H1, H2, "rev:v1:" + "0" * 64, "bad", LONE, "rev:v2:zz",
                                "rev:v2:" + LONE), (None,) + RINGS)),
        ("key_parse",),
    ),
    "CONTENT_CHECKS": (
        lambda a: ref.content_hash(a[0], b""),
        [(s,) for s in SCHEMES],
        ("content",),
    ),
    "TIMESTAMP_CHECKS": (
        lambda a: ref.parse_timestamp(*a),
        [(t,) for t in ("2024-05-01T00:00:00Z", "1969-12-31T23:59:59Z", "bad", LONE)],
        ("timestamp",),
    ),
    "ULID_PARSE_CHECKS": (
        lambda a: ref.parse_ulid(*a),
        [(t,) for t in (V1_ID, "bad", LONE, "0" * 25 + LONE)],
        ("ulid_parse",),
    ),
    "NEEDS_WRITE_CHECKS": (
        lambda a: ref.needs_write(*a),
        list(itertools.product((None, H1, H2, "bad", LONE), (H1, H2, "bad", LONE))),
        ("needs_write",),
    ),
}




def reorderings(order: list) -> list[list]:
    """Every permutation of a short list. Of a long one (12! orders would take days), every
    pair of checks exchanged three ways: swapped in place, the later one moved just before
    the earlier, and the earlier one moved just after the later (the checks between them
    stay on either side), so that an implementation that moves one check, of any kind,
    past any other is caught; and every permutation of its last six checks (the checks
    after the host conversions)."""
    if len(order) <= 6:
        return [list(p) for p in itertools.permutations(order) if list(p) != order]
    head, tail = order[:-6], order[-6:]
    out = []
    for moved in pair_moves(order) + [head + list(p) for p in itertools.permutations(tail)]:
        if moved != order and moved not in out:
            out.append(moved)
    return out


def pair_moves(order: list) -> list[list]:
    """For each pair of checks, the three orders that put the later one first."""
    out = []
    for i, j in itertools.combinations(range(len(order)), 2):
        swapped = order[:]
        swapped[i], swapped[j] = order[j], order[i]
        out.append(swapped)
        out.append(order[:i] + [order[j]] + order[i:j] + order[j + 1:])
        out.append(order[:i] + order[i + 1:j + 1] + [order[i]] + order[j + 1:])
    return out


def first_failing(name: str, args) -> str | None:
    """The name of the first check of the list `name` (as it is now) that `args` fails."""
    return next((check for check, failed in getattr(ref, name) if failed(*args)), None)
