"""Shows that the vectors pin the order of every check (spec §10.3).

    python3 spec/reference/check_orders.py [VECTOR_FILE]

For each op's ordered check list in the reference (every op has its own; every string
input's conversion is a check of its own) it shows two things:

- pairs: for every two checks that one input of the op can fail together (over every
  combination of faults, fault_domains.py), a vector fails both and expects the one the
  spec puts first, so an implementation that puts the other one first, wherever, fails
  that vector;
- reorderings: every permutation of a list of up to 6 checks, and of a longer list every
  pair of checks exchanged (swapped, or one moved past the other) and every permutation
  of its last six. A reordering that gives another answer for some vector is caught. One
  that no vector catches must behave exactly as the spec's order on every combination of
  faults (such as swapping two checks that never fail together, `unknown_scheme` and the
  v0-only `secret_not_supported`).

Otherwise the vectors miss an order, and this script fails naming it.
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import samekey_ref as ref  # noqa: E402
import fault_domains as fd  # noqa: E402
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
        needed = set().union(*(fd.pairs(name, a) for a in domain))
        shown = set().union(*(fd.pairs(name, fd.ARGS[name](v)) for v in relevant))
        for earlier, later in sorted(needed - shown):
            failed = True
            print(f"{name}: no vector fails both {earlier} and {later} (reporting {earlier})",
                  file=sys.stderr)
        print(f"{name}: {len(needed & shown)} of {len(needed)} pairs of checks that fail "
              f"together shown by a vector; {caught} reorderings caught by a vector, "
              f"{harmless} equivalent to the spec's order on every combination of faults")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
