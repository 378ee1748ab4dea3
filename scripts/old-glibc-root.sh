#!/usr/bin/env bash
# A Debian bullseye root (glibc 2.31, older than the 2.34 that this machine's builds need)
# with a CPython 3.11 built inside it, for installing samekey as a user of an older Linux
# would. Bullseye's own python3 is 3.9, below the abi3 floor of pyo3 0.30 (3.10), so the
# interpreter is built in the root from Debian's own python3.11 source (bookworm), against
# the root's glibc. Needs root, unshare, debootstrap and Debian's mirror; ~8 min, cached.
# Prints the root's path.
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)/.distroot/bullseye}"
if [ -e "$root/.ready" ]; then echo "$root"; exit 0; fi
mirror=http://deb.debian.org/debian
tarball=python3.11_3.11.2.orig.tar.gz
sha256=2411c74bda5bbcfcddaf4531f66d1adc73f247f529aee981b029513aefdbf849
"$(dirname "$0")/setup-system.sh"  # debootstrap
rm -rf "$root.tmp" && mkdir -p "$(dirname "$root")"
debootstrap --variant=minbase --include=gcc,make,libc6-dev,libssl-dev,zlib1g-dev,libffi-dev \
  bullseye "$root.tmp" "$mirror" >&2
curl -fsS -o "$root.tmp/tmp/$tarball" "$mirror/pool/main/p/python3.11/$tarball"
echo "$sha256  $root.tmp/tmp/$tarball" | sha256sum -c --quiet
unshare -m bash -euo pipefail -c '
  mkdir -p "$1/proc" && mount -t proc proc "$1/proc"
  chroot "$1" env -i HOME=/root PATH=/usr/bin:/bin bash -euo pipefail -c "
    cd /tmp && tar xzf '"$tarball"' && cd Python-3.11.2
    ./configure --prefix=/opt/python3.11 --with-ensurepip=install >/dev/null
    make -j\$(nproc) >/dev/null 2>&1 && make altinstall >/dev/null 2>&1
    cd / && rm -rf /tmp/Python-3.11.2 /tmp/'"$tarball"'
    /opt/python3.11/bin/python3.11 -c \"import ssl, zlib, ctypes, sqlite3\" 2>/dev/null || /opt/python3.11/bin/python3.11 -c \"import ssl, zlib, ctypes\"
  "
' _ "$root.tmp" >&2
touch "$root.tmp/.ready" && mv "$root.tmp" "$root"
echo "$root"
