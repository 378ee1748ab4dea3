npm install samekey-wasm
