#!/usr/bin/env bash
# macOS only (xcodebuild, lipo): the Apple platforms' core as an XCFramework of static
# libraries (macOS universal, iOS, iOS simulator universal) with the generated header and
# module map, zipped into target/dist/swift/SamekeyFFI.xcframework.zip with its SwiftPM
# checksum beside it (.checksum); then the package's tests against it, through
# SAMEKEY_XCFRAMEWORK (Package.swift), not a rewritten manifest.
set -euo pipefail
cd "$(dirname "$0")/../../.."  # the repository
[ "$(uname -s)" = Darwin ] || { echo "xcframework: needs macOS (xcodebuild, lipo)" >&2; exit 1; }
build=target/xcframework
out=target/dist/swift
rm -rf "$build" && mkdir -p "$build"/{macos,ios-sim,ios,headers} "$out"
for t in aarch64-apple-darwin x86_64-apple-darwin aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios; do
  rustup target add "$t" >/dev/null
  cargo build --release --locked -p samekey-ffi --lib --target "$t"
done
lib=release/libsamekey_ffi.a
lipo -create "target/aarch64-apple-darwin/$lib" "target/x86_64-apple-darwin/$lib" -output "$build/macos/libsamekey_ffi.a"
lipo -create "target/aarch64-apple-ios-sim/$lib" "target/x86_64-apple-ios/$lib" -output "$build/ios-sim/libsamekey_ffi.a"
cp "target/aarch64-apple-ios/$lib" "$build/ios/"
cp bindings/swift/Sources/SamekeyFFI/samekey.h bindings/swift/Sources/SamekeyFFI/module.modulemap "$build/headers/"
xcodebuild -create-xcframework \
  -library "$build/macos/libsamekey_ffi.a" -headers "$build/headers" \
  -library "$build/ios/libsamekey_ffi.a" -headers "$build/headers" \
  -library "$build/ios-sim/libsamekey_ffi.a" -headers "$build/headers" \
  -output "$build/SamekeyFFI.xcframework"
rm -f "$out/SamekeyFFI.xcframework.zip"
(cd "$build" && zip -qry "$OLDPWD/$out/SamekeyFFI.xcframework.zip" SamekeyFFI.xcframework)
swift package compute-checksum "$out/SamekeyFFI.xcframework.zip" > "$out/SamekeyFFI.xcframework.zip.checksum"
SAMEKEY_XCFRAMEWORK="$build/SamekeyFFI.xcframework" swift test
echo "xcframework: $out/SamekeyFFI.xcframework.zip, checksum $(cat "$out/SamekeyFFI.xcframework.zip.checksum"), tests passed"
