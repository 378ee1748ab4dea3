#!/usr/bin/env bash
# PostgreSQL 15 for arm64 (Debian 12's, this machine's major) run under qemu-user, for the
# aarch64 build of the extension: a Debian bookworm arm64 root (.pgroots/bookworm-arm64:
# debootstrap --foreign, the packages unpacked, not configured, as scripts/arm64-root.sh
# makes the Python one) with the server and its headers. There is no binfmt_misc here, so
# nothing in the root can exec another of its programs: this machine's initdb of the same
# major makes the cluster (its files are the same on both architectures: little-endian,
# 64-bit, 8-byte alignment; the server checks pg_control), and the root's postgres runs
# under qemu-aarch64-static (it forks its backends, it does not exec them). Clients are
# this machine's.
#
#   pg-arm64.sh make               the root; prints its path
#   pg-arm64.sh pg-config          a pg_config for builds here: the root's, under qemu
#                                  (it finds its paths from its own, inside the root)
#   pg-arm64.sh start PORT         initdb and start the server on 127.0.0.1; prints its URL
#   pg-arm64.sh stop
set -euo pipefail
cmd=$1
major=15
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.pgroots/bookworm-arm64
data=/var/lib/samekey-pg$major-arm64
host_bin=/usr/lib/postgresql/$major/bin

make_root() {
  if [ -x "$root/usr/lib/postgresql/$major/bin/postgres" ]; then return; fi
  "$repo/scripts/setup-system.sh"  # debootstrap, qemu-user-static
  rm -rf "$root.tmp" && mkdir -p "$(dirname "$root")"
  # libc6-dev: bindgen parses the server headers with the root as its sysroot.
  debootstrap --foreign --arch=arm64 --variant=minbase \
    --include="postgresql-$major,postgresql-server-dev-$major,libicu-dev,libc6-dev" \
    bookworm "$root.tmp" http://deb.debian.org/debian >&2
  for deb in "$root.tmp"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$root.tmp"; done
  qemu-aarch64-static -L "$root.tmp" "$root.tmp/usr/lib/postgresql/$major/bin/postgres" --version >&2
  mv "$root.tmp" "$root"
}

case "$cmd" in
  make)
    make_root
    echo "$root"
    ;;
  pg-config)
    make_root
    wrapper=$root/pg_config-$major
    printf '#!/bin/sh\n# pg_config of arm64 PostgreSQL %s in %s, under qemu-user (pg-arm64.sh)\nexec qemu-aarch64-static -L "%s" "%s/usr/lib/postgresql/%s/bin/pg_config" "$@"\n' \
      "$major" "$root" "$root" "$root" "$major" > "$wrapper"
    chmod +x "$wrapper"
    echo "$wrapper"
    ;;
  start)
    port=$2
    make_root
    [ -x "$host_bin/initdb" ] || { echo "pg-arm64: no $host_bin/initdb (PostgreSQL $major on this machine)" >&2; exit 1; }
    rm -rf "$data" && install -d -o postgres -g postgres "$data"
    runuser -u postgres -- "$host_bin/initdb" -D "$data/cluster" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
    runuser -u postgres -- sh -c 'exec "$@" > "$0/server.log" 2>&1 < /dev/null &' "$data" \
      qemu-aarch64-static -L "$root" "$root/usr/lib/postgresql/$major/bin/postgres" -D "$data/cluster" \
      -c listen_addresses=127.0.0.1 -p "$port" -k "$data"
    for _ in $(seq 120); do
      "$host_bin/pg_isready" -q -h 127.0.0.1 -p "$port" && break
      sleep 0.5
    done
    "$host_bin/pg_isready" -q -h 127.0.0.1 -p "$port" || { cat "$data/server.log" >&2; exit 1; }
    grep -m1 "starting PostgreSQL" "$data/server.log" | sed 's/.*LOG: */pg-arm64: /' >&2
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    # The postmaster is the qemu process that runs it: this machine's pg_ctl signals it.
    if [ -e "$data/cluster/postmaster.pid" ]; then
      runuser -u postgres -- "$host_bin/pg_ctl" -D "$data/cluster" -w -m fast stop >/dev/null || true
    fi
    ;;
  *) echo "usage: $0 make|pg-config|start PORT|stop" >&2; exit 2 ;;
esac
