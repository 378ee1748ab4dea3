#!/usr/bin/env python3
"""The JMH run's results (JSON, -rf json) as the README's table: time per op, each row's
ratio to its group's peer (the `_pureJvm` or `_messageDigest` benchmark of the same
group), and bytes allocated per op (-prof gc's gc.alloc.rate.norm)."""
import json
import sys

rows = json.load(open(sys.argv[1]))
by_name = {r["benchmark"].rsplit(".", 1)[1]: r for r in rows}
print("| benchmark | time / op | x peer | B allocated / op |")
print("|---|---:|---:|---:|")
for name, r in by_name.items():
    group = name.split("_", 1)[0]
    peer = next((p for n, p in by_name.items() if n.split("_", 1)[0] == group and n.split("_", 1)[1] in ("pureJvm", "messageDigest")), None)
    score, unit = r["primaryMetric"]["score"], r["primaryMetric"]["scoreUnit"]
    ratio = "" if peer is None or peer is r else f"{peer['primaryMetric']['score'] / score:.2f}x"
    alloc = r.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score")
    print(f"| {name} | {score:,.0f} {unit.split('/')[0]} | {ratio} | {'' if alloc is None else f'{alloc:,.0f}'} |")
