cargo new --quiet hello && cd hello
cargo add --quiet samekey --path "$SAMEKEY"/crates/samekey
