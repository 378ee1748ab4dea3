"""Per-key cost of samekey's Python binding next to the fastest pure-Python equivalent
(hashlib SHA-256 of the same framed message from a precomputed tag state, plus base32
text through the C-level base64 codec) and uuid.uuid5 as the standard library's
reference. Prints a table; `just bench-python` runs it.
"""

from __future__ import annotations

import base64
import hashlib
import struct
import timeit
import uuid

import samekey

N = 10_000
SLUGS = [f"my-first-post-{i:06d}" for i in range(N)]  # 20 bytes each
LANGS = ["en"] * N
TIMES = [1714564800000 + i for i in range(N)]

_TAG = hashlib.sha256(b"samekey/v1/ulid".ljust(64, b"\0"))
_TO_CROCKFORD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def pure_python(fields: list[bytes], t: int, namespace: bytes = b"") -> str:
    h = _TAG.copy()
    parts = [struct.pack(">I", len(namespace)), namespace, struct.pack(">I", len(fields))]
    for f in fields:
        parts += (struct.pack(">I", len(f)), f)
    h.update(b"".join(parts))
    n = int.from_bytes(t.to_bytes(6, "big") + h.digest()[:10], "big")
    return base64.b32encode((n << 30).to_bytes(20, "big")).decode()[:26].translate(_TO_CROCKFORD)


def main() -> None:
    # The equivalent really is equivalent before it is timed.
    for s, l, t in zip(SLUGS[:100], LANGS, TIMES):
        assert pure_python([s.encode(), l.encode()], t) == str(samekey.derive_ulid([s, l], time=t))

    def run_pure() -> None:
        for s, l, t in zip(SLUGS, LANGS, TIMES):
            pure_python([s.encode(), l.encode()], t)

    def run_single() -> None:
        derive = samekey.derive_ulid
        for s, l, t in zip(SLUGS, LANGS, TIMES):
            str(derive([s, l], time=t))

    deriver = samekey.UlidDeriver()

    def run_prepared() -> None:
        derive = deriver.derive
        for s, l, t in zip(SLUGS, LANGS, TIMES):
            str(derive([s, l], time=t))

    def run_batch() -> None:
        deriver.derive_many(TIMES, SLUGS, LANGS, as_str=True)

    def run_uuid5() -> None:
        for s, l in zip(SLUGS, LANGS):
            str(uuid.uuid5(uuid.NAMESPACE_URL, s + ":" + l))

    rows = [
        ("pure Python (hashlib + base64)", run_pure),
        ("uuid.uuid5 (stdlib reference)", run_uuid5),
        ("samekey.derive_ulid", run_single),
        ("samekey.UlidDeriver.derive", run_prepared),
        ("samekey.UlidDeriver.derive_many", run_batch),
    ]
    best = {name: min(timeit.repeat(fn, number=1, repeat=15)) / N * 1e9 for name, fn in rows}
    floor = best[rows[0][0]]
    print(f"ULID text per key, 20-byte slug + 'en', best of 15 runs of {N} keys")
    print("| implementation | ns per key | speed-up vs pure Python |")
    print("|---|---:|---:|")
    for name, _ in rows:
        print(f"| {name} | {best[name]:.0f} | {floor / best[name]:.1f}x |")


if __name__ == "__main__":
    main()
