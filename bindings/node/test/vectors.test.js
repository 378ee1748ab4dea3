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

/** The code a text-level fault has once JSON.parse made it a JS value (spec §6.2). */
function valueFault(textCode) {
  // The only invalid_json faults JSON.parse lets through are escaped lone surrogates,
  // which become JS strings that are not well-formed.
  return textCode === 'invalid_json' ? 'invalid_string' : textCode;
}

test('content_json through JSON.parse into JS values', () => {
  let checked = 0;
  for (const v of vectors.filter((x) => x.op === 'content_json')) {
    let value;
    try {
      value = JSON.parse(v.json);
    } catch {
      assert.ok('error' in v.expect, v.id); // text-level faults have no JS value
      continue;
    }
    if ('error' in v.expect) {
      const code = v.expect.error;
      if (code === 'duplicate_key') continue; // JSON.parse keeps the last duplicate: no fault remains
      if (code === 'number_out_of_range' && /^-?\d+$/.test(v.json.trim())) {
        // An integer literal beyond 2^53-1 is a rounded double once parsed: JS cannot tell.
        assert.doesNotThrow(() => samekey.contentHashJson(value), v.id);
        continue;
      }
      assert.throws(() => samekey.contentHashJson(value, { scheme: v.scheme }), (e) => e instanceof samekey.SamekeyError && e.code === valueFault(code), v.id);
    } else {
      assert.equal(samekey.canonicalJson(value), v.expect.canonical, v.id);
      assert.equal(samekey.contentHashJson(value, { scheme: v.scheme }), v.expect.hash, v.id);
    }
    checked += 1;
  }
  assert.ok(checked > 50, `${checked}`);
});

test('selftest runs the embedded subset', () => {
  assert.ok(samekey.selftest() >= 10);
});
