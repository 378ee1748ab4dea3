# Sourced by pg-wheel.sh and pg-musl.sh: the server of a relocatable PostgreSQL
# installation (PREFIX/bin), run as the postgres user only while a test runs, on a
# cluster made afresh in DATA/cluster (its socket and log in DATA).
#
#   prefix_start PREFIX DATA PORT   initdb, then start on 127.0.0.1:PORT; prints its URL
#   prefix_stop PREFIX DATA         a fast shutdown, if it runs
prefix_start() {
  local prefix=$1 data=$2 port=$3
  rm -rf "$data"
  install -d -o postgres -g postgres "$data"
  runuser -u postgres -- "$prefix/bin/initdb" -D "$data/cluster" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >/dev/null
  runuser -u postgres -- "$prefix/bin/pg_ctl" -D "$data/cluster" -l "$data/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $data" start >/dev/null
  echo "postgresql://postgres@127.0.0.1:$port/postgres"
}

prefix_stop() {
  local prefix=$1 data=$2
  [ -e "$data/cluster/postmaster.pid" ] || return 0
  runuser -u postgres -- "$prefix/bin/pg_ctl" -D "$data/cluster" -w -m fast stop >/dev/null || true
}
