npm install "$SAMEKEY"/target/npm/samekey-wasm-0.2.0.tgz
