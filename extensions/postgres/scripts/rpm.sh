#!/usr/bin/env bash
# An RPM of one major's extension, named and laid out as PostgreSQL's RPM repositories
# (PGDG) do theirs: samekey_MAJOR-VERSION-1.ARCH.rpm, files under /usr/pgsql-MAJOR,
# requiring postgresql MAJOR's server; rpmbuild adds the glibc symbol versions the library
# binds (its floor) to the requirements. rpm/samekey.spec says how.
#
#   rpm.sh STAGE MAJOR VERSION OUT_DIR    STAGE: cargo pgrx package's usr/ tree
set -euo pipefail
stage=$(realpath "$1") major=$2 version=$3 out=$4
ext=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$ext/../.." && pwd)
lib=$stage/usr/lib/postgresql/$major/lib/samekey.so
case "$(file -b "$lib")" in
  *x86-64*) arch=x86_64 ;;
  *aarch64*) arch=aarch64 ;;
  *) echo "rpm: $lib is $(file -b "$lib" 2>&1)" >&2; exit 1 ;;
esac
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
mkdir -p "$out"
rpmbuild -bb --quiet --target "$arch" --define "_topdir $top" --define "_rpmdir $top/out" \
  --define "pgmajor $major" --define "samekey_version $version" \
  --define "stage $stage" --define "licenses $repo" "$ext/rpm/samekey.spec" >&2
rpm=samekey_$major-$version-1.$arch.rpm
mv "$top/out/$arch/$rpm" "$out/$rpm"
echo "$out/$rpm"
