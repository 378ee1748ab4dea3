#!/usr/bin/env bash
# The samekey command as release archives in target/dist/cli: samekey-<version>-<target>
# .tar.gz (.zip for Windows), each holding the binary, its README and the licences. Linux
# and macOS binaries are cross-built with cargo-zigbuild (glibc builds need 2.17; musl
# builds are static), Windows with Debian's mingw-w64.
#
#   crates/samekey-cli/scripts/dist.sh [target...]     (every release target by default)
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
export PATH="$PWD/target/dist-tools/bin:$PATH"
. scripts/cross-build.sh
out="$PWD/target/dist/cli"
version=$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)
all=(x86_64-unknown-linux-gnu.2.17 aarch64-unknown-linux-gnu.2.17 x86_64-unknown-linux-musl
     aarch64-unknown-linux-musl x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu)
mkdir -p "$out"

for target in "${@:-${all[@]}}"; do
  triple=${target%.2.17}
  echo "dist-cli: $target" >&2
  exe=samekey
  case "$triple" in
    *-windows-gnu)
      cross_build samekey-cli "$target"
      exe=samekey.exe ;;
    *-apple-darwin)
      RUSTFLAGS="-C link-arg=-F$(macos_frameworks)" cross_build samekey-cli "$target" ;;
    *)
      cross_build samekey-cli "$target" ;;
  esac
  name="samekey-$version-$triple"
  stage=$(mktemp -d)
  mkdir "$stage/$name"
  cp "target/$triple/release/$exe" crates/samekey-cli/README.md LICENSE-MIT LICENSE-APACHE "$stage/$name/"
  rm -f "$out/$name".*
  if [[ $triple == *windows* ]]; then
    (cd "$stage" && python3 -m zipfile -c "$out/$name.zip" "$name")
  else
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$out/$name.tar.gz" "$name"
  fi
  rm -rf "$stage"
done
ls -l "$out"
