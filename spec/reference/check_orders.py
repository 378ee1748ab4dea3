"""Shows that the vectors pin the order of every check (spec §4.4, §6.1, §7.3, §10.3).

    python3 spec/reference/check_orders.py [VECTOR_FILE]

For each ordered check list of the reference (ULID_CHECKS, REVISION_CHECKS,
CONTENT_JSON_CHECKS) it runs every permutation. A permutation that gives another answer
for some vector is caught. One that no vector catches must behave exactly as the spec's
order on every combination of faults (such as swapping two checks that can never fail
together, `unknown_scheme` and the v0-only `secret_not_supported`); otherwise the
vectors miss an order, and this script fails naming the permutation and an input.
"""

from __future__ import annotations

import itertools
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import samekey_ref as ref  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
H1 = ref.content_hash("v1", b"x")
H2 = ref.content_hash("v2", b"x")


def text(t) -> str:
    if isinstance(t, dict):
        t = bytes.fromhex(t["utf16"]).decode("utf-16-be", errors="surrogatepass")
    return ref.check_text(t)


def fields(v) -> list[bytes]:
    return [bytes.fromhex(f["hex"]) if isinstance(f, dict) and "hex" in f
            else text(f).encode() for f in v["fields"]]


def parent(v) -> str | None:
    return None if v["parent"] is None else text(v["parent"])


def secret(v) -> bytes | None:
    return bytes.fromhex(v["secret_hex"]) if "secret_hex" in v else None


OPS = {
    "ulid": lambda v: ref.derive_ulid(v["scheme"], v["timestamp_ms"], text(v["namespace"]),
                                      fields(v), secret(v)),
    "verify": lambda v: {"scheme": ref.verify(v["accepted"], v["ulid"], v["timestamp_ms"],
                                              text(v["namespace"]), fields(v), secret(v))},
    "candidates": lambda v: {"candidates": ref.candidates(
        v["accepted"], v["timestamp_ms"], text(v["namespace"]), fields(v), secret(v))},
    "revision": lambda v: ref.revision(v["scheme"], parent(v), v["content_hash"], secret(v)),
    "ring_revision": lambda v: ref.ring_revision(v["accepted"], parent(v),
                                                 v["content_hash"], secret(v)),
    "content_json": lambda v: ref.content_json(v["scheme"], v["json"]),
}


def outcome(fn, *args):
    try:
        return fn(*args)
    except ref.SamekeyError as e:
        return {"error": e.code}


# Every combination of the faults each check list tests, to tell a harmless permutation
# (checks that never fail together) from one the vectors miss.
DOMAINS = {
    "ULID_CHECKS": (
        lambda a: ref.derive_ulid(*a),
        list(itertools.product(("v0", "v1", "v2", "v9"), (0, -1, 2**48), ("", "ns"),
                               ([b"a"], []), (None, b"", b"k"))),
        ("ulid", "verify", "candidates"),
    ),
    "REVISION_CHECKS": (
        lambda a: ref.revision(*a),
        list(itertools.product(("v0", "v1", "v2", "v7"), (None, "", "p"),
                               (H1, H2, "sha256:" + "G" * 64), (None, b""))),
        ("revision", "ring_revision"),
    ),
    "CONTENT_JSON_CHECKS": (
        lambda a: ref.content_json(*a),
        list(itertools.product(("v0", "v1", "v9"), ("{}", "{", '{"a":1,"a":2}', "1e400",
                                                     "[" * 129 + "]" * 129))),
        ("content_json",),
    ),
}


def main() -> int:
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "test-vectors" / "samekey.json"
    vectors = json.loads(path.read_text(encoding="utf-8"))["vectors"]
    failed = False
    for name, (run, domain, ops) in DOMAINS.items():
        spec_order = getattr(ref, name)
        baseline = [outcome(run, a) for a in domain]
        relevant = [v for v in vectors if v["op"] in ops]
        caught = harmless = 0
        for perm in itertools.permutations(spec_order):
            if list(perm) == spec_order:
                continue
            setattr(ref, name, list(perm))
            try:
                if any(outcome(OPS[v["op"]], v) != v["expect"] for v in relevant):
                    caught += 1
                    continue
                differs = next((a for a, want in zip(domain, baseline)
                                if outcome(run, a) != want), None)
            finally:
                setattr(ref, name, spec_order)
            if differs is None:
                harmless += 1
            else:
                failed = True
                order = " < ".join(code for code, _ in perm)
                print(f"{name}: no vector catches the order {order} (differs on {differs!r})",
                      file=sys.stderr)
        print(f"{name}: {caught} permutations caught by a vector, {harmless} equivalent "
              f"to the spec's order on every combination of faults")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
