#!/usr/bin/env bash
# samekey for PostgreSQL on musl, as a user of the postgres:N-alpine images installs it:
# the musl tarball built here (extension.sh package-musl: this machine's major), its
# library checked to need musl's C library only, extracted into an Alpine build of the
# same major (pg-musl.sh: zonky's, from Maven Central, run here under musl's loader;
# stopped on exit) as the image's /usr/local, then CREATE EXTENSION, the pg_regress tests
# and every vector through SQL from this machine (tests/test_vectors.py; SAMEKEY_VECTORS
# honoured).
#
#   scripts/test-musl.sh
set -euo pipefail
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
fail() { echo "test-musl: $*" >&2; exit 1; }

tarball=$("$ext/scripts/extension.sh" package-musl | tail -1)
major=$(basename "$tarball" | sed -E 's/^samekey-pg([0-9]+)-.*/\1/')
lib=$("$ext/scripts/pg-musl.sh" "$major" install "$tarball")
needed=$(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so " ] || fail "$(basename "$tarball")'s library needs: $needed"
echo "test-musl: $(basename "$tarball"): $(file -b "$lib" | cut -d, -f1-2), needs $needed(musl's)"

trap '"$ext/scripts/pg-musl.sh" "$major" stop' EXIT
url=$("$ext/scripts/pg-musl.sh" "$major" start "$("$repo/scripts/free-port.sh")")
psql "$url" -X -At -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION samekey' \
  -c "SELECT 'test-musl: ' || version() || ', samekey ' || samekey_version()"
test -x "$ext/.venv/bin/python" || python3 -m venv "$ext/.venv"
"$ext/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ext/tests/requirements.txt"
PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config "$ext/scripts/regress.sh" "$url"
SAMEKEY_TEST_POSTGRES=$url "$ext/.venv/bin/python" -m pytest -q -p no:cacheprovider "$ext/tests/test_vectors.py"
