#!/usr/bin/env bash
# A Debian package of one major's extension, named as Debian and PostgreSQL's apt
# repository name theirs (postgresql-17-pgvector): postgresql-MAJOR-samekey_VERSION-1_ARCH.deb,
# depending on postgresql-MAJOR and on the glibc its library needs, with the licenses.
#
#   deb.sh STAGE MAJOR VERSION OUT_DIR    STAGE: cargo pgrx package's usr/ tree
set -euo pipefail
stage=$1 major=$2 version=$3 out=$4
repo=$(cd "$(dirname "$0")/../../.." && pwd)
lib=$stage/usr/lib/postgresql/$major/lib/samekey.so
test -f "$lib" || { echo "deb: no $lib" >&2; exit 1; }
case "$(file -b "$lib")" in
  *x86-64*) arch=amd64 ;;
  *aarch64*) arch=arm64 ;;
  *) echo "deb: $lib is $(file -b "$lib")" >&2; exit 1 ;;
esac
pkg=postgresql-$major-samekey
# The newest glibc symbol version the library binds: its floor.
glibc=$(objdump -T "$lib" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
cp -a "$stage/usr" "$work/usr"
doc=$work/usr/share/doc/$pkg
mkdir -p "$doc" "$work/DEBIAN"
cp "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$doc/"
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: samekey
Source: https://github.com/samekey/samekey

Files: *
Copyright: The samekey developers
License: MIT or Apache-2.0
 The full texts are LICENSE-MIT and LICENSE-APACHE in this directory.
EOF
cat > "$work/DEBIAN/control" <<EOF
Package: $pkg
Version: $version-1
Architecture: $arch
Maintainer: The samekey developers <samekey@users.noreply.github.com>
Installed-Size: $(du -sk "$work/usr" | cut -f1)
Depends: postgresql-$major, libc6 (>= $glibc)
Section: database
Priority: optional
Homepage: https://github.com/samekey/samekey
Description: samekey for PostgreSQL $major: deterministic ULIDs and content hashes
 The same deterministic ULIDs, content hashes and revision keys as samekey derives
 in every other language, as SQL functions (CREATE EXTENSION samekey).
EOF
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --build "$work" "$out/${pkg}_${version}-1_${arch}.deb" >/dev/null
echo "$out/${pkg}_${version}-1_${arch}.deb"
