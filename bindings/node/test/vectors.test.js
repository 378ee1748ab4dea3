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

// Each content_json case as the value JSON.parse makes of it. Converting a value comes
// before the scheme's checks (spec §6.2), so a fault that survives JSON.parse is reported
// first; a case whose fault JSON.parse removes has no value to test.
test('content_json through JSON.parse into JS values', () => {
  const cases = vectors.filter((x) => x.op === 'content_json');
  let checked = 0;
  let skipped = 0;
  for (const v of cases) {
    let value;
    try {
      value = JSON.parse(v.json);
    } catch {
      assert.ok('error' in v.expect, v.id); // text-level faults have no JS value
      skipped += 1;
      continue;
    }
    if ('error' in v.expect) {
      const code = v.expect.error;
      const fault = valueFault(value);
      if (!fault && code === 'duplicate_key') {
        skipped += 1; // JSON.parse keeps the last duplicate: no fault remains
        continue;
      }
      if (!fault && code === 'number_out_of_range' && /^-?\d+$/.test(v.json.trim())) {
        // An integer literal beyond 2^53-1 is a rounded double once parsed: JS cannot tell.
        assert.doesNotThrow(() => samekey.contentHashJson(value), v.id);
        skipped += 1;
        continue;
      }
      const want = fault || (SCHEME_ERRORS.includes(code) ? code : null);
      assert.ok(want, `${v.id}: JSON.parse accepted ${JSON.stringify(v.json)} and left no fault`);
      assert.throws(() => samekey.contentHashJson(value, { scheme: v.scheme }), (e) => e instanceof samekey.SamekeyError && e.code === want, v.id);
    } else {
      assert.equal(samekey.canonicalJson(value), v.expect.canonical, v.id);
      assert.equal(samekey.contentHashJson(value, { scheme: v.scheme }), v.expect.hash, v.id);
    }
    checked += 1;
  }
  // Every case ran or has no JS value; a file with any valid JSON case runs some.
  assert.equal(checked + skipped, cases.length);
  assert.ok(checked > 0 || cases.every((v) => 'error' in v.expect), `${checked} of ${cases.length}`);
});

test('selftest runs the embedded subset', () => {
  assert.ok(samekey.selftest() >= 10);
});
