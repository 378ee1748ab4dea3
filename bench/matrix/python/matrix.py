"""Python's column of `just bench-matrix`: every operation through the samekey package's
public API, timed the way every runner times (bench/matrix/protocol.md)."""

import json
import os
import sys
import time

import samekey

cases = json.load(open(os.environ["SAMEKEY_MATRIX_CASES"], encoding="utf-8"))
ms, namespace, fields = cases["time_ms"], cases["namespace"], cases["fields"]
small = cases["small"].encode()
large = bytes((i * 131) & 255 for i in range(cases["large_bytes"]))
json_text, parent, rfc3339, ulid_text = cases["json"], cases["parent"], cases["rfc3339"], cases["ulid"]

deriver = samekey.UlidDeriver("v1", namespace)
ring = samekey.KeyRing.from_accept(cases["ring"])
stored = samekey.content_hash(small)
incoming = samekey.content_hash_json_text(json_text)
old = samekey.derive_ulid(fields, time_ms=ms, namespace=namespace)
ulid = samekey.Ulid.parse(ulid_text)

ops = {
    "crossing": lambda: ulid.timestamp_ms,
    "ulid": lambda: samekey.derive_ulid(fields, time_ms=ms, namespace=namespace),
    "ulid_v2": lambda: samekey.derive_ulid(fields, time_ms=ms, namespace=namespace, scheme="v2"),
    "ulid_prepared": lambda: deriver.derive(fields, time_ms=ms),
    "ulid_parse": lambda: samekey.Ulid.parse(ulid_text),
    "ulid_text": lambda: str(ulid),
    "ulid_bytes": lambda: bytes(ulid),
    "hash_40": lambda: samekey.content_hash(small),
    "hash_1m": lambda: samekey.content_hash(large),
    "content_json": lambda: samekey.content_hash_json_text(json_text),
    "canonical_json": lambda: samekey.canonical_json_text(json_text),
    "revision_key": lambda: samekey.revision_key(stored, parent=parent),
    "key_parse": lambda: samekey.parse_key(stored),
    "ring_verify": lambda: ring.verify_ulid(old, fields, time_ms=ms, namespace=namespace),
    "ring_candidates": lambda: ring.candidate_ulids(fields, time_ms=ms, namespace=namespace),
    "needs_write": lambda: samekey.needs_write(stored, incoming),
    "rfc3339": lambda: samekey.parse_rfc3339(rfc3339),
}


def per_call(op, budget_ns):
    n = 1
    while True:
        start = time.perf_counter_ns()
        for _ in range(n):
            op()
        took = time.perf_counter_ns() - start
        if took >= budget_ns:
            return took / n
        n *= 2


for line in sys.stdin:
    budget = int(line) * 1_000_000
    print(json.dumps({name: round(per_call(op, budget), 1) for name, op in ops.items()}), flush=True)
