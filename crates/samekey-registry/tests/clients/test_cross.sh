#!/usr/bin/env bash
# The cross-language test: one registry (SQLite, scratch directory), every client
# registers payloads.json's payloads in order. Every language must print the same keys,
# entries of one group one key, and the registry must have created one revision a group.
#
#   crates/samekey-registry/tests/clients/test_cross.sh SAMEKEY_BIN PYTHON
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$here/../../../.."
# Absolute (the JVM's side runs in bindings/kotlin), links kept (a venv's python is one).
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
bin="$(absolute "$1")" python="$(absolute "$2")"
export SAMEKEY_BIN="$bin"
dir=$(mktemp -d)
"$bin" serve --database "sqlite:$dir/r.db" --listen 127.0.0.1:0 > "$dir/out" 2>/dev/null &
pid=$!
trap 'kill $pid; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do [ -s "$dir/out" ] && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$dir/out")

"$python" "$here/cross_python.py" "$url" > "$dir/python.keys"
node "$here/cross_node.mjs" "$url" "$repo/bindings/node" > "$dir/node.keys"
# The JVM's through its test build (Maven, offline after jvm::dist), the artifact's library.
(cd "$repo/bindings/kotlin" && mvn -B -q -o -Dtest='RegistryTest#crossLanguage' -Dsurefire.failIfNoSpecifiedTests=false \
  -Dsamekey.cross="$url" -Dsamekey.cross.out="$dir/jvm.keys" test >/dev/null)
(cd "$repo/bindings/go" && scripts/go.sh test -count=1 -run TestCrossLanguage -v ./registry/ -samekey.cross="$url") \
  | sed -n 's/^key //p' > "$dir/go.keys"

"$python" - "$here/payloads.json" "$dir" "$url" <<'PY'
import json, pathlib, sys, urllib.request
payloads = json.loads(pathlib.Path(sys.argv[1]).read_text())["payloads"]
out, url = pathlib.Path(sys.argv[2]), sys.argv[3]
keys = {lang: (out / f"{lang}.keys").read_text().split() for lang in ("python", "node", "jvm", "go")}
for lang, got in keys.items():
    assert len(got) == len(payloads), f"{lang}: {len(got)} keys for {len(payloads)} payloads"
    assert got == keys["python"], f"{lang} differs from python:\n{got}\n{keys['python']}"
groups = {}
for p, key in zip(payloads, keys["python"]):
    groups.setdefault(p["group"], set()).add(key)
for group, found in groups.items():
    assert len(found) == 1, f"group {group}: {len(found)} keys {sorted(found)}"
metrics = urllib.request.urlopen(url + "/metrics").read().decode()
created = next(l for l in metrics.splitlines() if l.startswith('samekey_registry_registrations_total{outcome="created"}'))
assert int(float(created.split()[-1])) == len(groups), created
print(f"test_cross: {len(payloads)} payloads from {', '.join(keys)}: the same {len(groups)} keys in every language, {len(groups)} revisions created")
PY
