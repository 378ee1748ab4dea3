#!/usr/bin/env bash
# npm ci (or npm install) in DIR, with better-sqlite3's native addon built once per
# machine, version and Node ABI. Its install script looks for a prebuilt binary on GitHub,
# which this machine cannot reach, and compiles SQLite from source instead: 2-3 minutes of
# CPU for every clone, twice in `just test` (bindings/node, examples/node). prebuild-install
# first looks in the directory npm_config_better_sqlite3_local_prebuilds names; after a
# build from source, the addon is packed there as the prebuilt archive it looks for.
#
#   scripts/npm-install.sh DIR ci|install [NPM ARGS...]
set -euo pipefail
dir=$1 how=$2
shift 2
cache="${XDG_CACHE_HOME:-$HOME/.cache}/samekey/npm-prebuilds"
mkdir -p "$cache"
export npm_config_better_sqlite3_local_prebuilds="$cache"
cd "$dir"
npm "$how" --no-audit --no-fund --loglevel=error "$@"
addon=node_modules/better-sqlite3/build/Release/better_sqlite3.node
[ -f "$addon" ] || exit 0
# prebuild-install's name for it: NAME-vVERSION-node-vABI-PLATFORM-ARCH.tar.gz (glibc).
archive=$(node -e '
  const v = require("./node_modules/better-sqlite3/package.json").version;
  const musl = !process.report.getReport().header.glibcVersionRuntime;
  console.log(`better-sqlite3-v${v}-node-v${process.versions.modules}-${process.platform}${musl ? "musl" : ""}-${process.arch}.tar.gz`);')
if [ ! -f "$cache/$archive" ]; then
  tar -C node_modules/better-sqlite3 -czf "$cache/$archive.tmp.$$" build/Release/better_sqlite3.node
  mv "$cache/$archive.tmp.$$" "$cache/$archive"
  echo "npm-install: better-sqlite3's addon kept for the next install ($cache/$archive)"
fi
