#!/usr/bin/env python3
"""`just swift::bench`: the Swift API per id next to the core's own C calls (in the Swift
process) and Go's cgo path (`BenchmarkDeriveULID`, which also formats the text), rounds
interleaved: each round runs the Swift harness once, then Go's benchmark once; the table
shows medians of the rounds and the allocations per id the harness counted.

    bindings/swift/bench/table.py [ROUNDS]
"""
from __future__ import annotations

import pathlib
import re
import statistics
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[3]
BENCH = REPO / "bindings" / "swift" / "bench"
FLOOR = "C ABI: samekey_derive, request packed beforehand"
CONTENT_FLOOR = "C ABI: samekey_content_hash of 1 MiB (per MiB)"
TEXT = "UlidDeriver.derive, then its text"
BATCH_FLOOR = "C ABI: samekey_deriver_derive_many of 10,000, packed beforehand"
GO = "Go: DeriveULID, then its text (cgo, the same core)"


def swift_round() -> dict[str, tuple[float, str]]:
    out = subprocess.run(
        [str(REPO / "bindings/swift/scripts/in-swift.sh"), str(BENCH), "env",
         f"LD_PRELOAD={BENCH}/.build/count_malloc.so", ".build/release/SamekeyBench", "3"],
        check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.strip().splitlines():
        name, ns, allocations = line.split("\t")
        rows[name] = (float(ns), allocations)
    return rows


def go_round() -> float:
    out = subprocess.run(
        [str(REPO / "bindings/go/scripts/go.sh"), "test", "-count=1", "-run", "^$", "-bench", "^BenchmarkDeriveULID$",
         "-benchtime", "300000x", "."], check=True, capture_output=True, text=True, cwd=REPO / "bindings/go").stdout
    match = re.search(r"BenchmarkDeriveULID\S*\s+\d+\s+([\d.]+) ns/op", out)
    if not match:
        sys.exit(f"swift::bench: no Go benchmark line in:\n{out}")
    return float(match[1])


def main(rounds: int) -> int:
    samples: dict[str, list[float]] = {}
    allocations: dict[str, str] = {}
    for _ in range(rounds):
        for name, (ns, allocated) in swift_round().items():
            samples.setdefault(name, []).append(ns)
            allocations[name] = allocated
        samples.setdefault(GO, []).append(go_round())
    median = {name: statistics.median(values) for name, values in samples.items()}
    print(f"{rounds} rounds, each the Swift harness then Go's benchmark; medians")
    print()
    print("| case | ns per id | vs the same C call | allocations per id |")
    print("|---|---:|---:|---:|")
    for name, ns in median.items():
        if name == GO:
            versus = f"Swift's text path {median[TEXT] / ns:.2f}x Go's"
        elif "1 MiB" in name:
            versus = f"{ns / median[CONTENT_FLOOR]:.2f}x"
        elif "10,000" in name:
            versus = f"{ns / median[BATCH_FLOOR]:.2f}x the C batch"
        else:
            versus = f"{ns / median[FLOOR]:.2f}x"
        shown = f"{ns / 1000:.1f} µs per MiB" if "1 MiB" in name else f"{ns:.0f}"
        print(f"| {name} | {shown} | {versus} | {allocations.get(name, 'n/a')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
