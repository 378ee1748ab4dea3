// The pipeline's promises on SQLite: re-runs write nothing, two concurrent runs make no
// duplicate, a changed publishedAt is refused, a changed body is written once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { run } from '../pipeline.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const data = join(here, '..', '..', 'data');
const posts = join(data, 'posts.jsonl');
const edited = join(data, 'posts-edited.jsonl');
const freshDb = () => join(mkdtempSync(join(tmpdir(), 'samekey-example-')), 'blog.db');
const rows = (path) => {
  const db = new Database(path, { readonly: true });
  const all = db.prepare('SELECT * FROM posts ORDER BY id').all();
  db.close();
  return all;
};
const sourceLines = (path) => readFileSync(path, 'utf8').split('\n').filter((l) => l.trim());

test('re-running on the same input writes nothing and changes no document', () => {
  const path = freshDb();
  run(path, posts);
  const before = rows(path);
  assert.equal(before.length, sourceLines(posts).length);
  // data_version moves when another connection commits: the engine's own write counter.
  const watcher = new Database(path);
  const version = () => watcher.pragma('data_version', { simple: true });
  const v0 = version();
  for (let i = 0; i < 5; i++) {
    const out = run(path, posts);
    assert.deepEqual(out.map((l) => l.split('\t')[4]), out.map(() => 'unchanged'));
  }
  assert.equal(version(), v0, 'no commit by the re-runs');
  watcher.close();
  assert.deepEqual(rows(path), before, 'every document, updated_at included, unchanged');
});

test('two pipelines at once over the same input make no duplicate', async () => {
  const path = freshDb();
  run(path, posts);
  const again = freshDb();
  const exec = promisify(execFile);
  const script = join(here, '..', 'pipeline.mjs');
  await Promise.all([exec('node', [script, again, posts]), exec('node', [script, again, posts])]);
  const got = rows(again);
  assert.equal(got.length, sourceLines(posts).length);
  assert.equal(new Set(got.map((r) => r.id)).size, got.length);
  assert.deepEqual(got.map((r) => r.id), rows(path).map((r) => r.id));
});

test('a changed publishedAt is refused with nothing written; a changed body is written once', () => {
  const path = freshDb();
  run(path, posts);
  const before = rows(path);
  const out = run(path, edited);
  const actions = Object.fromEntries(out.map((l) => l.split('\t')).map((f) => [`${f[1]}/${f[2]}`, f[4]]));
  assert.equal(actions['hello-world/fr'], 'refused:identity_mismatch');
  assert.equal(actions['hello-world/en'], 'updated');
  assert.equal(actions['deterministic-ids/en'], 'unchanged');
  const after = rows(path);
  assert.equal(after.length, before.length, 'no orphan, no second copy');
  const fr = (rs) => rs.find((r) => r.slug === 'hello-world' && r.lang === 'fr');
  assert.deepEqual(fr(after), fr(before), 'the refused document is untouched');
  const en = after.find((r) => r.slug === 'hello-world' && r.lang === 'en');
  assert.match(en.body, /edited/);
  const second = run(path, edited);
  assert.equal(second.find((l) => l.includes('\thello-world\ten\t')).split('\t')[4], 'unchanged');
  assert.deepEqual(rows(path), after, 'written once: the second run moves nothing');
});

test('writes the cross-language comparison file', () => {
  const out = process.env.SAMEKEY_EXAMPLES_OUT;
  if (!out) return;
  const path = freshDb();
  const lines = [...run(path, posts), ...run(path, edited)];
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'node.tsv'), lines.join('\n') + '\n');
});
