#!/usr/bin/env bash
# Every Debian package any recipe needs, in one `apt-get install`, before any service
# starts. A package installed later, while a server runs, can upgrade that server's own
# files under it: on a new machine postgresql-server-dev-15 once upgraded postgresql-15
# from 15.18 to 15.20 while the 15.18 server of the tests was running, and it then failed
# to load 15.20's plpgsql.so. So nothing else installs system packages (scripts/
# check_system_installs.py checks it), and scripts/postgres.sh restarts a server whose
# binary was replaced.
#
#   scripts/setup-system.sh          install what is missing (all of the list together,
#                                    so the ones already present upgrade with them)
#   scripts/setup-system.sh --list   print the list
#
# Fast when everything is present: one dpkg-query, no network.
set -euo pipefail

packages=(
  postgresql postgresql-contrib   # the registry's, the examples' and the extension's server
  postgresql-server-dev-all       # the extension's headers, for the default major (pgrx)
  libclang-dev                    # pgrx's bindgen
  chromium                        # the WebAssembly package's and the registry's (CORS) browser tests
  valgrind                        # the C ABI's leak check, bench-instructions
  maven default-jdk-headless      # the Kotlin/JVM artifact, Spark's Java
  debootstrap                     # the Swift toolchain's root, the old-glibc and arm64 roots
  qemu-user-static                # aarch64 artifacts, run under emulation
  gcc-mingw-w64-x86-64            # the Windows target: its C build scripts and its linker
  file jq sqlite3 openssl curl    # artifact checks, bench-batch; the registry guides (backup, certificate, requests)
  musl-tools                      # musl-gcc: the JAR's musl library loaded by musl's loader
  rpm                             # rpmbuild: the PostgreSQL extension's RPM per major
  systemd                         # systemd-analyze: the registry guide's unit, verified
)

if [ "${1:-}" = --list ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

# dpkg-query names each package it knows with its state; one it does not know is missing.
find_missing() {
  local installed p
  installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null | awk '$2 == "ii" {print $1}' || true)
  missing=()
  for p in "${packages[@]}"; do
    grep -qx "$p" <<<"$installed" || missing+=("$p")
  done
}
find_missing
((${#missing[@]})) || exit 0

if [ "$(id -u)" != 0 ]; then
  echo "setup-system: missing Debian packages: ${missing[*]}" >&2
  echo "setup-system: run as root: apt-get install ${packages[*]}" >&2
  exit 1
fi
# Two recipes run side by side (a test beside a build) would race for apt's locks: one
# installs while the other waits here, then finds nothing missing.
exec 9>/var/lock/samekey-setup-system.lock
flock -w 900 9 || { echo "setup-system: another setup-system.sh held its lock for 15 minutes" >&2; exit 1; }
find_missing
((${#missing[@]})) || exit 0
echo "setup-system: installing ${missing[*]} (with the rest of the list, in one apt-get install)" >&2
export DEBIAN_FRONTEND=noninteractive
# Another apt (a second recipe, the machine's own updates) may hold dpkg's lock: wait for
# it, up to 10 minutes, instead of failing at the first look.
lock=(-o DPkg::Lock::Timeout=600)
apt-get "${lock[@]}" update -qq >/dev/null
apt-get "${lock[@]}" install -y -qq "${packages[@]}" >/dev/null
