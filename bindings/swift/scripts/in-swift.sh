#!/usr/bin/env bash
# Runs a command with a Swift toolchain: the machine's swift, or else the one in
# the swift root (Debian trixie's swiftlang, `just swift::setup`), in a chroot with the
# repository bind-mounted at the same path. The core is found through pkg-config in
# target/swift-sdk (bindings/swift/scripts/dist.sh --host); SAMEKEY_VECTORS passes through
# (a file outside the repository is copied where the chroot sees it).
#
#   bindings/swift/scripts/in-swift.sh DIR COMMAND...
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
root=${SAMEKEY_SWIFT_ROOT:-$HOME/.cache/samekey/swiftroot-trixie}  # just swift::setup
sdk="$repo/target/swift-sdk"
dir=$1; shift
vectors=${SAMEKEY_VECTORS:-}
if command -v swift >/dev/null 2>&1; then
  cd "$dir" && exec env PKG_CONFIG_PATH="$sdk/lib/pkgconfig" SAMEKEY_VECTORS="$vectors" "$@"
fi
case "$vectors" in "" | "$repo"/*) ;; *) cp "$vectors" "$root/tmp/samekey-vectors.json"; vectors=/tmp/samekey-vectors.json ;; esac
exec unshare -m bash -euo pipefail -c '
  root=$1 repo=$2 dir=$3 sdk=$4 vectors=$5; shift 5
  mkdir -p "$root$repo" && mount --bind "$repo" "$root$repo"
  mkdir -p "$root/proc" && mount -t proc proc "$root/proc"
  chroot "$root" env HOME=/root PATH=/usr/bin:/bin:/usr/libexec/swift/bin PKG_CONFIG_PATH="$sdk/lib/pkgconfig" \
    SAMEKEY_VECTORS="$vectors" bash -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"
' _ "$root" "$repo" "$dir" "$sdk" "$vectors" "$@"
