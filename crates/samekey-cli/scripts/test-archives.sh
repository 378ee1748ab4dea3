#!/usr/bin/env bash
# Runs the CLI release archives of target/dist/cli where this machine can: the vectors
# through `samekey vectors`, with nothing of the build on PATH. x86_64 glibc: in the Debian
# bullseye root (glibc 2.31); x86_64 musl: here, static; aarch64: under qemu-user (musl:
# static; glibc: with the bookworm arm64 root's libraries). The rest is checked by
# crates/samekey-cli/scripts/check_archives.py. SAMEKEY_VECTORS names another vector file.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
scripts/setup-system.sh  # qemu-user-static, file
vectors=$(realpath "${SAMEKEY_VECTORS:-test-vectors/samekey.json}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ran=0
for archive in target/dist/cli/*.tar.gz; do
  name=$(basename "$archive" .tar.gz)
  tar -C "$work" -xzf "$archive"
  bin="$work/$name/samekey"
  case "$name" in
    *-x86_64-unknown-linux-gnu)
      root=$(scripts/old-glibc-root.sh)
      cp "$bin" "$root/tmp/samekey" && cp "$vectors" "$root/tmp/samekey-vectors.json"
      out=$(unshare -m chroot "$root" env -i PATH=/usr/bin:/bin /tmp/samekey vectors /tmp/samekey-vectors.json)
      where="bullseye root, $(unshare -m chroot "$root" ldd --version | head -1 | grep -o 'GLIBC [0-9.]*')" ;;
    *-x86_64-unknown-linux-musl)
      out=$(env -i PATH=/usr/bin:/bin "$bin" vectors "$vectors")
      where="here, $(file -b "$bin" | grep -o 'static[a-z-]* linked')" ;;
    *-aarch64-unknown-linux-musl)
      out=$(env -i PATH=/usr/bin:/bin qemu-aarch64-static "$bin" vectors "$vectors")
      where="qemu-user, static" ;;
    *-aarch64-unknown-linux-gnu)
      arm=$(scripts/arm64-root.sh)
      out=$(env -i PATH=/usr/bin:/bin qemu-aarch64-static -L "$arm" "$bin" vectors "$vectors")
      where="qemu-user, bookworm arm64's glibc" ;;
    *) echo "$name: built, not run here"; continue ;;
  esac
  echo "$name ($where): $out"
  echo "$out" | grep -qE '^[1-9][0-9]* passed, 0 failed$' || exit 1
  ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || { echo "no CLI archive could run here"; exit 1; }

# The site's install lines (docs/examples/install/cli.sh) as a reader runs them, the
# release page's URL made this directory's: download, unpack, install into ~/.local/bin.
home="$work/home"
mkdir -p "$home/download"
sed "s|https://github.com/samekey/samekey/releases/download/v[^/]*/|file://$PWD/target/dist/cli/|" \
  docs/examples/install/cli.sh > "$work/install-cli.sh"
grep -q "file://" "$work/install-cli.sh" || { echo "no release URL in docs/examples/install/cli.sh"; exit 1; }
(cd "$home/download" && HOME="$home" bash -euo pipefail "$work/install-cli.sh")
echo "the site's install lines: $("$home/.local/bin/samekey" --version)"
