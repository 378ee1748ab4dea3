#!/usr/bin/env bash
# scripts/postgres.sh under an upgrade of its running server, without touching the
# machine's packages: a copy of the installed PostgreSQL (bin, lib and share in their
# relative layout, which PostgreSQL resolves from its own path) is started, then its
# postgres binary is replaced the way dpkg replaces it, a new file renamed over the old.
# The next call must restart the server (new postmaster, running the new file) and say
# so; a call with nothing replaced must reuse it silently.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-system.sh
major=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1 | sed -E 's#.*/([0-9]+)/bin$#\1#')
work=$(mktemp -d)
chmod 755 "$work"
mkdir -p "$work/usr/lib/postgresql" "$work/usr/share/postgresql"
cp -a "/usr/lib/postgresql/$major" "$work/usr/lib/postgresql/"
cp -a "/usr/share/postgresql/$major" "$work/usr/share/postgresql/"
export SAMEKEY_PG_BIN="$work/usr/lib/postgresql/$major/bin" SAMEKEY_PG_DIR="$work/run"
PGPORT=$(scripts/free-port.sh)
export PGPORT
trap 'scripts/postgres.sh stop; rm -rf "$work"' EXIT

fail() { echo "test-postgres-restart: FAIL: $*" >&2; exit 1; }
postmaster() { head -1 "$SAMEKEY_PG_DIR/data/postmaster.pid"; }
sql() { "$SAMEKEY_PG_BIN/psql" "$1" -XAtqc "$2"; }

url=$(scripts/postgres.sh 2>"$work/start.err")
first=$(postmaster)
[ "$(readlink "/proc/$first/exe")" = "$SAMEKEY_PG_BIN/postgres" ] || fail "the server is not the copy: $(readlink "/proc/$first/exe")"
[ "$(sql "$url" 'select 1')" = 1 ] || fail "the copy does not answer"

scripts/postgres.sh >/dev/null 2>"$work/reuse.err"
[ "$(postmaster)" = "$first" ] || fail "a server with nothing replaced was restarted"
[ ! -s "$work/reuse.err" ] || fail "reusing said: $(cat "$work/reuse.err")"

cp "$SAMEKEY_PG_BIN/postgres" "$SAMEKEY_PG_BIN/postgres.dpkg-new"
mv -f "$SAMEKEY_PG_BIN/postgres.dpkg-new" "$SAMEKEY_PG_BIN/postgres"
[[ "$(readlink "/proc/$first/exe")" == *"(deleted)" ]] || fail "the replaced binary still shows as running"

url=$(scripts/postgres.sh 2>"$work/upgrade.err")
second=$(postmaster)
grep -q "restarting the server on 127.0.0.1:$PGPORT: its postmaster (pid $first) runs .*(deleted)" "$work/upgrade.err" ||
  fail "no restart message; stderr: $(cat "$work/upgrade.err")"
[ "$second" != "$first" ] || fail "the server whose binary was replaced kept running (pid $first)"
# The old postmaster may still be exiting on a busy machine: it has until a deadline, and
# the test says how long it took. A zombie has exited; this machine's init may reap it later.
running() { [ -e "/proc/$1" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
waited=0
while running "$first"; do
  ((waited < 300)) || fail "the old postmaster $first is still running 30 s after the restart"
  sleep 0.1
  waited=$((waited + 1))
done
[ "$(readlink "/proc/$second/exe")" = "$SAMEKEY_PG_BIN/postgres" ] || fail "the new server runs $(readlink "/proc/$second/exe")"
[ "$(sql "$url" 'DO $$ BEGIN PERFORM 1; END $$; select 1')" = 1 ] || fail "the restarted server cannot run PL/pgSQL"
echo "test-postgres-restart: reused while unchanged (pid $first); restarted after its binary was replaced (pid $second, the old one gone after $((waited / 10)).$((waited % 10)) s), and said so"
echo "postgres-restart: 1 passed, 0 failed"
