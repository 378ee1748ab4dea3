# Sourced by pg-wheel.sh, pg-musl.sh and pg-arm64.sh: the server of a relocatable PostgreSQL
# installation (PREFIX/bin), run as the postgres user only while a test runs, on a
# cluster made afresh in DATA/cluster (its socket and log in DATA).
#
#   prefix_init PREFIX DATA         a new cluster (initdb)
#   prefix_start PREFIX DATA PORT   prefix_init, then start on 127.0.0.1:PORT; prints its URL
#   prefix_stop PREFIX DATA         a fast shutdown, if it runs
prefix_init() {
  local prefix=$1 data=$2
  rm -rf "$data"
  install -d -o postgres -g postgres "$data"
  runuser -u postgres -- "$prefix/bin/initdb" -D "$data/cluster" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >/dev/null
}

prefix_start() {
  local prefix=$1 data=$2 port=$3
  prefix_init "$prefix" "$data"
  runuser -u postgres -- "$prefix/bin/pg_ctl" -D "$data/cluster" -l "$data/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data" start >/dev/null
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

prefix_stop() {
  local prefix=$1 data=$2
  [ -e "$data/cluster/postmaster.pid" ] || return 0
  runuser -u postgres -- "$prefix/bin/pg_ctl" -D "$data/cluster" -w -m fast stop >/dev/null || true
}

# An arm64 postmaster under qemu-user (pg-arm64.sh, pg-musl.sh aarch64): without
# binfmt_misc nothing arm64 can exec another program, so no pg_ctl; the cluster in
# DATA/cluster is made beforehand by an x86-64 initdb of the same major.
#
#   qemu_start DATA PORT QEMU_ROOT POSTGRES   start on 127.0.0.1:PORT; prints its URL
#   qemu_stop DATA                            a fast shutdown (SIGINT), if it runs
qemu_start() {
  local data=$1 port=$2 qemu_root=$3 postgres=$4
  runuser -u postgres -- sh -c 'exec "$@" > "$0/server.log" 2>&1 < /dev/null &' "$data" \
    qemu-aarch64-static -L "$qemu_root" "$postgres" -D "$data/cluster" \
    -c listen_addresses=127.0.0.1 -p "$port" -k "$data"
  for _ in $(seq 120); do
    grep -q "ready to accept connections" "$data/server.log" 2>/dev/null && break
    sleep 0.5
  done
  grep -q "ready to accept connections" "$data/server.log" || { cat "$data/server.log" >&2; exit 1; }
  grep -m1 "starting PostgreSQL" "$data/server.log" | sed 's/.*LOG: */qemu-aarch64: /' >&2
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

qemu_stop() {
  local data=$1 pid
  [ -e "$data/cluster/postmaster.pid" ] || return 0
  # The postmaster is the qemu process that runs it.
  pid=$(head -1 "$data/cluster/postmaster.pid")
  kill -INT "$pid" 2>/dev/null || true
  for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  echo "qemu_stop: the postmaster $pid did not exit within 30 s" >&2
  return 1
}
