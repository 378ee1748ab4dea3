// samekey-wasm/registry in headless Chromium against samekey serve (the workspace's
// build, or SAMEKEY_BIN), which allows the page's origin (--cors-origin).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from './serve.mjs';
import { launch } from './browser.mjs';
import * as samekey from '../pkg/node.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

test('the registry client runs in a browser page of another origin', { timeout: 120_000 }, async () => {
  const server = await serve();
  const db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-wasm-registry-')), 'r.db');
  const bin = process.env.SAMEKEY_BIN ?? path.join(repo, 'target', 'debug', 'samekey');
  const registry = spawn(bin, ['serve', '--database', `sqlite:${db}`, '--listen', '127.0.0.1:0', '--cors-origin', server.url], { stdio: ['ignore', 'pipe', 'ignore'] });
  const browser = await launch();
  try {
    const line = await new Promise((resolve, reject) => {
      createInterface({ input: registry.stdout }).once('line', resolve);
      registry.once('error', reject);
    });
    const url = line.replace('listening on ', '').trim();
    const errors = [];
    browser.page.on('pageerror', (e) => errors.push(String(e)));
    await browser.page.goto(`${server.url}/test/registry-page.html?registry=${encodeURIComponent(url)}`);
    await browser.page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const r = await browser.page.evaluate(() => window.__result);
    assert.deepEqual(errors, []);
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.json.key, samekey.revisionKey(samekey.contentHashJson(r.value)));
    assert.deepEqual([r.json.created, r.again.key, r.again.created], [true, r.json.key, false]);
    const bytes = new Uint8Array([0, 255, 16, 226, 130, 172]);
    assert.equal(r.bytes.key, samekey.revisionKey(samekey.contentHash(bytes), { parent: r.json.key }));
    assert.deepEqual(r.stored, [...bytes]);
    assert.deepEqual(r.missing, { code: 'not_found', status: 404, isRegistryError: true });
    console.log(`browser registry client: ${r.json.key}, ${r.bytes.key}`);
    const readme = fs.readFileSync(path.join(repo, 'bindings', 'wasm', 'README.md'), 'utf8');
    const block = readme.match(/<!-- tested: bindings\/wasm\/test\/registry-browser\.test\.mjs -->\n```js\n([\s\S]*?)```/)?.[1];
    const page = fs.readFileSync(path.join(repo, 'bindings', 'wasm', 'test', 'registry-page.js'), 'utf8');
    const lines = page.slice(page.indexOf('// README: the registry client'), page.indexOf('// README end')).split('\n').slice(1).map((l) => l.trim()).join('\n');
    assert.equal(block?.trim(), lines.trim(), "the README's registry block is not the page's code");
  } finally {
    await browser.close();
    registry.kill();
    server.close();
  }
});
