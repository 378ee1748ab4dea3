#!/usr/bin/env bash
# samekey for PostgreSQL on musl, as a user of the postgres:N-alpine images installs it:
# the musl tarball built here (extension.sh package-musl: against SUITE's MAJOR headers),
# its library checked to need musl's C library only, extracted into an Alpine build of the
# same major and architecture (pg-musl.sh: zonky's, from Maven Central, run here under
# musl's loader, for aarch64 under qemu-user; stopped on exit) as the image's /usr/local,
# then CREATE EXTENSION, the pg_regress tests and every vector through SQL from this
# machine (tests/test_vectors.py; SAMEKEY_VECTORS honoured).
#
#   scripts/test-musl.sh [SUITE MAJOR [ARCH]]   (default bookworm 15 x86_64; bullseye 13,
#                                                pypi 14, pypi 16, trixie 17, sid 18;
#                                                aarch64: pypi 16)
set -euo pipefail
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
fail() { echo "test-musl: $*" >&2; exit 1; }

suite=${1:-bookworm} major=${2:-15} arch=${3:-x86_64}
tarball=$("$ext/scripts/extension.sh" package-musl "$suite" "$major" "$arch" | tail -1)
lib=$("$ext/scripts/pg-musl.sh" "$arch" "$major" install "$tarball")
needed=$(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so " ] || fail "$(basename "$tarball")'s library needs: $needed"
machine=$(readelf -h "$lib" | sed -n 's/^ *Machine: *//p')
case "$arch:$machine" in x86_64:*X86-64 | aarch64:AArch64) ;; *) fail "$(basename "$tarball")'s library is for $machine" ;; esac
echo "test-musl: $(basename "$tarball"): $(file -b "$lib" | cut -d, -f1-2), needs $needed(musl's)"

trap '"$ext/scripts/pg-musl.sh" "$arch" "$major" stop' EXIT
url=$("$ext/scripts/pg-musl.sh" "$arch" "$major" start "$("$repo/scripts/free-port.sh")")
"$ext/scripts/check-server.sh" test-musl "$url" "$suite" "$major"
