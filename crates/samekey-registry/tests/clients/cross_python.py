"""The cross-language test's Python side: registers payloads.json's payloads in order
and prints one key a line (see test_cross.sh)."""

import json
import pathlib
import sys

from samekey.registry import Registry

payloads = json.loads((pathlib.Path(__file__).parent / "payloads.json").read_text())["payloads"]
with Registry(sys.argv[1]) as registry:
    for p in payloads:
        if "json" in p:
            rev = registry.register_json(p["json"])
        elif "value" in p:
            rev = registry.register(json.loads(p["value"]))
        else:
            rev = registry.register_bytes(bytes.fromhex(p["hex"]))
        print(rev.key)
