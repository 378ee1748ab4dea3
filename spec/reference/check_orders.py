"""Shows that the vectors pin the order of every check (spec §10.3).

    python3 spec/reference/check_orders.py [VECTOR_FILE]

For each ordered check list of the reference (one per op with ordered checks: ulid,
revision, content_json, candidates, verify, ring_revision, key_parse, needs_write) it
runs reordered lists: every permutation of a list of up to 6 checks, and for longer
lists every move of one check to just before an earlier one (each pair of checks
swapped in effect). A reordering that gives another answer for some vector is caught.
One that no vector catches must behave exactly as the spec's order on every combination
of faults (such as swapping two checks that can never fail together, `unknown_scheme` and
the v0-only `secret_not_supported`); otherwise the vectors miss an order, and this
script fails naming the order and an input.
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import samekey_ref as ref  # noqa: E402
from fault_domains import DOMAINS, OPS, outcome, reorderings  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> int:
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "test-vectors" / "samekey.json"
    vectors = json.loads(path.read_text(encoding="utf-8"))["vectors"]
    failed = False
    for name, (run, domain, ops) in DOMAINS.items():
        spec_order = getattr(ref, name)
        baseline = [outcome(run, a) for a in domain]
        relevant = [v for v in vectors if v["op"] in ops]
        caught = harmless = 0
        for order in reorderings(spec_order):
            setattr(ref, name, order)
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
                print(f"{name}: no vector catches the order "
                      f"{' < '.join(code for code, _ in order)} (differs on {differs!r})",
                      file=sys.stderr)
        print(f"{name}: {caught} orders caught by a vector, {harmless} equivalent "
              f"to the spec's order on every combination of faults")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
