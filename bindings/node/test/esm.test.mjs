// The package loads with `import` as well as `require`, and both are the same objects.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

// SAMEKEY_JS_PACKAGE / SAMEKEY_JS_MODULE (its CommonJS and ES-module entries) run this
// against another package with the same API (samekey-wasm).
const name = process.env.SAMEKEY_JS_PACKAGE || 'samekey';
const esm = await import(process.env.SAMEKEY_JS_MODULE || name);
const { default: samekey, deriveUlid, SamekeyError } = esm;

test('the ES module names every export of the CommonJS entry, and no other', () => {
  // The ES-module entries list their exports by hand (static named exports need it).
  const required = createRequire(import.meta.url)(name);
  const named = Object.keys(esm).filter((k) => k !== 'default').sort();
  assert.deepEqual(named, Object.keys(required).sort());
});

test('import and require give the same module', () => {
  const required = createRequire(import.meta.url)(name);
  assert.equal(samekey, required);
  assert.equal(SamekeyError, required.SamekeyError);
  assert.equal(deriveUlid(['a'], { time: 1 }).toString(), required.deriveUlid(['a'], { time: 1 }).toString());
});
