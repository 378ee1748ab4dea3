bindings/swift/scripts/dist.sh --host target/swift-sdk
