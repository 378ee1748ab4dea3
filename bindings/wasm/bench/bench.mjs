// `just bench-wasm`: the per-key table in Node, then in headless Chromium, same run.
import { performance } from 'node:perf_hooks';
import { webcrypto } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import samekey from '../pkg/node.mjs';
import { runBench } from './cases.js';
import { serve } from '../test/serve.mjs';
import { launch } from '../test/browser.mjs';

console.log(`ULID text per key, 20-byte slug + 'en', fastest of 7 interleaved rounds of 20000 keys\n\nNode ${process.version}:`);
console.log(await runBench({ samekey, sha256, subtle: webcrypto.subtle, now: () => performance.now() }));
const server = await serve();
const browser = await launch();
try {
  await browser.page.goto(`${server.url}/bench/page.html`);
  await browser.page.waitForFunction(() => window.__bench !== undefined, null, { timeout: 300_000 });
  const agent = await browser.page.evaluate(() => navigator.userAgent.match(/Chrom\S+/)?.[0]);
  console.log(`\n${agent} (headless):`);
  console.log(await browser.page.evaluate(() => window.__bench));
} finally {
  await browser.close();
  server.close();
}
