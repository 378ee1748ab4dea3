#!/usr/bin/env bash
# A Debian release's PostgreSQL for arm64, for the aarch64 builds of the extension: a root
# of that release for arm64 (.pgroots/SUITE-arm64: debootstrap --foreign, the packages
# unpacked, not configured, as scripts/arm64-root.sh makes the Python one) with the server
# and its headers, and its server run under qemu-user. There is no binfmt_misc here, so
# nothing in the root can exec another of its programs: an x86-64 initdb of the same major
# makes the cluster (this machine's for 15; for another major, the one in pg-root.sh's
# root of the release, the cluster then handed to this machine's postgres user). Its files
# are the same on both architectures (little-endian, 64-bit, 8-byte alignment; the server
# checks pg_control). The root's postgres runs under qemu-aarch64-static: it forks its
# backends, it does not exec them. Clients are this machine's (or the x86-64 root's).
#
#   pg-arm64.sh make SUITE MAJOR         the root; prints its path
#   pg-arm64.sh pg-config SUITE MAJOR    a pg_config for builds here: the root's, under
#                                        qemu-user (it finds its paths from its own)
#   pg-arm64.sh start SUITE MAJOR PORT   initdb and start the server on 127.0.0.1; prints its URL
#   pg-arm64.sh stop SUITE MAJOR
set -euo pipefail
cmd=$1 suite=$2 major=$3
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=$repo/.pgroots/$suite-arm64
host_bin=/usr/lib/postgresql/$major/bin
if [ -x "$host_bin/initdb" ]; then x86=""; else x86=$repo/.pgroots/$suite; fi
data=$x86/var/lib/samekey-pg$major-arm64

make_root() {
  if [ -x "$root/usr/lib/postgresql/$major/bin/postgres" ]; then return; fi
  "$repo/scripts/setup-system.sh"  # debootstrap, qemu-user-static
  rm -rf "$root.tmp" && mkdir -p "$(dirname "$root")"
  # libc6-dev: bindgen parses the server headers with the root as its sysroot.
  debootstrap --foreign --arch=arm64 --variant=minbase \
    --include="postgresql-$major,postgresql-server-dev-$major,libicu-dev,libc6-dev" \
    "$suite" "$root.tmp" http://deb.debian.org/debian >&2
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
    # The newer majors' pg_config finds its paths from its own location, inside the root;
    # bullseye's 13 prints the installed ones: header paths are put inside the root.
    wrapper=$root/pg_config-$major
    cat > "$wrapper" <<EOF
#!/usr/bin/env bash
# pg_config of arm64 PostgreSQL $major in $root, under qemu-user (made by pg-arm64.sh).
out=\$(qemu-aarch64-static -L "$root" "$root/usr/lib/postgresql/$major/bin/pg_config" "\$@")
case "\${1:-}" in
  --includedir|--pkgincludedir|--includedir-server)
    case "\$out" in "$root"/*) echo "\$out" ;; *) echo "$root\$out" ;; esac ;;
  *) echo "\$out" ;;
esac
EOF
    chmod +x "$wrapper"
    echo "$wrapper"
    ;;
  start)
    port=$4
    make_root
    rm -rf "$data"
    if [ -z "$x86" ]; then
      install -d -o postgres -g postgres "$data"
      runuser -u postgres -- "$host_bin/initdb" -D "$data/cluster" -E UTF8 --locale=C.UTF-8 -A trust >/dev/null
    else
      "$repo/extensions/postgres/scripts/pg-root.sh" make "$suite" "$major" >/dev/null
      chroot "$x86" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 sh -c "install -d -o postgres -g postgres ${data#"$x86"} &&
        su postgres -s /bin/sh -c '$host_bin/initdb -D ${data#"$x86"}/cluster -E UTF8 --locale=C.UTF-8 -A trust'" >/dev/null
      chown -R postgres:postgres "$data"
    fi
    runuser -u postgres -- sh -c 'exec "$@" > "$0/server.log" 2>&1 < /dev/null &' "$data" \
      qemu-aarch64-static -L "$root" "$root/usr/lib/postgresql/$major/bin/postgres" -D "$data/cluster" \
      -c listen_addresses=127.0.0.1 -p "$port" -k "$data"
    for _ in $(seq 120); do
      grep -q "ready to accept connections" "$data/server.log" 2>/dev/null && break
      sleep 0.5
    done
    grep -q "ready to accept connections" "$data/server.log" || { cat "$data/server.log" >&2; exit 1; }
    grep -m1 "starting PostgreSQL" "$data/server.log" | sed 's/.*LOG: */pg-arm64: /' >&2
    echo "postgresql://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    # The postmaster is the qemu process that runs it: SIGINT is a fast shutdown.
    if [ -e "$data/cluster/postmaster.pid" ]; then
      pid=$(head -1 "$data/cluster/postmaster.pid")
      kill -INT "$pid" 2>/dev/null || true
      for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    fi
    ;;
  *) echo "usage: $0 make|pg-config|start|stop SUITE MAJOR [PORT]" >&2; exit 2 ;;
esac
