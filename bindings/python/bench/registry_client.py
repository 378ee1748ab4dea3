"""samekey.registry against bare httpx on the same kept-alive connection, interleaved
rounds, medians: a small JSON registration (the client canonicalises, hashes, derives
and checks the key; the bare POST sends the same bytes), and a large file of new data
(each run stores it), streamed: hashed while sent (``skip_upload_above=None``), and
hashed, looked up, then sent (the default above 1 MiB); the bare POST streams the file
once. Each upload runs in a child process whose peak RSS is printed.

    python registry_client.py URL [--rounds 9] [--small 2000] [--file-mib 256]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx

from samekey.registry import Registry


def small(url: str, n: int, rounds: int) -> tuple[float, float]:
    value = {"title": "Hello", "tags": ["a", "b"], "n": 3}
    body = json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
    bare_times, client_times = [], []
    with httpx.Client() as bare, Registry(url) as client:
        client.register(value)
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(n):
                r = bare.post(url + "/v1/revisions", content=body, headers={"content-type": "application/json"})
                r.raise_for_status()
            bare_times.append((time.perf_counter() - start) / n)
            start = time.perf_counter()
            for _ in range(n):
                client.register(value)
            client_times.append((time.perf_counter() - start) / n)
    return statistics.median(bare_times), statistics.median(client_times)


CHILD = """
import resource, sys, time, httpx
from samekey.registry import Registry
url, path, way = sys.argv[1:4]
start = time.perf_counter()
if way in ("client", "lookup"):
    with Registry(url, timeout=600, skip_upload_above=None if way == "client" else 1 << 20) as c:
        c.register_file(path)
else:
    def chunks():
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                yield chunk
    import os
    headers = {"content-type": "application/octet-stream", "content-length": str(os.path.getsize(path))}
    httpx.post(url + "/v1/revisions", content=chunks(), headers=headers, timeout=600).raise_for_status()
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10)
"""


def large(url: str, mib: int, rounds: int) -> dict[str, tuple[float, int]]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.bin")
        with open(path, "wb") as f:
            block = os.urandom(1 << 20)
            for i in range(mib):
                f.write(block[:-8] + i.to_bytes(8, "big"))
        runs: dict[str, list[tuple[float, int]]] = {"bare": [], "client": [], "lookup": []}
        for _ in range(rounds):
            for way in ("bare", "client", "lookup"):
                # New data each run: every run stores it (and the lookup finds nothing).
                with open(path, "r+b") as f:
                    f.write(os.urandom(16))
                out = subprocess.run([sys.executable, "-c", CHILD, url, path, way], capture_output=True, text=True, check=True)
                seconds, rss = out.stdout.split()
                runs[way].append((float(seconds), int(rss)))
        return {way: (statistics.median(s for s, _ in r), max(m for _, m in r)) for way, r in runs.items()}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("url")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--small", type=int, default=2000)
    p.add_argument("--file-mib", type=int, default=256)
    a = p.parse_args()
    bare, client = small(a.url, a.small, a.rounds)
    big = large(a.url, a.file_mib, max(3, a.rounds // 3))
    mib = a.file_mib
    print(f"| Python (httpx {httpx.__version__}) | bare | samekey.registry | ratio (bare / client) |")
    print("|---|---:|---:|---:|")
    print(f"| small JSON registration, kept-alive, median of {a.rounds} rounds of {a.small} | {bare * 1e6:.0f} µs | {client * 1e6:.0f} µs | {bare / client:.2f}x |")
    b, c, k = big["bare"], big["client"], big["lookup"]
    print(f"| {mib} MiB file, hashed while sent (`skip_upload_above=None`; peak RSS: bare {b[1]} MiB, client {c[1]} MiB) | {mib / b[0]:.0f} MiB/s | {mib / c[0]:.0f} MiB/s | {b[0] / c[0]:.2f}x |")
    print(f"| {mib} MiB, hashed, looked up (not there), then sent (the default; peak RSS {k[1]} MiB) | {mib / b[0]:.0f} MiB/s | {mib / k[0]:.0f} MiB/s | {b[0] / k[0]:.2f}x |")


if __name__ == "__main__":
    main()
