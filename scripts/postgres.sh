#!/usr/bin/env bash
# Starts a throwaway PostgreSQL from Debian's packages on 127.0.0.1:$PGPORT (default
# 54329) and prints its URL. `scripts/postgres.sh stop` stops it.
#
# A server already running there is reused only while it runs the installed binary: an
# upgrade of the packages (dpkg writes the new file and renames it over the old one)
# leaves the old server running with old code that loads the new version's libraries
# (plpgsql.so: "undefined symbol"). Such a server is stopped and started afresh, and this
# says so. SAMEKEY_PG_BIN names another installation's bin directory (the tests of this
# script use a copy). The packages come from scripts/setup-system.sh.
set -euo pipefail
port="${PGPORT:-54329}"
dir="${SAMEKEY_PG_DIR:-/tmp/samekey-pg-$port}"
url="postgres://samekey@127.0.0.1:$port/samekey"
bin="${SAMEKEY_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)}"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
say() { echo "postgres.sh: $*" >&2; }

# pg_ctl returns once the pid file is gone; the postmaster may still be exiting, and a
# new server must not start beside it.
stop() {
  local pid
  pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null || true)
  as_pg "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  for _ in $(seq 300); do
    [ -n "$pid" ] && [ -e "/proc/$pid" ] && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" != Z ] || return 0
    sleep 0.1
  done
  say "the postmaster $pid did not exit within 30 s"
  return 1
}

# Why the server on $port must not be reused (nothing when it may be). The postmaster's
# executable is compared by inode with the installed one; where /proc does not show it
# (another data directory, another user's process), by the version it reports.
stale() {
  local pid exe_id running installed
  installed=$("$bin/postgres" --version | awk '{print $3}')
  pid=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null || true)
  exe_id=$( [ -n "$pid" ] && stat -Lc %d:%i "/proc/$pid/exe" 2>/dev/null || true)
  if [ -n "$exe_id" ]; then
    [ "$exe_id" = "$(stat -Lc %d:%i "$bin/postgres")" ] ||
      echo "its postmaster (pid $pid) runs $(readlink "/proc/$pid/exe"), not the installed $bin/postgres ($installed)"
    return 0
  fi
  running=$(as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U samekey -d postgres -XAtc 'show server_version' 2>/dev/null | cut -d' ' -f1 || true)
  [ "$running" = "$installed" ] || echo "it runs PostgreSQL ${running:-of a version it does not tell}, the installed one is $installed"
}

if [ "${1:-start}" = stop ]; then
  [ -n "$bin" ] && [ -d "$dir" ] && stop
  exit 0
fi
if [ -z "$bin" ] || [ ! -x "$bin/postgres" ]; then
  say "no PostgreSQL server installed: run scripts/setup-system.sh (just setup-system) first"
  exit 1
fi
if "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  why=$(stale)
  [ -z "$why" ] && { echo "$url"; exit 0; }
  if [ ! -f "$dir/data/postmaster.pid" ]; then
    say "the server on 127.0.0.1:$port is not this script's ($dir) and $why: stop it, or set PGPORT"
    exit 1
  fi
  say "restarting the server on 127.0.0.1:$port: $why (its packages were upgraded while it ran)"
  stop
fi
rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"
as_pg "$bin/initdb" -D "$dir/data" -U samekey --auth=trust -E UTF8 >/dev/null
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=on -c synchronous_commit=on" start >/dev/null
as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U samekey samekey
echo "$url"
