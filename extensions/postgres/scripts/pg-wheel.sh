#!/usr/bin/env bash
# PostgreSQL 16, which no Debian release carries, from PyPI: the pgserver wheel bundles a
# relocatable PostgreSQL 16.2 build with its server headers, pg_config and pg_regress
# (built without ICU). Unpacked once in .pgroots/pgserver-VERSION; its server runs only
# while a test runs, as the postgres user.
#
#   pg-wheel.sh make                 the unpacked installation; prints its prefix
#   pg-wheel.sh pg-config            a pg_config for builds: the wheel's headers, and
#                                    Debian's install layout (usr/lib/postgresql/16/lib),
#                                    so the tarball is the one Debian's and PGDG's 16 take
#   pg-wheel.sh install TARBALL      the tarball's files copied into the wheel's
#                                    installation, as INSTALL.md says for another layout
#   pg-wheel.sh start PORT | stop
set -euo pipefail
cmd=$1
version=0.1.4  # pgserver: PostgreSQL 16.2
major=16
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.pgroots/pgserver-$version
prefix=$root/pgserver/pginstall
data=$root/data
as_pg() { runuser -u postgres -- "$@"; }

make_install() {
  [ -x "$prefix/bin/postgres" ] && return
  rm -rf "$root" && mkdir -p "$root"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform manylinux2014_x86_64 --python-version 3.11 --dest "$root/wheel" "pgserver==$version"
  # Extracted with the modes the wheel records (python -m zipfile drops them: pg_regress
  # and the server's programs must stay executable).
  python3 - "$root"/wheel/pgserver-*.whl "$root" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        if info.external_attr >> 16:
            os.chmod(path, info.external_attr >> 16)
PY
  chmod -R a+rX "$root"
  "$prefix/bin/pg_config" --version | grep -q "^PostgreSQL $major\." ||
    { echo "pg-wheel: pgserver $version is not PostgreSQL $major" >&2; exit 1; }
}

case "$cmd" in
  make)
    make_install
    echo "$prefix"
    ;;
  pg-config)
    make_install
    wrapper=$root/pg_config-$major
    cat > "$wrapper" <<WRAP
#!/usr/bin/env bash
# pg_config of pgserver $version's PostgreSQL $major with Debian's install layout (pg-wheel.sh).
case "\${1:-}" in
  --pkglibdir) echo /usr/lib/postgresql/$major/lib ;;
  --sharedir) echo /usr/share/postgresql/$major ;;
  *) exec "$prefix/bin/pg_config" "\$@" ;;
esac
WRAP
    chmod +x "$wrapper"
    echo "$wrapper"
    ;;
  install)
    make_install
    work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
    tar -C "$work" -xzf "$2" usr
    install -m 755 "$work/usr/lib/postgresql/$major/lib/samekey.so" "$prefix/lib/postgresql/"
    install -m 644 "$work/usr/share/postgresql/$major/extension/"samekey* "$prefix/share/postgresql/extension/"
    ;;
  start)
    port=$2
    make_install
    if [ ! -e "$data/PG_VERSION" ]; then
      install -d -o postgres -g postgres "$data"
      as_pg "$prefix/bin/initdb" -D "$data" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >/dev/null
    fi
    as_pg "$prefix/bin/pg_ctl" -D "$data" -l "$data/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $data" start >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -e "$data/postmaster.pid" ]; then as_pg "$prefix/bin/pg_ctl" -D "$data" -w -m fast stop >/dev/null || true; fi
    ;;
  *) echo "usage: $0 make|pg-config|install TARBALL|start PORT|stop" >&2; exit 2 ;;
esac
