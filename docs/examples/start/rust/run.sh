cargo run --quiet
