#!/usr/bin/env bash
# A package's test binaries run side by side: cargo test runs them one after another, and
# the registry's (a SeaweedFS cluster, a fault proxy, a database restart) spend most of
# their minutes waiting on sockets and child processes, not on the CPU.
#
#   scripts/cargo-test-parallel.sh PACKAGE JOBS [--first NAME...] [--alone NAME...] [-- CARGO TEST ARGS...]
#
# Each binary runs as cargo test would run it (from the package's directory, its output
# kept and printed whole when it ends). The binaries named after --first start first (the
# longest: started last, one of them would end alone); those after --alone run
# afterwards, one at a time with nothing beside them (tests that measure latency). The
# doc tests are not run (`cargo test --doc`). Prints each binary's time and result; fails
# when any binary failed, after all have run.
set -euo pipefail
package=$1 jobs=$2
shift 2
first=() alone=()
list=first
while (($#)) && [ "$1" != -- ]; do
  case $1 in
    --first) list=first ;;
    --alone) list=alone ;;
    *) if [ $list = first ]; then first+=("$1"); else alone+=("$1"); fi ;;
  esac
  shift
done
[ "${1:-}" = -- ] && shift
cd "$(dirname "$0")/.."

# The test binaries and their package directory, from cargo's own build of them.
listing=$(cargo test -p "$package" --no-run --message-format=json "$@" |
  jq -r 'select(.reason == "compiler-artifact" and .profile.test == true and .executable != null)
         | "\(.target.name)\t\(.executable)\t\(.manifest_path)"')
[ -n "$listing" ] || { echo "cargo-test-parallel: no test binary in $package" >&2; exit 1; }
dir=$(dirname "$(head -1 <<<"$listing" | cut -f3)")
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

run_one() {  # NAME BINARY: runs it, prints its output and a line with its time and result
  local name=$1 binary=$2 start=$SECONDS status=0
  (cd "$dir" && "$binary") > "$logs/$name" 2>&1 || status=$?
  {
    cat "$logs/$name"
    printf 'cargo-test-parallel: %s: %s in %d s\n' "$name" "$([ $status = 0 ] && echo ok || echo "FAILED ($status)")" $((SECONDS - start))
  } | flock "$logs" cat
  [ $status = 0 ] || touch "$logs/failed-$name"
}
export -f run_one
export dir logs

named() {  # NAME LIST...: whether NAME is one of LIST
  local name=$1 a; shift
  for a in "$@"; do [ "$a" = "$name" ] && return 0; done
  return 1
}
for name in "${first[@]}" "${alone[@]}"; do
  cut -f1 <<<"$listing" | grep -qx "$name" || { echo "cargo-test-parallel: no test binary $name in $package" >&2; exit 1; }
done
binary_of() { awk -F'\t' -v n="$1" '$1 == n {print $2}' <<<"$listing"; }
together=() later=()
for name in "${first[@]}"; do together+=("$name"$'\t'"$(binary_of "$name")"); done
while IFS=$'\t' read -r name binary _; do
  if named "$name" "${alone[@]}"; then later+=("$name"$'\t'"$binary")
  elif ! named "$name" "${first[@]}"; then together+=("$name"$'\t'"$binary"); fi
done <<<"$listing"
for entry in "${together[@]}"; do printf '%s\0' "${entry%%$'\t'*}" "${entry#*$'\t'}"; done |
  xargs -0 -n 2 -P "$jobs" bash -c 'run_one "$1" "$2"' _
for entry in "${later[@]}"; do run_one "${entry%%$'\t'*}" "${entry#*$'\t'}"; done

failed=$(cd "$logs" && ls failed-* 2>/dev/null | sed 's/^failed-//' || true)
total=$(( ${#together[@]} + ${#later[@]} ))
if [ -n "$failed" ]; then
  echo "cargo-test-parallel: $package: $(wc -w <<<"$failed") of $total binaries FAILED: $(echo $failed)"
  exit 1
fi
echo "cargo-test-parallel: $package: $total binaries passed ($jobs at a time; alone: ${alone[*]:-none})"
