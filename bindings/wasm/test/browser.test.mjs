// Every vector inside a real headless Chromium page; the page's screenshot is kept as
// test-artifacts/browser-vectors.png.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, vectorFile } from './serve.mjs';
import { launch } from './browser.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test-artifacts');

test('every vector passes in Chromium', { timeout: 120_000 }, async () => {
  const server = await serve();
  const browser = await launch();
  try {
    const errors = [];
    browser.page.on('pageerror', (e) => errors.push(String(e)));
    await browser.page.goto(`${server.url}/test/page.html`);
    await browser.page.waitForFunction(() => window.__result !== undefined, null, { timeout: 60_000 });
    const result = await browser.page.evaluate(() => window.__result);
    fs.mkdirSync(artifacts, { recursive: true });
    await browser.page.screenshot({ path: path.join(artifacts, 'browser-vectors.png'), fullPage: true });
    const total = JSON.parse(fs.readFileSync(vectorFile(), 'utf8')).vectors.length;
    assert.deepEqual(errors, []);
    assert.equal(result.failed, 0, JSON.stringify(result));
    assert.equal(result.passed, total);
    assert.equal(result.exportsMatch, true, 'web.js names exactly the API');
    console.log(`browser: ${result.passed} passed, ${result.failed} failed`);
  } finally {
    await browser.close();
    server.close();
  }
});
