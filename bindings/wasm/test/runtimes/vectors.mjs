// Run by Node, Deno and Bun from a project that installed samekey-wasm from npm: every
// vector of the file in SAMEKEY_VECTORS through the entry each runtime resolves for
// `samekey-wasm` (the exports map's "node" condition in all three) and through
// `samekey-wasm/inline` (the browser build with its module inside), and one id. Prints
// one JSON line; run.mjs compares the runtimes' lines.
import fs from 'node:fs';
import * as resolved from 'samekey-wasm';
import * as inline from 'samekey-wasm/inline';
import { runDocument } from 'samekey-wasm/vectors';

const document = fs.readFileSync(process.env.SAMEKEY_VECTORS, 'utf8');
const result = {};
for (const [entry, module] of [['samekey-wasm', resolved], ['samekey-wasm/inline', inline]]) {
  const api = await module.init();
  const outcomes = runDocument(api, document);
  const id = module.deriveUlid(['hello-world', 'en'], { time: new Date('2024-05-01T12:00:00Z'), namespace: 'posts' });
  result[entry] = {
    passed: outcomes.filter((o) => o.passed).length,
    failed: outcomes.filter((o) => !o.passed).map((o) => o.id),
    hello: id.toString(),
  };
}
console.log(JSON.stringify(result));
