#!/usr/bin/env bash
# The RPM of one major checked against the .deb of the same build (no RPM distribution's
# registry is reachable here, so it is built, not installed on RHEL): PGDG's name and
# layout (/usr/pgsql-MAJOR), a requirement on postgresql MAJOR's server, no glibc symbol
# version newer than the .deb's floor, the licences, and the same bytes as the .deb for
# every file the server reads. Then rpm itself installs it into an empty root (its own
# database, --nodeps: no RHEL packages there) and verifies every file.
#
#   check-rpm.sh RPM DEB MAJOR
set -euo pipefail
rpm=$1 deb=$2 major=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-rpm: $*" >&2; exit 1; }

[ "$(rpm -qp --qf '%{NAME}' "$rpm")" = "samekey_$major" ] || fail "$rpm is not named samekey_$major"
requires=$(rpm -qpR "$rpm")
grep -qx "postgresql$major-server" <<<"$requires" || fail "no requirement on postgresql$major-server: $requires"
floor=$(dpkg-deb -f "$deb" Depends | sed -n 's/.*libc6 (>= \([0-9.]*\)).*/\1/p')
newest=$(grep -o 'GLIBC_[0-9.]*' <<<"$requires" | sed 's/GLIBC_//' | sort -V | tail -1)
[ "$(printf '%s\n%s\n' "$newest" "$floor" | sort -V | tail -1)" = "$floor" ] || fail "needs glibc $newest, the .deb says $floor"

mkdir "$work/rpm" "$work/deb"
rpm2archive - < "$rpm" | tar -C "$work/rpm" -xz
dpkg-deb -x "$deb" "$work/deb"
for f in "$work/deb/usr/lib/postgresql/$major/lib/samekey.so" "$work/deb/usr/share/postgresql/$major/extension/"samekey*; do
  name=$(basename "$f")
  case "$name" in *.so) in_rpm=$work/rpm/usr/pgsql-$major/lib/$name ;; *) in_rpm=$work/rpm/usr/pgsql-$major/share/extension/$name ;; esac
  cmp -s "$f" "$in_rpm" || fail "$name differs from the .deb's (or is missing at ${in_rpm#"$work/rpm"})"
done
for l in LICENSE-MIT LICENSE-APACHE; do
  [ -s "$work/rpm/usr/share/licenses/samekey_$major/$l" ] || fail "no /usr/share/licenses/samekey_$major/$l"
done
extra=$(cd "$work/rpm" && find . -type f | grep -v -e "^./usr/pgsql-$major/" -e "^./usr/share/licenses/samekey_$major/" || true)
[ -z "$extra" ] || fail "files outside the PGDG layout: $extra"

mkdir "$work/root"
# (Debian's rpm warns that it does not manage this system's packages: not its job here.)
rpm --root "$work/root" --initdb 2>/dev/null
rpm --root "$work/root" --nodeps --ignorearch --quiet -i "$rpm" 2>/dev/null  # an aarch64 RPM too
rpm --root "$work/root" -V --nodeps "samekey_$major" || fail "rpm -V found changed files"
echo "check-rpm: $(basename "$rpm"): $(rpm -qpl "$rpm" | grep -c "^/usr/pgsql-$major/") files under /usr/pgsql-$major, the .deb's bytes, requires postgresql$major-server and glibc <= $floor (GLIBC_$newest); installed and verified by rpm in an empty root"
