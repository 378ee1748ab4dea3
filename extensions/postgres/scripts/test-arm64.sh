#!/usr/bin/env bash
# samekey for PostgreSQL MAJOR on aarch64, as its users install it: the tarball, .deb and
# RPM built here (extension.sh package-arm64: cross-built against that major's arm64
# server headers, linked for glibc 2.28); the .deb's architecture, dependency and floor,
# and the RPM against the .deb (check-rpm.sh); then the tarball installed as INSTALL.md
# says (extracted at a Debian release's arm64 root's /, or copied into PyPI's arm64 build
# of 14 or 16), that arm64 server started under qemu-user (pg-arm64.sh; stopped on exit),
# CREATE EXTENSION, the pg_regress tests and every vector through SQL from this machine
# (tests/test_vectors.py; SAMEKEY_VECTORS honoured).
#
#   scripts/test-arm64.sh [SUITE MAJOR]      (default bookworm 15; bullseye 13, pypi 14,
#                                             pypi 16, trixie 17, sid 18)
set -euo pipefail
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
suite=${1:-bookworm} major=${2:-15}
fail() { echo "test-arm64: $*" >&2; exit 1; }

built=$("$ext/scripts/extension.sh" package-arm64 "$suite" "$major")
tarball=$(grep '\.tar\.gz$' <<<"$built")
deb=$(grep '\.deb$' <<<"$built")
rpm=$(grep '\.rpm$' <<<"$built")
[ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ] || fail "$deb is not for arm64"
depends=$(dpkg-deb -f "$deb" Depends)
[ "$depends" = "postgresql-$major, libc6 (>= 2.28)" ] || fail "$deb depends on: $depends"
"$ext/scripts/check-rpm.sh" "$rpm" "$deb" "$major"
lib=$("$ext/scripts/pg-arm64.sh" install "$suite" "$major" "$tarball")
echo "test-arm64: $(basename "$tarball"): $(file -b "$lib" | cut -d, -f1-2), glibc $(objdump -T "$lib" | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1 | sed 's/GLIBC_//') at most; $(basename "$deb"), $(basename "$rpm")"

trap '"$ext/scripts/pg-arm64.sh" stop "$suite" "$major"' EXIT
url=$("$ext/scripts/pg-arm64.sh" start "$suite" "$major" "$("$repo/scripts/free-port.sh")")
"$ext/scripts/check-server.sh" test-arm64 "$url" "$suite" "$major"
