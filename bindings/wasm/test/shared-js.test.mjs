// pkg/lib and pkg/index.d.ts are copies of the Node package's lib/ and index.d.ts, made by
// scripts/build.mjs: one JS API for both packages. A test run against a pkg/ built before
// the last change to those files would test (and a pack would ship) the old API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const node = path.resolve(here, '../../node');
const pkg = path.resolve(here, '../pkg');

test('pkg/ holds the Node package\'s current lib/, index.d.ts and registry.d.ts', () => {
  const shared = fs.readdirSync(path.join(node, 'lib')).map((f) => path.join('lib', f));
  shared.push('index.d.ts', 'registry.d.ts');
  for (const file of shared) {
    const copy = path.join(pkg, file);
    assert.ok(fs.existsSync(copy), `pkg/${file} is missing: run node scripts/build.mjs (just wasm::setup)`);
    assert.ok(fs.readFileSync(copy).equals(fs.readFileSync(path.join(node, file))),
      `pkg/${file} differs from bindings/node/${file}: run node scripts/build.mjs (just wasm::setup)`);
  }
  const extra = fs.readdirSync(path.join(pkg, 'lib')).filter((f) => !shared.includes(path.join('lib', f)));
  assert.deepEqual(extra, [], 'pkg/lib has files the Node package no longer has');
});
