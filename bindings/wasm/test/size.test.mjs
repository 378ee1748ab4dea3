// The download budget of the browser build: at most 150 KB, 60 KB gzipped.
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
  assert.ok(gzipped <= 60_000, `${gzipped} gzipped bytes > 60 KB`);
});
