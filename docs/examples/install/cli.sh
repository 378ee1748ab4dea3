curl -fLO https://github.com/samekey/samekey/releases/download/v0.2.0/samekey-0.2.0-x86_64-unknown-linux-musl.tar.gz
tar xzf samekey-0.2.0-x86_64-unknown-linux-musl.tar.gz
install -D samekey-0.2.0-x86_64-unknown-linux-musl/samekey ~/.local/bin/samekey
