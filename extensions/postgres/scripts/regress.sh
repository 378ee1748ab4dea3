#!/usr/bin/env bash
# The extension's pg_regress tests (tests/pg_regress/sql, expected/), laid out and run as
# PGXS's `make installcheck` runs a contrib module's: PostgreSQL's own pg_regress, the
# installed extension, a running server, a fresh database. On a difference it prints
# regression.diffs and fails.
#
#   scripts/regress.sh URL                the machine's PostgreSQL (its newest major, or
#                                         PG_CONFIG's)
#   scripts/regress.sh URL SUITE MAJOR    that major's pg_regress and psql: this machine's if
#                                         it has the major, the x86-64 wheel's (SUITE pypi,
#                                         pg-wheel.sh), or the release root's (pg-root.sh)
set -euo pipefail
url=$1 suite=${2:-} major=${3:-}
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
read -r host port user < <(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(p.hostname, p.port or 5432, p.username or "postgres")' "$url")
tests=(examples nulls_errors_times)
args=(--host="$host" --port="$port" --user="$user" --dbname=samekey_regression "${tests[@]}")

if [ -n "$suite" ] && [ -x "/usr/lib/postgresql/$major/bin/pg_config" ]; then
  PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config suite=""
elif [ "$suite" = pypi ]; then
  PG_CONFIG=$("$ext/scripts/pg-wheel.sh" "$major" make)/bin/pg_config suite=""
fi
if [ -z "$suite" ]; then
  # The newest installed major, the one scripts/postgres.sh starts.
  pg_config=${PG_CONFIG:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)/pg_config}
  out=$repo/target/postgres/regress
  rm -rf "$out" && mkdir -p "$out"
  pg_regress="$("$pg_config" --pkglibdir)/pgxs/src/test/regress/pg_regress"
  "$pg_regress" --inputdir="$ext/tests/pg_regress" --outputdir="$out" --bindir="$("$pg_config" --bindir)" "${args[@]}" ||
    { cat "$out/regression.diffs" >&2; exit 1; }
else
  root=$repo/.pgroots/$suite
  rm -rf "$root/tmp/samekey-regress" && cp -r "$ext/tests/pg_regress" "$root/tmp/samekey-regress"
  bin=/usr/lib/postgresql/$major
  chroot "$root" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 "$bin/lib/pgxs/src/test/regress/pg_regress" \
    --inputdir=/tmp/samekey-regress --outputdir=/tmp/samekey-regress --bindir="$bin/bin" "${args[@]}" ||
    { cat "$root/tmp/samekey-regress/regression.diffs" >&2; exit 1; }
fi
