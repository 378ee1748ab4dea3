// The cross-language test's Node side: registers payloads.json's payloads in order and
// prints one key a line (see test_cross.sh): node cross_node.mjs URL PACKAGE_DIR, where
// PACKAGE_DIR holds the samekey package (its registry entry is imported).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const { Registry } = await import(pathToFileURL(join(process.argv[3], 'registry.mjs')).href);

const { payloads } = JSON.parse(readFileSync(new URL('./payloads.json', import.meta.url), 'utf8'));
const registry = new Registry(process.argv[2]);
for (const p of payloads) {
  let rev;
  if ('json' in p) rev = await registry.registerJson(p.json);
  else if ('value' in p) rev = await registry.register(JSON.parse(p.value));
  else rev = await registry.registerBytes(Buffer.from(p.hex, 'hex'));
  console.log(rev.key);
}
