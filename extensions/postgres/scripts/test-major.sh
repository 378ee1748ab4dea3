#!/usr/bin/env bash
# samekey for PostgreSQL MAJOR as a user of SUITE installs it: built here against the
# root's server headers (pg-root.sh), packaged as a tarball and a .deb, the .deb installed
# with `apt install ./file.deb` in the root (which holds nothing of the build), the root's
# server started on 127.0.0.1 and stopped on exit, `CREATE EXTENSION samekey` from the
# root's psql, then every vector through SQL from this machine (tests/test_vectors.py;
# SAMEKEY_VECTORS honoured).
#
#   scripts/test-major.sh SUITE MAJOR      (trixie 17, sid 18, ...)
set -euo pipefail
suite=$1 major=$2
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
root=$repo/.pgroots/$suite

pg_config=$("$ext/scripts/pg-root.sh" pg-config "$suite" "$major")
built=$("$ext/scripts/extension.sh" package-major "$major" "$pg_config")
deb=$(grep '\.deb$' <<<"$built")
echo "test-major: $(basename "$deb"), $(basename "$(grep '\.tar\.gz$' <<<"$built")") (glibc floor $(dpkg-deb -f "$deb" Depends | grep -o 'libc6 (>= [0-9.]*)'))"

# The package as apt installs it: a previous install is removed first.
chroot "$root" apt-get remove -y -qq "postgresql-$major-samekey" >/dev/null 2>&1 || true
cp "$deb" "$root/tmp/"
chroot "$root" env PATH=/usr/bin:/bin DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  --no-install-recommends "/tmp/$(basename "$deb")" >/dev/null
chroot "$root" dpkg -L "postgresql-$major-samekey" | grep -E 'samekey(\.so|\.control)$'

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
trap '"$ext/scripts/pg-root.sh" stop "$suite" "$major"' EXIT
url=$("$ext/scripts/pg-root.sh" start "$suite" "$major" "$port")
chroot "$root" su postgres -s /bin/sh -c "psql -h 127.0.0.1 -p $port -X -At -v ON_ERROR_STOP=1 \
  -c 'DROP EXTENSION IF EXISTS samekey' -c 'CREATE EXTENSION samekey' \
  -c \"SELECT 'test-major: psql in $suite: ' || version() || ', samekey ' || samekey_version()\""

test -x "$ext/.venv/bin/python" || python3 -m venv "$ext/.venv"
"$ext/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ext/tests/requirements.txt"
SAMEKEY_TEST_POSTGRES=$url "$ext/.venv/bin/python" -m pytest -q -p no:cacheprovider "$ext/tests/test_vectors.py"
