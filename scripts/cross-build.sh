# Sourced by the dist scripts: one way to cross-build a release artifact's Rust crate.
#
#   cross_build PACKAGE TARGET [CARGO_ARGS...]
#
# TARGET is a Rust triple, for Linux GNU with cargo-zigbuild's glibc suffix (.2.17).
# Linux and macOS build with cargo-zigbuild (zig from target/dist-tools), Windows with
# Debian's mingw-w64. Output: target/<triple>/release/.
cross_build() {
  local package=$1 target=$2
  shift 2
  local triple=${target%.2.17}
  rustup target list --installed | grep -qx "$triple" || rustup target add "$triple" >/dev/null
  case "$triple" in
    *-windows-gnu)
      "$(dirname "${BASH_SOURCE[0]}")/setup-system.sh"  # mingw-w64
      cargo build --quiet --release --locked -p "$package" --target "$triple" "$@" ;;
    *-apple-darwin)
      # zig would otherwise stamp its newest macOS as the minimum; these are rustc's floors.
      local floor=10.12
      [[ $triple == aarch64-* ]] && floor=11.0
      MACOSX_DEPLOYMENT_TARGET=$floor cargo zigbuild --quiet --release --locked -p "$package" --target "$target" "$@" ;;
    *)
      cargo zigbuild --quiet --release --locked -p "$package" --target "$target" "$@" ;;
  esac
}

# macos_frameworks: prints a directory (for -F) of text stubs of the macOS system
# frameworks our links need, since zig has no SDK frameworks: CoreFoundation for whoami
# (PostgreSQL's default user name, through sqlx: the CLI) and for iana-time-zone (chrono,
# through arrow: the Python wheel), SystemConfiguration for whoami. A symbol missing here
# fails the link by name.
macos_frameworks() {
  local dir
  dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/macos-frameworks"
  tbd_stub "$dir/CoreFoundation.framework/CoreFoundation.tbd" \
    /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation \
    _CFRelease _CFStringGetBytes _CFStringGetCString _CFStringGetCStringPtr _CFStringGetLength \
    _CFStringGetMaximumSizeForEncoding _CFTimeZoneCopySystem _CFTimeZoneGetName _CFTimeZoneResetSystem
  tbd_stub "$dir/SystemConfiguration.framework/SystemConfiguration.tbd" \
    /System/Library/Frameworks/SystemConfiguration.framework/Versions/A/SystemConfiguration \
    _SCDynamicStoreCopyComputerName
  echo "$dir"
}

# tbd_stub FILE INSTALL-NAME SYMBOL...: a text-based stub of a macOS system library (as the
# SDK's own .tbd files are), naming the symbols a link needs: zig carries libSystem's
# stubs but no SDK frameworks or libresolv.
tbd_stub() {
  local file=$1 name=$2
  shift 2
  mkdir -p "$(dirname "$file")"
  printf -- "--- !tapi-tbd\ntbd-version: 4\ntargets: [ x86_64-macos, arm64-macos ]\ninstall-name: '%s'\nexports:\n  - targets: [ x86_64-macos, arm64-macos ]\n    symbols: [ %s ]\n...\n" \
    "$name" "$(IFS=,; echo "$*" | sed 's/,/, /g')" > "$file"
}
