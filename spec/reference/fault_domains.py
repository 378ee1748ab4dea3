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
# Each op with ordered checks: its vector's outputs from the reference.
OPS = {
    "ulid": lambda v: ref.derive_ulid(h(v["scheme"]), v["timestamp_ms"], h(v["namespace"]),
                                      hf(v["fields"]), secret(v)),
    "verify": lambda v: {"scheme": ref.verify(h(v["accepted"]), h(v["ulid"]), v["timestamp_ms"],
                                              h(v["namespace"]), hf(v["fields"]), secret(v))},
    "candidates": lambda v: {"candidates": ref.candidates(
        h(v["accepted"]), v["timestamp_ms"], h(v["namespace"]), hf(v["fields"]), secret(v))},
    "revision": lambda v: ref.revision(h(v["scheme"]), h(v["parent"]), h(v["content_hash"]),
                                       secret(v)),
    "ring_revision": lambda v: ref.ring_revision(h(v["accepted"]), h(v["parent"]),
                                                 h(v["content_hash"]), secret(v)),
    "content_json": lambda v: ref.content_json(h(v["scheme"]), h(v["json"])),
    "key_parse": lambda v: ref.key_scheme(h(v["text"]), h(v.get("accepted"))),
    "needs_write": lambda v: {"needs_write": ref.needs_write(h(v["stored"]), h(v["incoming"]))},
}


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
RINGS = (["v1"], ["v2", "v1", "v0"], ["v0"], ["v0", "v1"], ["v2"], [], ["v9"], ["v1", LONE])
TIMES = (0, -1, 2**48, 1.5)
NAMESPACES = ("", "ns", LONE)
FIELDS = ([b"a"], [], ["a", LONE])
SECRETS = (None, b"", b"k")
PARENTS = (None, "", "p", LONE)
HASHES = (H1, H2, BAD, LONE)

# Every combination of the faults each check list tests, to tell a harmless reordering
# (checks that never fail together) from one the vectors miss. Verify's id is a host
# conversion whose order among the others is the host's (§9.2): its domain gives a bad
# id only with otherwise convertible inputs.
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
        list(itertools.product(SCHEMES, ("{}", "{", '{"a":1,"a":2}', "1e400",
                                         "[" * 129 + "]" * 129, '"' + LONE + '"'))),
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
         if i == V1_ID or not (ref.bad_text(ns, f) or t == 1.5)],
        ("verify",),
    ),
    "RING_REVISION_CHECKS": (
        lambda a: ref.ring_revision(*a),
        list(itertools.product(RINGS, PARENTS, HASHES, (None, b""))),
        ("ring_revision",),
    ),
    "KEY_PARSE_CHECKS": (
        lambda a: ref.key_scheme(*a),
        list(itertools.product((H1, H2, "rev:v1:" + "0" * 64, "bad", LONE), (None,) + RINGS)),
        ("key_parse",),
    ),
    "NEEDS_WRITE_CHECKS": (
        lambda a: ref.needs_write(*a),
        list(itertools.product((None, H1, H2, "bad", LONE), (H1, H2, "bad", LONE))),
        ("needs_write",),
    ),
}




def reorderings(order: list) -> list[list]:
    """Every permutation of a short list. Of a long one (8! orders would take minutes), every
    move of a check to just before an earlier one, which swaps each pair of checks, and
    every permutation of its last six checks (the checks after the host conversions)."""
    if len(order) <= 6:
        return [list(p) for p in itertools.permutations(order) if list(p) != order]
    head, tail = order[:-6], order[-6:]
    out = pair_moves(order)
    out += [x for x in (head + list(p) for p in itertools.permutations(tail))
            if x != order and x not in out]
    return out


def pair_moves(order: list) -> list[list]:
    """For each pair of checks, the order with the later one moved just before the other."""
    out = []
    for i, j in itertools.combinations(range(len(order)), 2):
        out.append(order[:i] + [order[j]] + order[i:j] + order[j + 1:])
    return out
