#!/usr/bin/env bash
# The extension just installed into a running server, checked from this machine: CREATE
# EXTENSION (its version() and samekey_version() printed after NAME), the pg_regress tests
# with that major's pg_regress (regress.sh), and every vector through SQL
# (tests/test_vectors.py; SAMEKEY_VECTORS honoured).
#
#   scripts/check-server.sh NAME URL SUITE MAJOR
set -euo pipefail
name=$1 url=$2 suite=$3 major=$4
ext=$(cd "$(dirname "$0")/.." && pwd)
psql "$url" -X -At -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION samekey' \
  -c "SELECT '$name: ' || version() || ', samekey ' || samekey_version()"
test -x "$ext/.venv/bin/python" || python3 -m venv "$ext/.venv"
"$ext/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ext/tests/requirements.txt"
"$ext/scripts/regress.sh" "$url" "$suite" "$major"
SAMEKEY_TEST_POSTGRES=$url "$ext/.venv/bin/python" -m pytest -q -p no:cacheprovider "$ext/tests/test_vectors.py"
