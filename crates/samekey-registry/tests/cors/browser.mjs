// The registry's CORS from real pages in headless Chromium (Debian's, driven by
// playwright-core; no browser download): a page on an allowed origin registers data with
// its token and reads the answer, its Location and a refusal's problem document; a page on
// another origin cannot read anything. Both pages are served from 127.0.0.1 on ports of
// their own, which makes them other origins than the registry's.
//
//   node browser.mjs PATH/TO/samekey-registry
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { chromium } from 'playwright-core';

const TOKEN = 'cors-browser-token';
const registryBinary = process.argv[2];
assert.ok(registryBinary && fs.existsSync(registryBinary), `no registry binary at ${registryBinary}`);

/** A server of one page, whose HTML is set once the registry's address is known. */
function pageServer() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(server.html);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const origin = (server) => `http://127.0.0.1:${server.address().port}`;

/** The page: a registration with the token, one without, a read; its findings in window.__result. */
const page = (registry) => `<!doctype html><meta charset="utf-8"><title>cors</title><script type="module">
const registry = ${JSON.stringify(registry)};
const result = {};
try {
  let r = await fetch(registry + '/v1/revisions', { method: 'POST',
    headers: { 'Authorization': 'Bearer ${TOKEN}', 'Content-Type': 'application/json' },
    body: '{"rows":3}' });
  result.created = { status: r.status, key: (await r.json()).key, location: r.headers.get('location') };
  r = await fetch(registry + '/v1/revisions', { method: 'POST',
    headers: { 'Content-Type': 'application/json' }, body: '{"rows":3}' });
  result.refused = { status: r.status, code: (await r.json()).code,
    challenge: r.headers.get('www-authenticate') };
  r = await fetch(registry + result.created.location, { headers: { 'Authorization': 'Bearer ${TOKEN}' } });
  result.read = { status: r.status, key: (await r.json()).key };
} catch (e) {
  result.error = String(e);
}
window.__result = result;
</script>`;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-cors-'));
  const tokens = path.join(dir, 'tokens');
  fs.writeFileSync(tokens, `${TOKEN}\n`);
  // The pages' servers first: the allowed one's origin is the registry's flag.
  const allowedPage = await pageServer();
  const otherPage = await pageServer();
  const registry = spawn(registryBinary, ['--database', `sqlite:${path.join(dir, 'r.db')}`,
    '--listen', '127.0.0.1:0', '--token-file', tokens, '--cors-origin', origin(allowedPage)],
  { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, RUST_LOG: 'warn' } });
  const first = await new Promise((resolve) => readline.createInterface({ input: registry.stdout }).once('line', resolve));
  const base = first.replace(/^listening on /, '');
  allowedPage.html = otherPage.html = page(base);

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const tab = await context.newPage();
    const visit = async (server) => {
      await tab.goto(origin(server));
      await tab.waitForFunction(() => window.__result !== undefined, null, { timeout: 30_000 });
      return tab.evaluate(() => window.__result);
    };

    const allowed = await visit(allowedPage);
    assert.equal(allowed.error, undefined, JSON.stringify(allowed));
    assert.equal(allowed.created.status, 201);
    assert.match(allowed.created.key, /^rev:v1:[0-9a-f]{64}$/);
    assert.equal(allowed.created.location, `/v1/revisions/${allowed.created.key}`);
    assert.deepEqual(allowed.refused, { status: 401, code: 'unauthorized', challenge: 'Bearer realm="samekey-registry"' });
    assert.deepEqual(allowed.read, { status: 200, key: allowed.created.key });

    const other = await visit(otherPage);
    assert.match(other.error ?? '', /TypeError: Failed to fetch/, JSON.stringify(other));
    assert.equal(other.created, undefined);
    console.log(`cors in Chromium: ${origin(allowedPage)} registered ${allowed.created.key} and read a 401's problem; ${origin(otherPage)} was refused (${other.error})`);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
    registry.kill();
    allowedPage.close();
    otherPage.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
