export PATH="$SAMEKEY/target/release:$PATH"
