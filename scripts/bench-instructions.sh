#!/usr/bin/env bash
# Instructions per ULID derivation, counted by callgrind: repeatable whatever else the
# machine is doing. Each variant runs 1,000 and 11,000 times; the difference / 10,000 is
# the cost of one id without start-up.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cargo bench -p samekey --bench ulid_vs_floor --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys; print([m["executable"] for m in map(json.loads, sys.stdin) if m.get("executable") and "ulid_vs_floor" in m["executable"]][-1])')
count() {  # variant iterations -> total instructions
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --only "$1" --iters "$2" 2>/dev/null
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
  rm -f "$out"
}
echo "instructions per id (callgrind; 20-byte slug + \"en\")"
echo "| variant | instructions | x floor |"
echo "|---|---:|---:|"
floor=""
for v in "floor sha256(slug:lang)" "v0" "v1" "v1 prepared" "v2" "keyed v1" "keyed v1 prepared" "keyed v2"; do
  per=$(( ($(count "$v" 11000) - $(count "$v" 1000)) / 10000 ))
  [ -z "$floor" ] && floor=$per
  printf '| %s | %d | %s |\n' "$v" "$per" "$(awk "BEGIN{printf \"%.2f\", $per / $floor}")"
done
