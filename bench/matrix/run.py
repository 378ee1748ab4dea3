#!/usr/bin/env python3
"""`just bench-matrix`: every binding's runner (bench/matrix/protocol.md) started once,
then rounds in which each runner in turn times every operation for a budget; the
medians as one table of ns per call, each cell's ratio to the Rust core's own call, and
whether it meets the goal (bench/matrix/README.md): at most 3x the core plus one crossing
of the host's boundary (its cheapest call), and under 5 µs for small inputs."""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OPS = [
    ("crossing", "the host's cheapest call (its boundary)"),
    ("ulid", "deriveUlid, one call (v1, 2 fields, a namespace)"),
    ("ulid_v2", "the same under v2 (BLAKE3)"),
    ("ulid_prepared", "a prepared deriver's id"),
    ("ulid_parse", "ULID text to an id"),
    ("ulid_text", "an id to its text"),
    ("ulid_bytes", "an id to its 16 bytes"),
    ("hash_40", "content hash of 40 bytes"),
    ("hash_1m", "content hash of 1 MiB"),
    ("content_json", "content hash of a 34-byte JSON text"),
    ("canonical_json", "canonical JSON of it"),
    ("revision_key", "revision key on a parent"),
    ("key_parse", "a content hash parsed"),
    ("ring_verify", "key ring [v2, v1] verifies a v1 id"),
    ("ring_candidates", "its candidates"),
    ("needs_write", "needs_write of two hashes"),
    ("rfc3339", "an RFC 3339 time parsed"),
]
LARGE = {"hash_1m"}
SMALL_LIMIT_NS = 5000


def runners(build):
    """Each column: its name and the command that serves the protocol."""
    b = build
    return [
        ("core", [f"{b}/core-matrix"]),
        ("C ABI", [f"{b}/c-matrix"]),
        ("Python", [f"{ROOT}/bindings/python/.venv/bin/python", f"{HERE}/python/matrix.py"]),
        ("Node", ["node", f"{HERE}/js/matrix.mjs", f"{ROOT}/bindings/node"]),
        ("WASM (Node)", ["node", f"{HERE}/js/matrix.mjs", f"{ROOT}/bindings/wasm/pkg/node.cjs"]),
        ("Go", [f"{b}/go-matrix"]),
        ("Kotlin", ["java", "-cp", open(f"{b}/jvm.classpath").read().strip(), "io.github.samekey.MatrixRunner"]),
        ("Java", ["java", "-cp", open(f"{b}/jvm.classpath").read().strip(), "io.github.samekey.JavaMatrixRunner"]),
        ("Swift", [f"{ROOT}/bindings/swift/scripts/in-swift.sh", f"{ROOT}/bindings/swift/bench", "env",
                   f"SAMEKEY_MATRIX_CASES={HERE}/cases.json", ".build/release/SamekeyMatrix"]),
    ]


def main():
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--build", default=f"{ROOT}/target/bench-matrix", help="where the runners were built")
    args.add_argument("--rounds", type=int, default=7)
    args.add_argument("--budget-ms", type=int, default=20, help="each operation's time a round")
    args.add_argument("--only", default="", help="comma-separated columns (default: all)")
    opts = args.parse_args()
    env = dict(os.environ, SAMEKEY_MATRIX_CASES=f"{HERE}/cases.json")
    chosen = [r for r in runners(opts.build) if not opts.only or r[0] in opts.only.split(",")]
    procs = {name: subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env) for name, cmd in chosen}
    samples = {name: {} for name in procs}

    def round_of(name):
        proc = procs[name]
        proc.stdin.write(f"{opts.budget_ms}\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if not line:
            sys.exit(f"bench-matrix: the {name} runner ended (exit {proc.wait()})")
        return json.loads(line)

    for name in procs:  # warm-up: JITs compile, caches fill; not counted
        round_of(name)
    names = list(procs)
    for r in range(opts.rounds):
        # Each round starts with another runner, so none always follows the same one.
        for name in names[r % len(names):] + names[: r % len(names)]:
            for op, ns in round_of(name).items():
                samples[name].setdefault(op, []).append(ns)
        print(f"round {r + 1} of {opts.rounds}", file=sys.stderr)
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()
    med = {name: {op: statistics.median(v) for op, v in s.items()} for name, s in samples.items()}
    print_table(med, opts)


def goal(name, op, ns, med):
    """Whether a cell meets the goal; None where the goal does not apply."""
    core = med.get("core", {}).get(op)
    if name == "core" or core is None or op == "crossing":
        return None
    crossing = med[name].get("crossing", 0)
    within = ns <= 3 * core + crossing
    return within and (op in LARGE or ns <= SMALL_LIMIT_NS)


def print_table(med, opts):
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
    print(f"\n{opts.rounds} interleaved rounds, {opts.budget_ms} ms an operation a round, medians; {cpu}, {os.cpu_count()} cores")
    print("ns per call (x the core's own call); * misses the goal: <= 3x core + the column's crossing, < 5 µs for small inputs\n")
    names = list(med)
    print("| operation | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    misses = []
    for op, what in OPS:
        cells = []
        for name in names:
            ns = med[name].get(op)
            if ns is None:
                cells.append("—")
                continue
            core = med.get("core", {}).get(op)
            text = f"{ns / 1000:,.0f} µs" if ns >= 100_000 else f"{ns:,.0f}"
            if core and name != "core":
                text += f" ({ns / core:.1f}x)"
            if goal(name, op, ns, med) is False:
                text += " *"
                misses.append(f"{name} {op}")
            cells.append(text)
        print(f"| {op}: {what} | " + " | ".join(cells) + " |")
    print(f"\nmisses: {', '.join(misses) if misses else 'none'}")
    v2 = [f"{n} {med[n]['ulid_v2'] / med[n]['ulid']:.2f}x" for n in names if med[n].get("ulid") and med[n].get("ulid_v2")]
    print(f"a v2 id's time over a v1 id's (the core's goal: <= 1.2x): {', '.join(v2)}")


if __name__ == "__main__":
    main()
