#!/usr/bin/env bash
# How long each top-level step of a run took, so that a slow or new step shows in every
# CI log. With SAMEKEY_STEPS naming a file (.ci/run sets it):
#
#   scripts/ci-steps.sh mark NAME   NAME starts now (the step before it ends)
#   scripts/ci-steps.sh table       each step's minutes:seconds, longest first, and the total
#
# Without SAMEKEY_STEPS, mark does nothing: a developer's `just test` writes no file.
set -euo pipefail
file=${SAMEKEY_STEPS:-}
case "${1:-}" in
  mark)
    [ -n "$file" ] && printf '%s\t%s\n' "$(date +%s)" "$2" >> "$file"
    exit 0 ;;
  table)
    [ -n "$file" ] && [ -s "$file" ] || exit 0
    awk -F'\t' -v now="$(date +%s)" '
      { t[NR] = $1; name[NR] = $2 }
      END {
        for (i = 1; i <= NR; i++) {
          d = (i < NR ? t[i + 1] : now) - t[i]
          printf "%6d:%02d  %s\n", d / 60, d % 60, name[i]
        }
        d = now - t[1]; printf "%6d:%02d  total\n", d / 60, d % 60
      }' "$file" | sort -t: -k1,1nr -k2,2nr | sed 's/^/steps: /' ;;
  *) echo "usage: scripts/ci-steps.sh mark NAME | table" >&2; exit 2 ;;
esac
