// The registry client against samekey serve (the workspace's build, or SAMEKEY_BIN) and
// the HTTP fault proxy (crates/samekey-registry/tests/clients/httpfaults.py).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import * as samekey from '../index.mjs';
import { Registry, RegistryError } from 'samekey/registry';
const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const children = [];

function start(prefix, command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) =>
      line.startsWith(prefix) ? resolve(line.slice(prefix.length).trim()) : reject(new Error(`${command}: ${line}`)),
    );
    child.once('error', reject);
  });
}

let url, proxyUrl;
before(async () => {
  const bin = process.env.SAMEKEY_BIN ?? join(repo, 'target', 'debug', 'samekey');
  const db = join(mkdtempSync(join(tmpdir(), 'samekey-registry-')), 'r.db');
  url = await start('listening on ', bin, ['serve', '--database', `sqlite:${db}`, '--listen', '127.0.0.1:0']);
  const proxy = join(repo, 'crates', 'samekey-registry', 'tests', 'clients', 'httpfaults.py');
  proxyUrl = 'http://' + (await start('listening ', 'python3', [proxy, '--target', url.replace('http://', '')]));
});
after(() => children.forEach((c) => c.kill()));

const control = async (path, body) => (await fetch(proxyUrl + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) })).json();
const statuses = async () => (await control('/__log')).map((e) => e.status);
const fast = { maxRetries: 3, initialDelayMs: 50, maxDelayMs: 200, deadlineMs: 20000 };

test('JSON in any spelling is one revision, with the key derived here', async () => {
  const id = randomBytes(8).toString('hex');
  const value = { title: 'Grüße 😀', n: 1500, tags: ['a', 'b'], id };
  const client = new Registry(url);
  const first = await client.register(value);
  assert.equal(first.created, true);
  assert.equal(first.key, samekey.revisionKey(samekey.contentHashJson(value)));
  const again = await client.registerJson(`{ "tags": ["a","b"], "n": 1.5e3, "id": "${id}", "title": "Gr\\u00fc\\u00dfe \\ud83d\\ude00" }`);
  assert.deepEqual([again.key, again.created], [first.key, false]);
  assert.deepEqual(await client.revision(first.key), again);
  const stored = Buffer.from(await new Response(await client.data(first.key)).arrayBuffer()).toString();
  assert.equal(stored, samekey.canonicalJson(value));
});

test('bytes and streams of the same data are one revision; history; problems', async () => {
  const client = new Registry(url);
  const data = randomBytes(3 << 20);
  const root = await client.register({ root: randomBytes(8).toString('hex') });
  const first = await client.registerBytes(data, { parent: root.key });
  assert.equal(first.key, samekey.revisionKey(samekey.contentHash(data), { parent: root.key }));
  const chunks = () => (async function* () { for (let i = 0; i < data.length; i += 1 << 20) yield data.subarray(i, i + (1 << 20)); })();
  assert.equal((await client.registerStream(chunks, { parent: root.key })).key, first.key);
  assert.equal((await client.registerStream(chunks(), { parent: root.key })).key, first.key);
  assert.deepEqual((await client.history(first.key)).map((r) => r.key), [first.key, root.key]);
  const missing = samekey.revisionKey(samekey.contentHash(randomBytes(16)));
  for (const [call, code, status] of [
    [() => client.revision(missing), 'not_found', 404],
    [() => client.data(missing), 'not_found', 404],
    [() => client.register({ a: 1 }, { parent: missing }), 'unknown_parent', 422],
    [() => client.history(missing, { limit: 0 }), 'invalid_query', 400],
  ]) {
    await assert.rejects(call(), (e) => e instanceof RegistryError && e.code === code && e.status === status && e instanceof samekey.SamekeyError);
  }
});

test('a key of another ring is refused; an older scheme of the ring is accepted', async () => {
  const value = { ring: randomBytes(8).toString('hex') };
  await assert.rejects(new Registry(url, { ring: new samekey.KeyRing('v2') }).register(value), (e) => e.code === 'key_mismatch' && e.answered.startsWith('rev:v1:') && e.expected.startsWith('rev:v2:'));
  const found = await new Registry(url, { ring: new samekey.KeyRing('v2', ['v1']) }).register(value);
  assert.deepEqual([found.scheme, found.created], ['v1', false]);
});

test('faults: a lost answer, a cut body, 503 and 429, 4xx, an unrewindable stream', async () => {
  const client = new Registry(proxyUrl, { retry: fast });
  const cases = [
    [[{ kind: 'drop_response', method: 'POST' }], [null, 200], false],
    [[{ kind: 'cut_body', after: 1000, method: 'POST' }], [null, 201], true],
    // Committed, then the answer cut mid-way: retried like a lost answer, found.
    [[{ kind: 'cut_answer', after: 5, method: 'POST' }], [201, 200], false],
    [[{ kind: 'status', status: 503 }, { kind: 'status', status: 429, code: 'too_many_requests', retry_after: '1' }], [503, 429, 201], true],
  ];
  for (const [faults, want, created] of cases) {
    await control('/__reset', {});
    await control('/__faults', faults);
    const started = Date.now();
    const rev = await client.registerBytes(randomBytes(4096));
    assert.deepEqual([await statuses(), rev.created], [want, created]);
    if (want.includes(429)) assert.ok(Date.now() - started >= 1000);
  }
  // With skipUploadAbove null an opener's stream is hashed while sent, anew by each attempt.
  const data = randomBytes(4096);
  await control('/__reset', {});
  await control('/__faults', [{ kind: 'cut_body', after: 1000, method: 'POST' }, { kind: 'drop_response', method: 'POST' }]);
  const rev = await new Registry(proxyUrl, { retry: fast, skipUploadAbove: null }).registerStream(() => [data]);
  assert.deepEqual([await statuses(), rev.created], [[null, null, 200], false]);
  assert.deepEqual([rev.key, rev.size], [samekey.revisionKey(samekey.contentHash(data)), data.length]);
  await control('/__reset', {});
  await control('/__faults', [{ kind: 'status', status: 409, code: 'conflict' }]);
  await assert.rejects(client.registerBytes(randomBytes(64)), (e) => e.code === 'conflict' && e.status === 409);
  assert.deepEqual(await statuses(), [409]);
  await control('/__reset', {});
  await control('/__faults', [{ kind: 'drop_response', method: 'POST' }]);
  await assert.rejects(client.registerStream([randomBytes(4096)]), (e) => e.code === 'not_rewindable');
  assert.deepEqual(await statuses(), [null]);
});

test('a server slower than the deadline fails in time, and its write is found later', async () => {
  const data = randomBytes(4096);
  await control('/__reset', {});
  const delay = { kind: 'delay', seconds: 3, method: 'POST' };
  await control('/__faults', [delay, delay, delay]);
  const impatient = new Registry(proxyUrl, { timeoutMs: 500, retry: { maxRetries: 5, initialDelayMs: 50, deadlineMs: 1200 } });
  const started = Date.now();
  await assert.rejects(impatient.registerBytes(data), (e) => ['deadline_exceeded', 'connection_failed'].includes(e.code));
  assert.ok(Date.now() - started < 2500, `${Date.now() - started} ms`);
  await new Promise((r) => setTimeout(r, 3000));
  await control('/__reset', {});
  assert.equal((await new Registry(proxyUrl).registerBytes(data)).created, false);
});

test('input samekey refuses throws its own error, and nothing is sent', async () => {
  // No registry on port 9: a request would fail with connection_failed.
  const client = new Registry('http://127.0.0.1:9', { retry: { maxRetries: 0 } });
  for (const [call, code] of [
    [() => client.registerJson('{"a": 1, "a": 2}'), 'duplicate_key'],
    [() => client.register({ a: '\ud800' }), 'invalid_string'],
    [() => client.registerJson('{"a": 1e400}'), 'number_out_of_range'],
  ]) {
    await assert.rejects(call(), (e) => {
      assert.deepEqual([e instanceof samekey.SamekeyError, e instanceof RegistryError, e.code], [true, false, code]);
      return true;
    });
  }
});

test('an answer that trickles in a byte at a time stops at the deadline', async () => {
  const data = randomBytes(4096);
  await control('/__reset', {});
  const trickle = { kind: 'trickle', interval: 0.3, method: 'POST' };
  await control('/__faults', [trickle, trickle, trickle, trickle]);
  const client = new Registry(proxyUrl, { timeoutMs: 2000, retry: { maxRetries: 3, initialDelayMs: 50, deadlineMs: 6000 } });
  const started = Date.now();
  await assert.rejects(client.registerBytes(data), (e) => ['deadline_exceeded', 'connection_failed'].includes(e.code));
  const took = Date.now() - started;
  assert.ok(took > 5500 && took < 7500, `${took} ms for a 6 s deadline`);
  await control('/__reset', {});
  assert.equal((await new Registry(proxyUrl).registerBytes(data)).created, false);
});

test('an empty file, stream and byte array are one revision of size 0', async () => {
  const { writeFileSync, createReadStream } = await import('node:fs');
  const file = join(mkdtempSync(join(tmpdir(), 'samekey-empty-')), 'empty.bin');
  writeFileSync(file, '');
  const client = new Registry(url);
  const want = samekey.revisionKey(samekey.contentHash(new Uint8Array(0)));
  for (const register of [() => client.registerStream(() => createReadStream(file)), () => client.registerBytes(new Uint8Array(0)),
    // skipUploadAbove -1: even an empty file is hashed first and looked up.
    () => new Registry(url, { skipUploadAbove: -1 }).registerStream(() => createReadStream(file))]) {
    const rev = await register();
    assert.deepEqual([rev.key, rev.size], [want, 0]);
  }
});

test("the README's example runs twice and creates nothing the second time", async () => {
  const { publish } = await import('../examples/registry.mjs');
  const file = join(mkdtempSync(join(tmpdir(), 'samekey-')), 'data.csv');
  const { writeFileSync, readFileSync } = await import('node:fs');
  writeFileSync(file, `id,name\n1,${randomBytes(8).toString('hex')}\n`);
  const first = await publish(url, file);
  const second = await publish(url, file);
  assert.deepEqual([first.created, second.created, second.key], [true, false, first.key]);
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('../examples/registry.mjs', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/<!-- tested: bindings\/node\/test\/registry\.test\.mjs -->\n```js\n([\s\S]*?)```/g)];
  assert.equal(blocks.length, 1, 'one README block is marked as tested here');
  assert.ok(example.includes(blocks[0][1]), 'the README block is not a part of examples/registry.mjs: copy the code');
});

test('a certificate that does not verify fails the first attempt, not retried', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'samekey-tls-'));
  const { execFileSync } = await import('node:child_process');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  const bin = process.env.SAMEKEY_BIN ?? join(repo, 'target', 'debug', 'samekey');
  const tls = await start('listening on ', bin, ['serve', '--database', `sqlite:${join(dir, 'r.db')}`, '--listen', '127.0.0.1:0',
    '--tls-cert', join(dir, 'cert.pem'), '--tls-key', join(dir, 'key.pem')]);
  const patient = { maxRetries: 3, initialDelayMs: 1000, maxDelayMs: 1000, deadlineMs: 20000 };
  const started = Date.now();
  await assert.rejects(new Registry(tls.replace('127.0.0.1', 'localhost'), { retry: patient }).register({ rows: 3 }), (e) => {
    assert.ok(e instanceof RegistryError && e.code === 'connection_failed', String(e));
    assert.match(e.message, /certificate did not verify.*not retried/);
    return true;
  });
  assert.ok(Date.now() - started < 1000, `took ${Date.now() - started} ms: retried`);
});

test('a file larger than the process may hold is sent in bounded memory, hashed while sent or first', async () => {
  const FILE_MIB = 384;
  const dir = mkdtempSync(join(tmpdir(), 'samekey-memory-'));
  const { openSync, writeSync, closeSync, rmSync } = await import('node:fs');
  const file = join(dir, 'big.bin');
  const fd = openSync(file, 'w');
  const block = randomBytes(1 << 20);
  for (let i = 0; i < FILE_MIB; i++) (block[0] = i & 255), writeSync(fd, block);
  closeSync(fd);
  const bin = process.env.SAMEKEY_BIN ?? join(repo, 'target', 'debug', 'samekey');
  const big = await start('listening on ', bin, ['serve', '--database', `sqlite:${join(dir, 'r.db')}`, '--listen', '127.0.0.1:0', '--body-limit', String((FILE_MIB + 1) << 20)]);
  const client = new URL('../registry.mjs', import.meta.url).href;
  try {
    for (const skip of ['null', String(1 << 20)]) {
      // Each in a child process, whose peak RSS is the client's alone.
      const script = `
        import { Registry } from ${JSON.stringify(client)};
        import { createReadStream } from 'node:fs';
        const registry = new Registry(${JSON.stringify(big)}, { skipUploadAbove: ${skip}, timeoutMs: 300000 });
        const rev = await registry.registerStream(() => createReadStream(${JSON.stringify(file)}, { highWaterMark: 1 << 20 }));
        console.log(JSON.stringify({ key: rev.key, size: rev.size, created: rev.created, peak: process.resourceUsage().maxRSS >> 10 }));`;
      const { execFileSync } = await import('node:child_process');
      const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 300000 }));
      console.log(`# ${FILE_MIB} MiB, skipUploadAbove ${skip}: peak RSS ${out.peak} MiB`);
      assert.equal(out.size, FILE_MIB << 20);
      assert.ok(out.peak < FILE_MIB / 2, `peak RSS ${out.peak} MiB for a ${FILE_MIB} MiB file`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
