"""The vectors that pin the order of checks (spec §10.3), generated from the fault
domains: for each pair of checks no case shows, and each reordering no case catches, the
input of fewest faults."""

from __future__ import annotations

import fault_domains as fd
import samekey_ref as ref
from vector_builders import add, vectors


def vector_id(kind: str, op: str, earlier: str, later: str) -> str:
    """`pair-ulid-invalid-string-namespace-before-invalid-timestamp`, from check names (a
    ring's `accepted[0]` is its first name, `accepted[1:]` its later ones)."""
    name = f"{kind}-{op}-{earlier}-before-{later}"
    name = name.replace("[0]", " first").replace("[1:]", " later")
    return name.replace("_", "-").replace("(", "-").replace(")", "").replace(" ", "-")


def add_order_cases() -> None:
    """Appends a vector for every pair and reordering the cases so far leave open."""
    # --- every pair of ordered checks --------------------------------------------------
    # For each two checks of an op that one input can fail together, a vector that fails
    # both (spec §10.3). The hand-written cases above show most pairs; for each pair they do
    # not, the input of fewest faults that fails both becomes a vector (pair-...).
    for list_name, (run, domain, ops) in fd.DOMAINS.items():
        op = ops[0]
        shown = set().union(*(fd.pairs(list_name, fd.ARGS[list_name](v))
                              for v in vectors if v["op"] == op))
        for args in sorted(domain, key=lambda a: fd.fault_count(list_name, a)):
            missing = sorted(fd.pairs(list_name, args) - shown)
            if not missing:
                continue
            earlier, later = missing[0]
            vid = vector_id("pair", op, earlier, later)
            inputs = fd.AS_VECTOR[list_name](*args)
            add(vid, op, inputs, fd.outcome(fd.OPS[op], inputs))
            shown |= fd.pairs(list_name, args)

    # Then each reordering of a list that no vector catches yet (check_orders.py's second
    # proof): the input of fewest faults that tells the orders apart (order-...).
    for list_name, (run, domain, ops) in fd.DOMAINS.items():
        spec_order = getattr(ref, list_name)
        op = ops[0]
        by_faults = sorted(domain, key=lambda a: fd.fault_count(list_name, a))
        baseline = [fd.outcome(run, a) for a in by_faults]
        for moved in fd.reorderings(spec_order):
            setattr(ref, list_name, moved)
            try:
                if any(fd.outcome(fd.OPS[op], v) != v["expect"] for v in vectors if v["op"] == op):
                    continue
                differs = next((a for a, want in zip(by_faults, baseline)
                                if fd.outcome(run, a) != want), None)
            finally:
                setattr(ref, list_name, spec_order)
            if differs is None:
                continue
            # Named for the two checks that tell the orders apart on this input.
            earlier = fd.first_failing(list_name, differs)
            setattr(ref, list_name, moved)
            later = fd.first_failing(list_name, differs)
            setattr(ref, list_name, spec_order)
            inputs = fd.AS_VECTOR[list_name](*differs)
            vid = vector_id("order", op, earlier, later)
            n = 2
            while any(v["id"] == vid for v in vectors):
                vid, n = f"{vid.rsplit('~', 1)[0]}~{n}", n + 1
            add(vid, op, inputs, fd.outcome(fd.OPS[op], inputs))
