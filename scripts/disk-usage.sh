#!/usr/bin/env bash
# What a run of the tests keeps on disk, largest first: the clone's build directories and
# roots, and the per-user caches the recipes fill. `just test` needs its total free.
cd "$(dirname "$0")/.."
{
  du -sx target/* .distroot bindings/*/node_modules bindings/*/.venv* \
    bindings/*/pkg bindings/kotlin/build examples/*/node_modules 2>/dev/null
  du -sx ~/.rustup ~/.cargo ~/.cache ~/.npm ~/go ~/.gradle ~/.m2 ~/.pgrx 2>/dev/null
} | sort -rn | awk '
  { t += $1; if (NR <= 25) printf "%8.1f MiB  %s\n", $1 / 1024, $2 }
  END { printf "%8.1f MiB  total\n", t / 1024 }'
df -h . | tail -n 1 | awk '{ print "free: " $4 " of " $2 }'
