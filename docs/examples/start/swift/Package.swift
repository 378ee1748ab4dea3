// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "hello",
    dependencies: [
        // Before the first release, your checkout; once published, instead:
        // .package(url: "https://github.com/samekey/samekey", from: "0.2.0"),
        .package(path: Context.environment["SAMEKEY"]!),
    ],
    targets: [
        .executableTarget(name: "hello", dependencies: [.product(name: "Samekey", package: "samekey")]),
    ]
)
