#!/usr/bin/env bash
# Instructions per ULID derivation, counted by callgrind: repeatable whatever else the
# machine is doing. Each single-threaded variant of the ulid_vs_floor bench derives 12,288
# and 110,592 ids (whole batches of 4,096 rows); the difference / 98,304 is the cost of one
# id without start-up. valgrind reports CPU features as it emulates them: no SHA-NI, and
# AVX2 only as valgrind translates it, so these count the portable and AVX2 paths.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cargo bench -p samekey --bench ulid_vs_floor --no-run --message-format=json 2>/dev/null \
  | python3 -c 'import json,sys; print([m["executable"] for m in map(json.loads, sys.stdin) if m.get("executable") and "ulid_vs_floor" in m["executable"]][-1])')
count() {  # variant ids -> total instructions
  local out
  out=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" --only "$1" --ids "$2" 2>/dev/null
  callgrind_annotate "$out" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
  rm -f "$out"
}
names=() counts=()
while IFS=$'\t' read -r v _; do
  names+=("$v")
  counts+=($(( ($(count "$v" 110592) - $(count "$v" 12288)) / 98304 )))
done < <("$bin" --list)
floor=${counts[0]} v1=""
for i in "${!names[@]}"; do [ "${names[$i]}" = v1 ] && v1=${counts[$i]}; done
echo "instructions per id (callgrind; 20-byte slug + \"en\")"
echo "| variant | instructions | x floor | x v1 |"
echo "|---|---:|---:|---:|"
for i in "${!names[@]}"; do
  n=${counts[$i]}
  printf '| %s | %d | %s | %s |\n' "${names[$i]}" "$n" \
    "$(awk "BEGIN{printf \"%.2f\", $n / $floor}")" "$(awk "BEGIN{printf \"%.2f\", $n / $v1}")"
done
