#!/usr/bin/env bash
# A Debian bookworm arm64 root with its python3.11 and pip, for running aarch64 artifacts
# under qemu-user (qemu-aarch64-static -L <root>), on a machine with no binfmt_misc: the
# packages are unpacked, not configured (debootstrap --foreign, then dpkg-deb -x), which
# is enough to run Python. Installs qemu-user-static from Debian's packages if missing.
# Prints the root's path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)/.distroot/bookworm-arm64"
if [ -x "$root/usr/bin/python3.11" ]; then echo "$root"; exit 0; fi
"$(dirname "$0")/setup-system.sh"  # debootstrap, qemu-user-static
rm -rf "$root.tmp" && mkdir -p "$(dirname "$root")"
debootstrap --foreign --arch=arm64 --variant=minbase --include=python3.11,python3-pip \
  bookworm "$root.tmp" http://deb.debian.org/debian >&2
for deb in "$root.tmp"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$root.tmp"; done
qemu-aarch64-static -L "$root.tmp" "$root.tmp/usr/bin/python3.11" -c 'import ssl, zlib, ctypes' >&2
mv "$root.tmp" "$root"
echo "$root"
