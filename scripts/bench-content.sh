#!/usr/bin/env bash
# Content-hash throughput of a 256 MiB file: `samekey hash` next to `openssl dgst -sha256`
# (v1) and `b3sum` (v2), same file, same run, best of N; with each command's peak RSS.
# Usage: scripts/bench-content.sh [runs]   (needs a release build of samekey, openssl, b3sum)
set -euo pipefail
runs=${1:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
samekey="$root/target/release/samekey"
file=$(mktemp /tmp/samekey-bench.XXXXXX)
trap 'rm -f "$file"' EXIT
head -c $((256 << 20)) /dev/urandom > "$file"
cat "$file" > /dev/null  # warm the page cache so every command reads from memory

best() {  # prints "seconds peak_kib": the fastest wall time of $runs runs, the largest RSS
  local best_s="" best_kib=0
  for _ in $(seq "$runs"); do
    local start end kib s
    start=$EPOCHREALTIME
    kib=$( { /usr/bin/time -f "%M" "$@" > /dev/null; } 2>&1 | tail -n 1)
    end=$EPOCHREALTIME
    s=$(awk "BEGIN{printf \"%.3f\", $end - $start}")
    if [ -z "$best_s" ] || awk "BEGIN{exit !($s < $best_s)}"; then best_s=$s; fi
    [ "$kib" -gt "$best_kib" ] && best_kib=$kib
  done
  echo "$best_s $best_kib"
}

mib=256
row() {  # name seconds kib [peer_seconds]
  local rate ratio="" 
  rate=$(awk "BEGIN{printf \"%.0f\", $mib / ($2 > 0 ? $2 : 0.001)}")
  if [ -n "${4:-}" ]; then ratio=$(awk "BEGIN{printf \"%.2fx\", $4 / ($2 > 0 ? $2 : 0.001)}"); fi
  printf '| %-28s | %8s s | %8s MiB/s | %8s MiB | %8s |\n' "$1" "$2" "$rate" "$(( $3 / 1024 ))" "$ratio"
}

read -r o_s o_k < <(best openssl dgst -sha256 "$file")
read -r v1_s v1_k < <(best "$samekey" hash --scheme v1 --no-progress "$file")
read -r b_s b_k < <(best b3sum "$file")
read -r v2_s v2_k < <(best "$samekey" hash --scheme v2 --no-progress "$file")
read -r b1_s b1_k < <(best b3sum --num-threads 1 "$file")

echo "content hash of a 256 MiB file, best of $runs runs (ratio = peer time / samekey time)"
printf '| %-28s | %10s | %14s | %12s | %8s |\n' command time throughput "peak RSS" "vs peer"
printf '|%s|%s|%s|%s|%s|\n' ------------------------------ ------------ ---------------- -------------- ----------
row "openssl dgst -sha256" "$o_s" "$o_k"
row "samekey hash --scheme v1" "$v1_s" "$v1_k" "$o_s"
row "b3sum" "$b_s" "$b_k"
row "b3sum --num-threads 1" "$b1_s" "$b1_k"
row "samekey hash --scheme v2" "$v2_s" "$v2_k" "$b_s"
