// The README's better-sqlite3 example does what the README says.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { main } from '../examples/upsert.mjs';

test('the upsert pipeline is idempotent across runs', () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'samekey-')), 'posts.db');
  assert.deepEqual(main(file), ['written', 'unchanged', 'written', "refused: the edit changes the document's identity", 'rows: 1']);
  const table = () => new Database(file, { readonly: true }).prepare('SELECT * FROM posts').all();
  const afterFirst = table();
  main(file); // the whole pipeline retried over the same database
  assert.deepEqual(table(), afterFirst);
  assert.equal(afterFirst[0].body, 'Hello');
});

test("the README's upsert block is the example file's code", () => {
  const readme = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const example = fs.readFileSync(new URL('../examples/upsert.mjs', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/<!-- tested: bindings\/node\/test\/example\.test\.mjs -->\n```js\n([\s\S]*?)```/g)];
  assert.equal(blocks.length, 1, 'one README block is marked as tested here');
  assert.ok(example.includes(blocks[0][1]), 'the README block is not a part of examples/upsert.mjs: copy the code');
});
