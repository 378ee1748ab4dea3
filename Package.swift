// swift-tools-version:5.9
// The Swift package Samekey, at the repository root so that it can be a remote dependency:
//   .package(url: "https://github.com/samekey/samekey", from: "0.2.0")
// Its Swift API (bindings/swift/Sources/Samekey) calls the core's C ABI (crates/samekey-ffi,
// the one the Go package calls) through the module SamekeyFFI: no generated code. The core
// arrives as a static library, without unsafeFlags (which SwiftPM refuses in a versioned
// dependency):
//   - Linux: a system library found through pkg-config (samekey-ffi.pc), installed
//     from the release's samekey-swift-<version>-linux-<arch>.tar.gz (bindings/swift/README.md).
//   - Apple platforms: an XCFramework the release workflow builds on macOS and attaches
//     to the GitHub release (`just swift::xcframework`); the tagged release commit sets
//     the two constants below (`cargo xtask swift-release VERSION CHECKSUM`).
//     SAMEKEY_XCFRAMEWORK=<path> uses a local one instead (the release's own test).
import Foundation
import PackageDescription

// The release whose XCFramework Apple platforms download, and that file's checksum
// (`swift package compute-checksum`). Written by the release workflow only.
let xcframeworkRelease = "v0.1.0"
let xcframeworkChecksum = "0000000000000000000000000000000000000000000000000000000000000000"

#if os(Linux)
let core: Target = .systemLibrary(
    name: "SamekeyFFI",
    path: "bindings/swift/Sources/SamekeyFFI",
    pkgConfig: "samekey-ffi"
)
#else
let core: Target = ProcessInfo.processInfo.environment["SAMEKEY_XCFRAMEWORK"].map {
    .binaryTarget(name: "SamekeyFFI", path: $0)
} ?? .binaryTarget(
    name: "SamekeyFFI",
    url: "https://github.com/samekey/samekey/releases/download/\(xcframeworkRelease)/SamekeyFFI.xcframework.zip",
    checksum: xcframeworkChecksum
)
#endif

let package = Package(
    name: "Samekey",
    platforms: [.macOS(.v10_15), .iOS(.v13)],
    products: [
        .library(name: "Samekey", targets: ["Samekey"]),
    ],
    targets: [
        core,
        .target(name: "Samekey", dependencies: ["SamekeyFFI"], path: "bindings/swift/Sources/Samekey"),
        .testTarget(name: "SamekeyTests", dependencies: ["Samekey"], path: "bindings/swift/Tests/SamekeyTests"),
    ]
)
