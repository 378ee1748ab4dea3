#!/usr/bin/env bash
# The samekey command as release archives in target/dist/cli: samekey-<version>-<target>
# .tar.gz (.zip for Windows), each holding the binary, its README and the licences. Linux
# and macOS binaries are cross-built with cargo-zigbuild (glibc builds need 2.17; musl
# builds are static), Windows with Debian's mingw-w64.
#
#   scripts/dist-cli.sh [target...]     (every release target by default)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/target/dist-tools/bin:$PATH"
out="$PWD/target/dist/cli"
version=$(grep -m1 '^version = ' Cargo.toml | cut -d'"' -f2)
all=(x86_64-unknown-linux-gnu.2.17 aarch64-unknown-linux-gnu.2.17 x86_64-unknown-linux-musl
     aarch64-unknown-linux-musl x86_64-apple-darwin aarch64-apple-darwin x86_64-pc-windows-gnu)
mkdir -p "$out"

# stub DIR NAME SYMBOL...: a text-based stub of /System/Library/Frameworks/NAME.framework.
stub() {
  local dir="$1/$2.framework" name=$2; shift 2
  mkdir -p "$dir"
  cat > "$dir/$name.tbd" <<TBD
--- !tapi-tbd
tbd-version: 4
targets: [ x86_64-macos, arm64-macos ]
install-name: '/System/Library/Frameworks/$name.framework/Versions/A/$name'
exports:
  - targets: [ x86_64-macos, arm64-macos ]
    symbols: [ $(IFS=,; echo "$*" | sed 's/,/, /g') ]
...
TBD
}

for target in "${@:-${all[@]}}"; do
  triple=${target%.2.17}
  rustup target list --installed | grep -qx "$triple" || rustup target add "$triple" >/dev/null
  echo "dist-cli: $target" >&2
  case "$triple" in
    *-windows-gnu)
      command -v x86_64-w64-mingw32-gcc >/dev/null || apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
      cargo build --quiet --release --locked -p samekey-cli --target "$triple"
      exe=samekey.exe ;;
    *-apple-darwin)
      # Without it zig stamps its newest macOS as the minimum; these are rustc's own floors.
      if [[ $triple == aarch64-* ]]; then floor=11.0; else floor=10.12; fi
      # zig has no macOS SDK frameworks; whoami (PostgreSQL's default user name, through sqlx)
      # links two. Text stubs naming the system frameworks and the symbols it uses stand in.
      frameworks="$PWD/target/macos-frameworks"
      stub "$frameworks" CoreFoundation _CFStringGetCString _CFStringGetLength _CFStringGetMaximumSizeForEncoding _CFRelease
      stub "$frameworks" SystemConfiguration _SCDynamicStoreCopyComputerName
      MACOSX_DEPLOYMENT_TARGET=$floor RUSTFLAGS="-C link-arg=-F$frameworks" \
        cargo zigbuild --quiet --release --locked -p samekey-cli --target "$target"
      exe=samekey ;;
    *)
      cargo zigbuild --quiet --release --locked -p samekey-cli --target "$target"
      exe=samekey ;;
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
