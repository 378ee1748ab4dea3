npm install "$SAMEKEY"/target/npm/samekey-0.2.0.tgz
