export PKG_CONFIG_PATH="$SAMEKEY/target/swift-sdk/lib/pkgconfig"
