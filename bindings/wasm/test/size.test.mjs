// The download budget of the browser build: at most 150 KB, 61 KB gzipped (60 KB until
// v2 ids got their own BLAKE3 compression from the tag block's state: +1 KB gzipped for
// v2 ids 2.5x faster in Node).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const wasm = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'pkg', 'web', 'samekey_web_bg.wasm');

test('the .wasm fits the size budget', () => {
  const bytes = fs.readFileSync(wasm);
  const gzipped = zlib.gzipSync(bytes, { level: 9 }).length;
  console.log(`wasm: ${bytes.length} bytes, ${gzipped} gzipped`);
  assert.ok(bytes.length <= 150_000, `${bytes.length} bytes > 150 KB`);
  assert.ok(gzipped <= 61_000, `${gzipped} gzipped bytes > 61 KB`);
});

test('the inline entry carries the same module, a third larger before compression', async () => {
  const { WASM_BASE64 } = await import(path.join(path.dirname(wasm), 'samekey_web_bg.wasm.base64.js'));
  const text = fs.readFileSync(path.join(path.dirname(wasm), 'samekey_web_bg.wasm.base64.js'));
  assert.deepEqual(Buffer.from(WASM_BASE64, 'base64'), fs.readFileSync(wasm));
  console.log(`inline module: ${text.length} bytes, ${zlib.gzipSync(text, { level: 9 }).length} gzipped`);
});
