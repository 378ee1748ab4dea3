'use strict';
// Node entry of samekey-wasm (CommonJS); node.mjs re-exports these same objects.
const fs = require('node:fs');
const url = require('node:url');
const createSamekey = require('./lib/api.mjs').default;
const { runDocument } = require('./lib/vectors.mjs');

module.exports = createSamekey(require('./node/samekey_node.js'), {
  runDocument,
  copiesArguments: true,
  fileURLToPath: url.fileURLToPath,
  openFile: (path) => fs.createReadStream(path),
});
