#!/usr/bin/env bash
# PostgreSQL built on Alpine (musl), for the musl builds of the extension: zonky's
# embedded-postgres-binaries-linux-amd64-alpine (and -arm64v8-alpine) from Maven Central
# (a relocatable postgres, initdb and pg_ctl, with the libraries Alpine linked them
# against; no headers, which are the same as Debian's for the same major). Its programs
# run here under Debian's musl loader, which Alpine's libc.musl-ARCH.so.1 name is pointed
# at: for x86_64 the musl package's /lib/ld-musl-x86_64.so.1; for aarch64 bookworm's arm64
# musl and musl-dev, unpacked in .pgroots/musl-VERSION-arm64 (the loader, and the C
# headers the aarch64 build is compiled with), the server under qemu-user. Unpacked once
# in .pgroots/alpine-VERSION[-aarch64]; its layout under the prefix is the official
# postgres:N-alpine image's under /usr/local.
#
#   pg-musl.sh [ARCH] MAJOR make              the prefix (lib/postgresql, share/postgresql)
#   pg-musl.sh [ARCH] MAJOR install TARBALL   the musl tarball's usr/local/ copied into the prefix
#   pg-musl.sh [ARCH] MAJOR start PORT | stop
#   pg-musl.sh aarch64 musl                   the arm64 musl root (lib/ld-musl-aarch64.so.1,
#                                             usr/include/aarch64-linux-musl)
#   ARCH: x86_64 (the default) or aarch64
set -euo pipefail
arch=x86_64
case "${1:-}" in x86_64 | aarch64) arch=$1 && shift ;; esac
repo=$(cd "$(dirname "$0")/../../.." && pwd)
# bookworm's musl, pinned with its digests: the pool path of a release's package stays.
musl_version=1.2.3-1
musl_root=$repo/.pgroots/musl-$musl_version-arm64

make_musl_root() {
  [ -e "$musl_root/lib/ld-musl-aarch64.so.1" ] && return
  rm -rf "$musl_root.tmp" && mkdir -p "$musl_root.tmp"
  local package digest
  for package in musl:6ccf2bf0f479b00411cb8e1eeb048e648718170db5d63bbb4bf4a89350b81468 \
    musl-dev:55c2ca4bc3041c8ed8ac7dc3ef6080d9551a21650568b2fd7610b59eaf98a4f4; do
    digest=${package#*:} package=${package%%:*}
    curl -fsSL -o "$musl_root.tmp/$package.deb" \
      "http://deb.debian.org/debian/pool/main/m/musl/${package}_${musl_version}_arm64.deb"
    echo "$digest  $musl_root.tmp/$package.deb" | sha256sum -c --quiet - >&2
    dpkg-deb -x "$musl_root.tmp/$package.deb" "$musl_root.tmp"
    rm "$musl_root.tmp/$package.deb"
  done
  mv "$musl_root.tmp" "$musl_root"
}

if [ "${1:-}" = musl ]; then
  [ "$arch" = aarch64 ] || { echo "pg-musl: x86_64's musl is the machine's (musl-tools)" >&2; exit 2; }
  make_musl_root
  echo "$musl_root"
  exit
fi

major=$1 cmd=$2
# Each the closest to the minor whose headers build the library (extension.sh
# package-musl): a major's minors keep its ABI. Maven Central has zonky's arm64 Alpine
# build of 16.15 only.
case "$arch:$major" in
  x86_64:13) version=13.18.0 ;;
  x86_64:14) version=14.22.0 ;;
  x86_64:15) version=15.18.0 ;;
  *:16) version=16.15.0 ;;
  x86_64:17) version=17.11.0 ;;
  x86_64:18) version=18.6.0 ;;
  *) echo "pg-musl: no Alpine build of PostgreSQL $major for $arch here (x86_64: 13 to 18; aarch64: 16)" >&2; exit 2 ;;
esac
if [ "$arch" = x86_64 ]; then
  root=$repo/.pgroots/alpine-$version artifact=embedded-postgres-binaries-linux-amd64-alpine
  archive=postgres-linux-x86_64-alpine_linux.txz
else
  root=$repo/.pgroots/alpine-$version-aarch64 artifact=embedded-postgres-binaries-linux-arm64v8-alpine
  archive=postgres-linux-arm_64-alpine_linux.txz
fi
prefix=$root/pg
data=$root/data
. "$(dirname "$0")/pg-prefix.sh"

# Runs one of the prefix's programs (under qemu-user for aarch64).
run() {
  if [ "$arch" = x86_64 ]; then "$@"; else qemu-aarch64-static -L "$musl_root" "$@"; fi
}

make_install() {
  [ -x "$prefix/bin/postgres" ] && return
  "$repo/scripts/setup-system.sh"  # musl-tools: the musl loader; qemu-user-static
  rm -rf "$root" && mkdir -p "$root/pg"
  curl -fsSL -o "$root/binaries.jar" \
    "https://repo1.maven.org/maven2/io/zonky/test/postgres/$artifact/$version/$artifact-$version.jar"
  (cd "$root" && python3 -m zipfile -e binaries.jar jar)
  xz -dc "$root/jar/$archive" | tar -C "$prefix" -x
  rm -rf "$root/jar" "$root/binaries.jar"
  if [ "$arch" = x86_64 ]; then
    ln -s /lib/ld-musl-x86_64.so.1 "$prefix/lib/libc.musl-x86_64.so.1"
  else
    # A copy: an absolute link would be resolved by this machine, not under qemu's root.
    make_musl_root
    cp "$musl_root/lib/aarch64-linux-musl/libc.so" "$prefix/lib/libc.musl-aarch64.so.1"
  fi
  chmod -R a+rX "$root"
  run "$prefix/bin/postgres" --version | grep -q "^postgres (PostgreSQL) $major\." ||
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
    if [ "$arch" = x86_64 ]; then prefix_start "$prefix" "$data" "$3"; exit; fi
    # The cluster from the x86-64 build of the same version (its files are the same on
    # both architectures; the server checks pg_control).
    x86=$("$0" x86_64 "$major" make)
    prefix_init "$x86" "$data"
    qemu_start "$data" "$3" "$musl_root" "$prefix/bin/postgres"
    ;;
  stop)
    if [ "$arch" = x86_64 ]; then prefix_stop "$prefix" "$data"; else qemu_stop "$data"; fi
    ;;
  *) echo "usage: $0 [x86_64|aarch64] MAJOR make|install TARBALL|start PORT|stop" >&2; exit 2 ;;
esac
