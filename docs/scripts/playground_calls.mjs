#!/usr/bin/env node
// The calls the playground's own calls.js generates, made outside the browser for a
// language whose toolchain the site's test does not have (Swift: bindings/swift/scripts/
// test.sh builds and runs them). Reads a JSON list of calls.js inputs on stdin
// ({ fields, time: { ms[, text] }, namespace, scheme, keyed }, as the page's derive()
// makes them) and prints the JSON list of LANGUAGE's calls.
//
//   node docs/scripts/playground_calls.mjs LANGUAGE < inputs.json
import fs from 'node:fs';
import { LANGUAGES, calls } from '../src/playground/calls.js';

const language = process.argv[2];
if (!LANGUAGES.some(([key]) => key === language)) {
  console.error(`usage: playground_calls.mjs LANGUAGE < inputs.json (LANGUAGE: ${LANGUAGES.map(([key]) => key).join(', ')})`);
  process.exit(2);
}
const inputs = JSON.parse(fs.readFileSync(0, 'utf8'));
const out = inputs.map((input) => new Map(calls(input)).get(language));
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
