'use strict';
// The samekey npm package: the JS API (api.js) over the napi addon.
const url = require('node:url');
const createSamekey = require('./api.js');
const { runDocument } = require('./vectors.js');

module.exports = createSamekey(require('./native.js'), { fileURLToPath: url.fileURLToPath, runDocument });
