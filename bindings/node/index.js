'use strict';
// The samekey npm package: the JS API (lib/, ES modules shared with samekey-wasm) over
// the napi addon. require() of an ES module needs Node ^20.19 or >=22.12 (package.json).
const url = require('node:url');
const createSamekey = require('./lib/api.mjs').default;
const { runDocument } = require('./lib/vectors.mjs');

module.exports = createSamekey(require('./native.js'), { fileURLToPath: url.fileURLToPath, runDocument });
