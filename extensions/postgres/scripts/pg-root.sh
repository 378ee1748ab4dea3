#!/usr/bin/env bash
# A PostgreSQL major this machine's Debian does not carry, from the Debian release that
# does (bullseye 13, trixie 17, sid 18): a debootstrapped root (.pgroots/SUITE) with that
# release's server and server headers, made once (needs root and Debian's mirror; about a
# minute each). Its servers run only while a test runs (pg-root.sh start/stop): nothing in
# a root outlives the script that started it, or an upgrade of the root.
#
#   pg-root.sh make SUITE MAJOR            the root; prints its path
#   pg-root.sh pg-config SUITE MAJOR       prints a pg_config for builds on this machine:
#                                          the root's, with its header paths inside the root
#   pg-root.sh start SUITE MAJOR PORT      initdb (once) and start the server on 127.0.0.1
#   pg-root.sh stop SUITE MAJOR
set -euo pipefail
cmd=$1 suite=$2 major=$3
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.pgroots/$suite
bin=/usr/lib/postgresql/$major/bin
data=/var/lib/samekey-pg$major

in_root() { chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }

make_root() {
  if [ -e "$root/.ready-$major" ]; then return; fi
  "$repo/scripts/setup-system.sh"  # debootstrap
  if [ ! -e "$root/.bootstrapped" ]; then
    rm -rf "$root" "$root.tmp" && mkdir -p "$(dirname "$root")"
    debootstrap --variant=minbase "$suite" "$root.tmp" http://deb.debian.org/debian >&2
    # Packages install without starting anything (no init in a root).
    printf '#!/bin/sh\nexit 101\n' > "$root.tmp/usr/sbin/policy-rc.d" && chmod +x "$root.tmp/usr/sbin/policy-rc.d"
    mkdir -p "$root.tmp/etc/postgresql-common"
    echo "create_main_cluster = false" > "$root.tmp/etc/postgresql-common/createcluster.conf"
    touch "$root.tmp/.bootstrapped" && mv "$root.tmp" "$root"
  fi
  # ICU's headers: the server headers include them (pg_locale.h). sid's postgresql-common
  # runs systemd-tmpfiles when it is configured, which needs /proc.
  mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
  chroot "$root" env PATH=/usr/bin:/bin DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "postgresql-$major" "postgresql-server-dev-$major" libicu-dev >&2
  umount "$root/proc"
  touch "$root/.ready-$major"
}

case "$cmd" in
  make)
    make_root
    echo "$root"
    ;;
  pg-config)
    make_root
    # pgrx reads headers (and cppflags) from pg_config: those live in the root. Install
    # paths (pkglibdir, sharedir) stay the root's own, as a package lays them out.
    wrapper=$root/pg_config-$major
    cat > "$wrapper" <<EOF
#!/usr/bin/env bash
# pg_config of PostgreSQL $major in $root, for builds on this machine (made by pg-root.sh).
out=\$(chroot "$root" $bin/pg_config "\$@")
case "\${1:-}" in
  --includedir|--pkgincludedir|--includedir-server) echo "$root\$out" ;;
  --cppflags) echo "\$out" | sed "s# -I/# -I$root/#g; s#^-I/#-I$root/#" ;;
  *) echo "\$out" ;;
esac
EOF
    chmod +x "$wrapper"
    echo "$wrapper"
    ;;
  start)
    port=$4
    make_root
    if [ ! -e "$root$data/PG_VERSION" ]; then
      in_root install -d -o postgres -g postgres "$data"
      in_root su postgres -s /bin/sh -c "$bin/initdb -D $data -E UTF8 --locale=C.UTF-8 -A trust" >/dev/null
    fi
    mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
    in_root install -d -o postgres -g postgres /var/run/postgresql
    in_root su postgres -s /bin/sh -c "$bin/pg_ctl -D $data -l $data/server.log -w -o '-c listen_addresses=127.0.0.1 -p $port' start" >/dev/null
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -e "$root$data/postmaster.pid" ]; then
      in_root su postgres -s /bin/sh -c "$bin/pg_ctl -D $data -w -m fast stop" >/dev/null || true
    fi
    if mountpoint -q "$root/proc"; then umount "$root/proc"; fi
    ;;
  *) echo "usage: $0 make|pg-config|start|stop SUITE MAJOR [PORT]" >&2; exit 2 ;;
esac
