#!/usr/bin/env bash
# ALTER EXTENSION samekey UPDATE from the previous release, as a DBA upgrades: the 0.1.0
# tarball installed and `CREATE EXTENSION samekey` run (version 0.1.0, with a table whose
# generated ids and index use it), then this tree's tarball installed over it (the .so
# replaced, the upgrade scripts beside it), then tests/test_upgrade.py: the update, the
# catalog equal to a fresh install's, the stored ids unchanged, every vector through SQL.
#
# 0.1.0 was never published: its tarball is built here from the commit that was 0.1.0
# (the last before the version became 0.2.0) by `cargo pgrx package` against the
# machine's PostgreSQL (15), linked on this machine as that commit's `extension.sh
# install` linked it, with the same INSTALL.md and usr/ layout.
#
#   scripts/test-upgrade.sh
set -euo pipefail
old_version=0.1.0
old_commit=f49b5f91f1282b9dd2ac3f8daf72d56cfc5a5703
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
major=$(ls -d /usr/lib/postgresql/*/bin | sed -E 's#.*/([0-9]+)/bin$#\1#' | sort -n | tail -1)
pg_config=/usr/lib/postgresql/$major/bin/pg_config

# This tree's tarball, installed (extension.sh install: the tools, cargo-pgrx, the
# machine's server headers), and the project's server.
"$ext/scripts/extension.sh" install
new_tarball=$(ls "$repo"/target/dist/postgres/samekey-pg"$major"-*-linux-"$(uname -m)".tar.gz)
url=${SAMEKEY_TEST_POSTGRES:-$("$repo/scripts/postgres.sh")}

old=$repo/target/postgres/upgrade-from-$old_version
old_tarball=$old/samekey-pg$major-$old_version-linux-$(uname -m).tar.gz
if [ ! -e "$old_tarball" ]; then
  git -C "$repo" cat-file -e "$old_commit^{commit}" 2>/dev/null ||
    { echo "test-upgrade: $old_version's commit $old_commit is not in this clone (shallow?): git fetch --unshallow" >&2; exit 1; }
  rm -rf "$old/src" && mkdir -p "$old/src"
  git -C "$repo" archive "$old_commit" | tar -C "$old/src" -x
  (cd "$old/src/extensions/postgres" && CARGO_TARGET_DIR=$old/target \
    cargo pgrx package --pg-config "$pg_config" --out-dir "$old/stage" >&2)
  cp "$old/src/extensions/postgres/INSTALL.md" "$old/stage/"
  tar -C "$old/stage" -czf "$old_tarball" --owner=0 --group=0 INSTALL.md usr
fi

# The old release as INSTALL.md installs it; the test installs the new one over it.
tar -C / -xzf "$old_tarball" --no-overwrite-dir usr
trap 'tar -C / -xzf "$new_tarball" --no-overwrite-dir usr' EXIT  # as the other tests expect
test -x "$ext/.venv/bin/python" || python3 -m venv "$ext/.venv"
"$ext/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ext/tests/requirements.txt"
SAMEKEY_TEST_POSTGRES=$url SAMEKEY_UPGRADE_FROM=$old_version SAMEKEY_UPGRADE_TARBALL=$new_tarball \
  "$ext/.venv/bin/python" -m pytest -q -p no:cacheprovider "$ext/tests/test_upgrade.py"
