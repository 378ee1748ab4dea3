"""Prints criterion's estimates for one benchmark group as a table, with the ratio of
each to the group's floor (the benchmark whose name starts with "floor")."""

import json
import pathlib
import sys


def main(root: str, group: str) -> None:
    rows = []
    for est in sorted(pathlib.Path(root, group).glob("*/new/estimates.json")):
        bench = json.loads(est.with_name("benchmark.json").read_text())
        ns = json.loads(est.read_text())["median"]["point_estimate"]
        rows.append((bench["function_id"], ns))
    floor = next((ns for name, ns in rows if name.startswith("floor")), None)
    print(f"| {group} | median ns | x floor |")
    print("|---|---:|---:|")
    for name, ns in sorted(rows, key=lambda r: r[1]):
        ratio = f"{ns / floor:.2f}" if floor else ""
        print(f"| {name} | {ns:.1f} | {ratio} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
