// The package loads with `import` as well as `require`, and both are the same objects.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import samekey, { deriveUlid, SamekeyError } from 'samekey';

test('import and require give the same module', () => {
  const required = createRequire(import.meta.url)('samekey');
  assert.equal(samekey, required);
  assert.equal(SamekeyError, required.SamekeyError);
  assert.equal(deriveUlid(['a'], { time: 1 }).toString(), required.deriveUlid(['a'], { time: 1 }).toString());
});
