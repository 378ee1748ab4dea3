node hello.mjs
