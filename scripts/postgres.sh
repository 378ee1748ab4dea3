#!/usr/bin/env bash
# Starts a throwaway PostgreSQL from Debian's packages on 127.0.0.1:$PGPORT (default
# 54329), installing it if needed, and prints its URL. `scripts/postgres.sh stop` stops it.
# Idempotent: a server already running there is reused.
set -euo pipefail
port="${PGPORT:-54329}"
dir="${SAMEKEY_PG_DIR:-/tmp/samekey-pg-$port}"
url="postgres://samekey@127.0.0.1:$port/samekey"
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

if [ "${1:-start}" = stop ]; then
  [ -n "$bin" ] && [ -d "$dir" ] && as_pg "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
  exit 0
fi
if [ -z "$bin" ] || ! ls /usr/share/postgresql/*/extension/amcheck.control >/dev/null 2>&1; then
  echo "postgres.sh: installing postgresql and postgresql-contrib from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq postgresql postgresql-contrib >/dev/null
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
fi
if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  as_pg "$bin/initdb" -D "$dir/data" -U samekey --auth=trust -E UTF8 >/dev/null
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=on -c synchronous_commit=on" start >/dev/null
  as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U samekey samekey
fi
echo "$url"
