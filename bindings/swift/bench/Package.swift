// swift-tools-version:5.9
// `just swift::bench`: the Swift API's cost per id against the core's own C calls in the
// same process, release-built, as a user's package depends on Samekey (by path here).
import PackageDescription

let package = Package(
    name: "SamekeyBench",
    dependencies: [.package(name: "samekey", path: "../../..")],
    targets: [
        .executableTarget(name: "SamekeyBench", dependencies: [.product(name: "Samekey", package: "samekey")]),
        // `just bench-matrix`'s Swift column (bench/matrix/protocol.md).
        .executableTarget(name: "SamekeyMatrix", dependencies: [.product(name: "Samekey", package: "samekey")]),
    ]
)
