'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
// SAMEKEY_JS_PACKAGE runs these tests against another package with the same API (samekey-wasm).
const samekey = require(process.env.SAMEKEY_JS_PACKAGE || 'samekey');
const { SamekeyError, Ulid } = samekey;

const T = new Date('2024-05-01T12:00:00Z');

function code(fn) {
  try {
    fn();
  } catch (e) {
    if (e instanceof SamekeyError) return e.code;
    throw e;
  }
  throw new Error('did not throw');
}

test('every time form gives the same id', () => {
  const a = samekey.deriveUlid(['hello-world', 'en'], { time: T, namespace: 'posts' });
  const b = samekey.deriveUlid(['hello-world', 'en'], { time: T.getTime(), namespace: 'posts' });
  const c = samekey.deriveUlid(['hello-world', 'en'], { time: '2024-05-01T14:00:00+02:00', namespace: 'posts' });
  assert.ok(a.equals(b) && b.equals(c));
  assert.equal(a.timestampMs, T.getTime());
  assert.deepEqual(a.date, T);
});

test('times are never truncated or guessed', () => {
  for (const [time, expected] of [
    [1.5, 'invalid_timestamp'], [NaN, 'invalid_timestamp'], [Infinity, 'invalid_timestamp'],
    [-1, 'timestamp_out_of_range'], [2 ** 48, 'timestamp_out_of_range'],
    [new Date('nope'), 'invalid_timestamp'], [new Date(-1), 'timestamp_out_of_range'],
    ['2024-05-01T12:00:00', 'invalid_timestamp'],
  ]) {
    assert.equal(code(() => samekey.deriveUlid(['a'], { time })), expected, String(time));
  }
  assert.throws(() => samekey.deriveUlid(['a'], { time: 1n }), TypeError);
  assert.throws(() => samekey.deriveUlid(['a'], {}), TypeError);
});

test('Ulid values', () => {
  const a = samekey.deriveUlid(['a'], { time: 1 });
  const b = samekey.deriveUlid(['a'], { time: 2 });
  assert.equal(a.compare(b), -1);
  assert.ok(new Ulid(a.toString().toLowerCase()).equals(a));
  assert.ok(Ulid.fromBytes(a.bytes).equals(a));
  assert.equal(a.uuid.replaceAll('-', ''), Buffer.from(a.bytes).toString('hex'));
  assert.equal(JSON.stringify({ id: a }), `{"id":"${a}"}`);
  assert.equal(`${a}`, a.toString());
  for (const bad of ['8ZZZZZZZZZZZZZZZZZZZZZZZZZ', '0'.repeat(25), '0'.repeat(25) + 'U']) {
    assert.equal(code(() => Ulid.parse(bad)), 'invalid_ulid');
  }
  assert.equal(code(() => Ulid.fromBytes(new Uint8Array(3))), 'invalid_ulid');
});

// `bytes` decodes the text in JavaScript: held to the core's encoding (fromBytes) for
// random ids and every edge of each byte.
test('Ulid bytes are the bytes the core encoded', () => {
  const cases = [new Uint8Array(16), new Uint8Array(16).fill(255)];
  for (let i = 0; i < 16; i++) for (const v of [1, 0x80, 0xff]) cases.push(Object.assign(new Uint8Array(16), { [i]: v }));
  for (let n = 0; n < 2000; n++) cases.push(crypto.getRandomValues(new Uint8Array(16)));
  for (const bytes of cases) {
    assert.deepEqual([...Ulid.fromBytes(bytes).bytes], [...bytes]);
    assert.deepEqual([...Ulid.parse(Ulid.fromBytes(bytes).toString().toLowerCase()).bytes], [...bytes]);
  }
});

test('wrong types are TypeErrors, lone surrogates invalid_string', () => {
  assert.throws(() => samekey.deriveUlid('slug', { time: 0 }), TypeError);
  assert.throws(() => samekey.deriveUlid([1], { time: 0 }), TypeError);
  assert.throws(() => samekey.deriveUlid(['a'], { time: 0, secret: 'k' }), TypeError);
  assert.throws(() => samekey.contentHash(42), TypeError);
  for (const fn of [
    () => samekey.deriveUlid(['\ud800'], { time: 0 }),
    () => samekey.deriveUlid(['a'], { time: 0, namespace: 'x\udc00' }),
    () => samekey.canonicalJson({ k: '\ud800' }),
    () => samekey.canonicalJson({ '\ud800': 1 }),
    () => samekey.contentHash('\ud800'),
    () => samekey.revisionKey(samekey.contentHash('x'), { parent: '\ud800' }),
    // Parsed text too: the host conversion comes before the parser (spec §2.2).
    () => samekey.contentHash('x', { scheme: 'v\ud800' }),
    () => new samekey.KeyRing('v1', ['v\ud800']),
    () => samekey.Ulid.parse('\ud800'.repeat(26)),
    () => samekey.parseKey('sha256:\ud800'),
    () => samekey.needsWrite(null, 'sha256:\ud800'),
  ]) {
    assert.equal(code(fn), 'invalid_string');
  }
});

test('canonical JSON of JS values follows JSON.stringify for undefined', () => {
  assert.equal(samekey.canonicalJson({ b: [1.0, -0, 1e21, undefined, true], a: 'é', u: undefined, f() {} }), '{"a":"é","b":[1,0,1e+21,null,true]}');
  assert.equal(samekey.canonicalJson(9007199254740991n), '9007199254740991');
  assert.equal(code(() => samekey.canonicalJson(9007199254740992n)), 'number_out_of_range');
  assert.equal(code(() => samekey.canonicalJson([NaN])), 'number_out_of_range');
  assert.equal(code(() => samekey.canonicalJson({ x: Infinity })), 'number_out_of_range');
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => samekey.canonicalJson(cyclic), TypeError);
  assert.throws(() => samekey.canonicalJson(new Map()), TypeError);
  assert.throws(() => samekey.canonicalJson(new Date()), TypeError);
  let deep = [];
  for (let i = 0; i < 200; i++) deep = [deep];
  assert.equal(code(() => samekey.canonicalJson(deep)), 'nesting_too_deep');
});

test('content hashes of strings, bytes, streams and files', async () => {
  const data = crypto.randomBytes(3 << 20);
  const want = 'sha256:' + crypto.createHash('sha256').update(data).digest('hex');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-')), 'f.bin');
  fs.writeFileSync(file, data);
  assert.equal(samekey.contentHash(data), want);
  assert.equal(samekey.contentHash(new Uint8Array(data)), want);
  assert.equal(await samekey.contentHashFile(file), want);
  assert.equal(await samekey.contentHashAsync(fs.createReadStream(file)), want);
  assert.equal(await samekey.contentHashFile(new URL(`file://${file}`)), want);
  assert.equal(new samekey.ContentHasher().update(data.subarray(0, 7)).update(data.subarray(7)).digest(), want);
  const missing = file + '.missing';
  await assert.rejects(samekey.contentHashFile(missing), (e) => e instanceof SamekeyError && e.code === 'io_error' && e.message.includes(missing));
  await assert.rejects(samekey.contentHashAsync(fs.createReadStream(file, 'utf8')), TypeError);
  // One meaning per argument: a string is text for every content function, never a path.
  assert.equal(await samekey.contentHashAsync(file), samekey.contentHash(file));
  assert.equal(await samekey.contentHashAsync('abc'), samekey.contentHash('abc'));
});

test('a large file is hashed without blocking the event loop', async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-')), 'big.bin');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4 << 20, 7);
  for (let i = 0; i < 64; i++) fs.writeSync(fd, block); // 256 MiB
  fs.closeSync(fd);
  for (const scheme of ['v1', 'v2']) {
    let ticks = 0;
    const timer = setInterval(() => { ticks += 1; }, 1);
    const started = process.hrtime.bigint();
    const hash = await samekey.contentHashFile(file, { scheme });
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    clearInterval(timer);
    assert.match(hash, /^(sha256|blake3):[0-9a-f]{64}$/);
    // The timer kept firing while the file was hashed: the loop was free the whole time.
    assert.ok(ticks >= Math.min(10, elapsedMs / 4), `${ticks} ticks in ${elapsedMs.toFixed(0)} ms (${scheme})`);
  }
  fs.rmSync(file);
});

test('revision keys, key ring, guards', () => {
  const h = samekey.contentHash('{"rows":3}');
  const root = samekey.revisionKey(h);
  const child = samekey.revisionKey(h, { parent: root });
  assert.match(root, /^rev:v1:[0-9a-f]{64}$/);
  assert.notEqual(child, root);
  assert.equal(samekey.revisionKey(h, { parent: root }), child);
  assert.equal(code(() => samekey.revisionKey(h, { scheme: 'v2' })), 'scheme_mismatch');
  assert.equal(code(() => samekey.revisionKey(h, { parent: '' })), 'empty_parent');
  assert.ok(samekey.needsWrite(null, h) && !samekey.needsWrite(h, h));
  const ring = new samekey.KeyRing('v2', ['v1', 'v0']);
  assert.deepEqual(ring.accepted, ['v2', 'v1', 'v0']);
  const legacy = samekey.deriveUlid(['slug', 'en'], { time: 0, scheme: 'v0' });
  assert.equal(samekey.verify(legacy, ['slug', 'en'], { time: 0, accept: ['v2', 'v1', 'v0'] }), 'v0');
  assert.equal(code(() => ring.verifyUlid(legacy, ['slug', 'en'], { time: 1 })), 'identity_mismatch');
  assert.deepEqual(ring.candidateUlids(['slug', 'en'], { time: 0 }).map((c) => c.scheme), ['v2', 'v1', 'v0']);
  assert.equal(code(() => new samekey.KeyRing('v2').schemeOfKey(h)), 'scheme_not_accepted');
});

test('batch equals one by one', () => {
  const times = Array.from({ length: 300 }, (_, i) => 1714564800000 + i);
  const slugs = times.map((_, i) => `post-${i}`);
  const langs = times.map((_, i) => (i % 2 ? 'en' : 'de'));
  const d = new samekey.UlidDeriver({ namespace: 'posts' });
  const many = d.deriveMany(times, [slugs, langs]);
  assert.deepEqual(many.map(String), times.map((t, i) => samekey.deriveUlid([slugs[i], langs[i]], { time: t, namespace: 'posts' }).toString()));
  assert.deepEqual(d.deriveMany(times, [slugs, langs], { asString: true }), many.map(String));
  assert.throws(() => d.deriveMany(times, [slugs.slice(1)]), TypeError);
  assert.equal(code(() => d.deriveMany(times, [])), 'no_fields');
});

test('a batch across several native calls: text and bytes chunks, errors anywhere', () => {
  const n = 5000; // more than two chunks of 2048 rows
  const times = Array.from({ length: n }, (_, i) => 1714564800000 + i);
  const slugs = times.map((_, i) => (i === 3000 ? new TextEncoder().encode('bytes-row') : `post-${i}`));
  const d = new samekey.UlidDeriver();
  const many = d.deriveMany(times, [slugs], { asString: true });
  assert.equal(many.length, n);
  for (const i of [0, 2047, 2048, 3000, 4095, 4096, n - 1]) {
    assert.equal(many[i], d.derive([slugs[i]], { time: times[i] }).toString(), `row ${i}`);
  }
  assert.equal(new Set(many).size, n);
  const bad = slugs.slice();
  bad[n - 1] = 'a\ud800';
  assert.equal(code(() => d.deriveMany(times, [bad])), 'invalid_string');
  const late = times.slice();
  late[4500] = 1.5;
  assert.equal(code(() => d.deriveMany(late, [slugs])), 'invalid_timestamp');
  assert.deepEqual(d.deriveMany([], [[]]), []);
  assert.equal(code(() => d.deriveMany([], [])), 'no_fields');
});

test('batch of text columns (one joined string) equals the bytes path and one by one', () => {
  const times = [1714564800000, 1714564800001, 1714564800002];
  const slugs = ['caf\u00e9', 'x\u{1F600}y', ''];
  const langs = ['en', '\u65e5\u672c', 'de'];
  const d = new samekey.UlidDeriver({ namespace: 'posts' });
  const text = d.deriveMany(times, [slugs, langs], { asString: true });
  const one = times.map((t, i) => d.derive([slugs[i], langs[i]], { time: t }).toString());
  assert.deepEqual(text, one);
  // A Uint8Array anywhere sends the batch down the packed-bytes path: the same ids.
  const bytes = [new TextEncoder().encode(slugs[0]), ...slugs.slice(1)];
  assert.deepEqual(d.deriveMany(times, [bytes, langs], { asString: true }), one);
  assert.equal(code(() => d.deriveMany([times[0]], [['a\ud800'], ['en']])), 'invalid_string');
});

test('requests past the 64 KiB request buffer, then small ones again', () => {
  const d = new samekey.UlidDeriver();
  const small = d.derive(['slug', 'en'], { time: T }).toString();
  for (const big of ['\u00e9'.repeat(40000), 'x'.repeat(70000), new Uint8Array(70000).fill(7)]) {
    const one = d.derive([big, 'en'], { time: T }).toString();
    assert.equal(samekey.deriveUlid([big, 'en'], { time: T }).toString(), one);
    assert.deepEqual(d.deriveMany([T], [[big], ['en']], { asString: true }), [one]);
    assert.equal(d.derive(['slug', 'en'], { time: T }).toString(), small);
  }
  assert.equal(code(() => d.derive(['x'.repeat(70000)], { time: 1.5 })), 'invalid_timestamp');
  assert.equal(code(() => d.derive(['slug'], { time: 1.5 })), 'invalid_timestamp');
});

test('ids stay right after the engine memory grows (wasm views of it detach)', () => {
  const d = new samekey.UlidDeriver();
  const keyed = new samekey.UlidDeriver({ scheme: 'v2', secret: new Uint8Array(32).fill(1) });
  const before = [d.derive(['slug', 'en'], { time: T }).toString(), keyed.derive(['slug'], { time: T }).toString()];
  // The wasm backend copies this into its linear memory, which has to grow for it.
  const big = new Uint8Array(48 << 20).fill(3);
  assert.equal(samekey.contentHash(big), samekey.contentHash(big));
  assert.equal(d.derive(['slug', 'en'], { time: T }).toString(), before[0]);
  assert.equal(keyed.derive(['slug'], { time: T }).toString(), before[1]);
  assert.deepEqual(keyed.deriveMany([T], [['slug']], { asString: true }), [before[1]]);
  assert.equal(samekey.verify(before[0], ['slug', 'en'], { time: T }), 'v1');
});

test('worker threads derive the same ids as the main thread (each has its own buffer)', async () => {
  const { Worker } = require('node:worker_threads');
  const entry = require.resolve(process.env.SAMEKEY_JS_PACKAGE || 'samekey');
  const rows = Array.from({ length: 200 }, (_, i) => [`slug-${i}`, 'en']);
  const want = rows.map((f) => samekey.deriveUlid(f, { time: T }).toString());
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const samekey = require(workerData.entry);
    parentPort.postMessage(workerData.rows.map((f) => samekey.deriveUlid(f, { time: workerData.time }).toString()));`;
  const run = () => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { entry, rows, time: T.getTime() } });
    w.once('message', resolve);
    w.once('error', reject);
  });
  const results = await Promise.all([run(), run()]);
  for (const got of results) assert.deepEqual(got, want);
});

test('two loaded copies of the module interleave without mixing requests', () => {
  const entry = require.resolve(process.env.SAMEKEY_JS_PACKAGE || 'samekey');
  const dir = path.dirname(entry);
  for (const k of Object.keys(require.cache)) if (k.startsWith(dir) && !k.endsWith('.node')) delete require.cache[k];
  const other = require(entry);
  assert.notEqual(other.UlidDeriver, samekey.UlidDeriver);
  const rows = Array.from({ length: 20 }, (_, i) => [`slug-${i}`, i % 2 ? 'en' : 'de']);
  const alone = rows.map((f) => samekey.deriveUlid(f, { time: T }).toString());
  const mixed = rows.map((f, i) => {
    const mine = samekey.deriveUlid(f, { time: T }).toString();
    const theirs = other.deriveUlid(rows[rows.length - 1 - i], { time: T }).toString();
    assert.equal(theirs, alone[rows.length - 1 - i]);
    return mine;
  });
  assert.deepEqual(mixed, alone);
});

test('errors carry the core code; ERROR_CODES lists them', () => {
  const e = (() => { try { samekey.parseRfc3339('nope'); } catch (x) { return x; } })();
  assert.ok(e instanceof SamekeyError && e instanceof Error);
  assert.equal(e.code, 'invalid_timestamp');
  assert.equal(e.name, 'SamekeyError');
  assert.ok(samekey.ERROR_CODES.includes('identity_mismatch'));
  assert.match(samekey.version(), /^\d+\.\d+\.\d+$/);
});

test('a ring from an accept list: the first is the primary; none is unknown_scheme', () => {
  const ring = samekey.KeyRing.fromAccept(['v2', 'v1']);
  assert.deepEqual(ring.accepted, new samekey.KeyRing('v2', ['v1']).accepted);
  assert.equal(code(() => samekey.KeyRing.fromAccept([])), 'unknown_scheme');
  const id = ring.deriveUlid(['a'], { time: T });
  assert.equal(code(() => samekey.verify(id, ['a'], { time: T, accept: [] })), 'unknown_scheme');
  assert.equal(samekey.verify(id, ['a'], { time: T, accept: ['v2'] }), 'v2');
  assert.equal(code(() => samekey.KeyRing.fromAccept(['v1,v2'])), 'unknown_scheme', 'a name is never split');
});

test('a misspelt option or a string for the fields is refused, never ignored', () => {
  const calls = [
    ['deriveUlid', () => samekey.deriveUlid(['a'], { time: 1, namepsace: 'posts' }), 'namepsace'],
    ['UlidDeriver', () => new samekey.UlidDeriver({ schema: 'v2' }), 'schema'],
    ['UlidDeriver.derive', () => new samekey.UlidDeriver().derive(['a'], { time: 1, tme: 2 }), 'tme'],
    ['deriveMany', () => new samekey.UlidDeriver().deriveMany([1], [['a']], { asStr: true }), 'asStr'],
    ['contentHash', () => samekey.contentHash('a', { shceme: 'v2' }), 'shceme'],
    ['contentHashJson', () => samekey.contentHashJson({}, { scheme: 'v1', x: 1 }), 'x'],
    ['revisionKey', () => samekey.revisionKey('sha256:' + '0'.repeat(64), { parnet: 'p' }), 'parnet'],
    ['KeyRing.deriveUlid', () => new samekey.KeyRing('v1').deriveUlid(['a'], { time: 1, secrets: null }), 'secrets'],
    ['verify', () => samekey.verify('0'.repeat(26), ['a'], { time: 1, accepted: ['v1'] }), 'accepted'],
  ];
  for (const [name, call, key] of calls) {
    assert.throws(call, (e) => e instanceof TypeError && e.message.includes(`'${key}'`), name);
  }
  for (const fields of ['slug', new Uint8Array(3)]) {
    assert.throws(() => samekey.deriveUlid(fields, { time: 1 }), TypeError);
    assert.throws(() => new samekey.UlidDeriver().derive(fields, { time: 1 }), TypeError);
  }
});

test('a fractional time is refused before anything else is checked', () => {
  assert.throws(() => samekey.deriveUlid(['a'], { time: 1.5, scheme: 'v9' }), (e) => e.code === 'invalid_timestamp');
  // RFC 3339 text before 1970 is a time, out of range: checked after the scheme (spec §4.4).
  assert.throws(() => samekey.deriveUlid(['a'], { time: '1969-12-31T23:59:59Z', scheme: 'v9' }), (e) => e.code === 'unknown_scheme');
  assert.throws(() => samekey.deriveUlid(['a'], { time: '1969-12-31T23:59:59Z' }), (e) => e.code === 'timestamp_out_of_range');
});

test('seconds given as milliseconds warn once, and the time is still used', async () => {
  const warnings = [];
  const listener = (w) => { if (w.name === 'SamekeySecondsWarning') warnings.push(w.message); };
  process.on('warning', listener);
  const id = samekey.deriveUlid(['slug', 'en'], { time: 1714564800 });
  samekey.deriveUlid(['slug', 'en'], { time: 1714564801 });
  samekey.deriveUlid(['slug', 'en'], { time: 1714564800000 });
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', listener);
  assert.equal(id.timestampMs, 1714564800, 'a valid time is never refused');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /1970-01-20.*1714564800000/);
});

test('timeMs names milliseconds; exactly one of time and timeMs', async () => {
  const warnings = [];
  const listener = (w) => { if (w.name === 'SamekeySecondsWarning') warnings.push(w.message); };
  process.on('warning', listener);
  const byMs = samekey.deriveUlid(['slug'], { timeMs: 1714564800 });
  const ring = new samekey.KeyRing('v1');
  assert.ok(byMs.equals(new samekey.UlidDeriver().derive(['slug'], { timeMs: 1714564800 })));
  assert.ok(byMs.equals(ring.deriveUlid(['slug'], { timeMs: 1714564800 })));
  assert.equal(samekey.verify(byMs, ['slug'], { timeMs: 1714564800 }), 'v1');
  assert.equal(ring.candidateUlids(['slug'], { timeMs: 1714564800 })[0].ulid.toString(), byMs.toString());
  await new Promise((resolve) => setImmediate(resolve));
  process.off('warning', listener);
  assert.deepEqual(warnings, [], 'milliseconds named as such do not warn');
  assert.ok(samekey.deriveUlid(['slug'], { timeMs: 1714564800000 }).equals(samekey.deriveUlid(['slug'], { time: new Date(1714564800000) })));
  assert.throws(() => samekey.deriveUlid(['slug'], { time: 1, timeMs: 1 }), TypeError);
  assert.throws(() => samekey.deriveUlid(['slug'], {}), TypeError);
  assert.throws(() => samekey.deriveUlid(['slug'], { timeMs: '1' }), TypeError);
  assert.throws(() => new samekey.UlidDeriver().derive(['slug'], {}), TypeError);
  assert.throws(() => samekey.deriveUlid(['slug'], { timeMs: 1.5 }), (e) => e.code === 'invalid_timestamp');
});
