'use strict';
// Every shared vector through the public API (SAMEKEY_VECTORS overrides the file).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
// SAMEKEY_JS_PACKAGE runs these tests against another package with the same API (samekey-wasm).
const samekey = require(process.env.SAMEKEY_JS_PACKAGE || 'samekey');
const { runDocument } = require('../lib/vectors.mjs');

const file = process.env.SAMEKEY_VECTORS || path.join(__dirname, '..', '..', '..', 'test-vectors', 'samekey.json');
const text = fs.readFileSync(file, 'utf8');
const vectors = JSON.parse(text).vectors;

test('every vector passes', () => {
  const outcomes = runDocument(samekey, text);
  const failed = outcomes.filter((o) => !o.passed).map((o) => `${o.id}: expected ${JSON.stringify(o.expected)}, got ${JSON.stringify(o.actual)}`);
  assert.ok(outcomes.length > 0, 'no vectors');
  assert.deepEqual(failed, []);
});

const SCHEME_ERRORS = ['unknown_scheme', 'scheme_not_supported'];

/**
 * The §6.2 code of the first fault a JS value holds, in the order samekey converts it
 * (arrays in order, objects key then value), or null.
 */
function valueFault(value, depth = 0) {
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'number_out_of_range';
  if (typeof value === 'string') return value.isWellFormed() ? null : 'invalid_string';
  if (value === null || typeof value !== 'object') return null;
  if (depth >= 128) return 'nesting_too_deep';
  const entries = Array.isArray(value) ? value.map((x) => [null, x]) : Object.entries(value);
  for (const [k, x] of entries) {
    const fault = (k !== null && valueFault(k)) || valueFault(x, depth + 1);
    if (fault) return fault;
  }
  return null;
}

/** Text, or `{"utf16": ...}` code units (spec §10.1). */
function vectorText(t) {
  if (typeof t === 'string') return t;
  const units = [];
  for (let i = 0; i < t.utf16.length; i += 4) units.push(parseInt(t.utf16.substr(i, 4), 16));
  return String.fromCharCode(...units);
}

/** Whether JSON text holds an integer literal (no fraction, no exponent) beyond ±(2^53-1). */
function hasUnsafeIntegerLiteral(json) {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (const [t] of json.matchAll(token)) {
    if (/^-?\d+$/.test(t) && (BigInt(t) > 2n ** 53n - 1n || BigInt(t) < 1n - 2n ** 53n)) return true;
  }
  return false;
}

// Whether an object of a text JSON.parse accepted names a member twice (after unescaping):
// JSON.parse keeps the last, and the member it drops may hold the text's other faults (a
// string that is not text), so the expected outcome cannot tell (spec §10.1).
function hasDuplicateKey(json) {
  const token = /"(?:[^"\\]|\\.)*"|[{}[\],:]|[^"{}[\],:\s]+/g;
  const open = []; // a Set of member names for each open object, null for each array
  let atName = false;
  for (const [t] of json.matchAll(token)) {
    if (t === '{' || t === '[') {
      open.push(t === '{' ? new Set() : null);
      atName = t === '{';
    } else if (t === '}' || t === ']') {
      open.pop();
      atName = false;
    } else if (t === ',') {
      atName = open.at(-1) instanceof Set;
    } else if (atName) {
      const name = JSON.parse(t);
      if (open.at(-1).has(name)) return true;
      open.at(-1).add(name);
      atName = false;
    }
  }
  return false;
}

// Each content_json case as the value JSON.parse makes of it. Which cases this path
// takes, and their outcome, follow from spec §6.2 and §10.1: a text JSON.parse refuses
// has no value; a text it reads into other values than §6.1 does (an integer literal
// beyond 2^53-1 becomes a double, which §6.2 accepts; a duplicate member is kept once)
// gives no outcome for this path; every other case fails with the scheme name's
// conversion, then the first fault of the value's (both before the scheme's checks), or
// else has the text's outcome. A number JSON.parse reads as an infinity (1e400) is such a
// fault, number_out_of_range, as the text's is.
test('content_json through JSON.parse into JS values', () => {
  const cases = vectors.filter((x) => x.op === 'content_json');
  let checked = 0;
  let skipped = 0;
  for (const v of cases) {
    const json = vectorText(v.json);
    const scheme = vectorText(v.scheme);
    let value;
    try {
      value = JSON.parse(json);
    } catch {
      assert.ok('error' in v.expect, `${v.id}: JSON.parse refused a text samekey accepts`);
      skipped += 1;
      continue;
    }
    const fault = valueFault(value);
    const reread = hasUnsafeIntegerLiteral(json) || (!fault && hasDuplicateKey(json));
    if (reread) {
      skipped += 1; // the JS value is other data than the text (spec §6.2)
      continue;
    }
    const schemeFault = scheme.isWellFormed() ? undefined : 'invalid_string';
    if (schemeFault || fault || 'error' in v.expect) {
      const want = schemeFault || fault || v.expect.error;
      assert.throws(() => samekey.contentHashJson(value, { scheme }), (e) => e instanceof samekey.SamekeyError && e.code === want, v.id);
    } else {
      assert.equal(samekey.canonicalJson(value), v.expect.canonical, v.id);
      assert.equal(samekey.contentHashJson(value, { scheme }), v.expect.hash, v.id);
    }
    checked += 1;
  }
  // Every case ran or has no JS value; a file with any valid JSON case runs some.
  assert.equal(checked + skipped, cases.length);
  assert.ok(checked > 0 || cases.every((v) => 'error' in v.expect), `${checked} of ${cases.length}`);
});

test('a failing vector fails alone: the run goes on', () => {
  const doc = JSON.stringify({ schema: 'samekey-test-vectors/1', vectors: [
    { id: 'throws', op: 'ulid', scheme: 'v1', namespace: '', timestamp_ms: 0, fields: 7, expect: {} },
    { id: 'unknown-op', op: 'frobnicate', expect: {} },
    { id: 'fine', op: 'content', scheme: 'v1', data_hex: '', expect: { hash: samekey.contentHash(new Uint8Array(0)) } },
  ] });
  const outcomes = runDocument(samekey, doc);
  assert.deepEqual(outcomes.map((o) => [o.id, o.passed]), [['throws', false], ['unknown-op', false], ['fine', true]]);
  assert.match(JSON.stringify(outcomes[0].actual), /exception/);
});

test('selftest runs the embedded subset', () => {
  assert.ok(samekey.selftest() >= 10);
});
