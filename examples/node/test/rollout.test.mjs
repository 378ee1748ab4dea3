// Changing the key algorithm while writers run, on pipeline.mjs's SQLite table: the
// key-rings guide's client-side rollout step by step, with processes of the rings each
// step has side by side racing on the same posts. The natural key (slug, lang) is dropped
// first, so that what keeps one post per identity is what any collection has: the
// per-scheme id columns and the store's required schemes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { contentHashJsonText, deriveUlid } from 'samekey';
import { run, look, apply, keyRing, openDb } from '../pipeline.mjs';
import { require, retire, status, RolloutError, NAMESPACE } from '../rollout.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const script = join(here, '..', 'pipeline.mjs');
const posts = readFileSync(join(here, '..', '..', 'data', 'posts.jsonl'), 'utf8').split('\n').filter((l) => l.trim());
const post = (slug, day) => JSON.stringify({ slug, lang: 'en', publishedAt: `2024-07-${day}T09:00:00Z`, body: slug });
const NEW = post('rollout', '01');
const LATER = post('contract', '02');
const RETIRED = post('retired', '03');
const BEFORE = ['v1'], EXPAND = ['v1', 'v2'], SWITCH = ['v2', 'v1'], CONTRACT = ['v2'];

function freshDb() {
  const path = join(mkdtempSync(join(tmpdir(), 'samekey-rollout-')), 'blog.db');
  // The posts table without UNIQUE (slug, lang) (SQLite cannot drop a table constraint);
  // openDb adds the per-scheme columns, indexes and triggers as it does to any table.
  withDb(path, (db) => db.exec(`CREATE TABLE posts (id TEXT PRIMARY KEY, slug TEXT NOT NULL,
    lang TEXT NOT NULL, published_at TEXT NOT NULL, body TEXT NOT NULL, source_hash TEXT NOT NULL,
    updated_at INTEGER NOT NULL)`));
  openDb(path).close();
  return path;
}

const input = (lines) => {
  const path = join(mkdtempSync(join(tmpdir(), 'samekey-input-')), 'posts.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
};
const answers = (out) => Object.fromEntries(out.map((l) => l.split('\t')).map((c) => [`${c[1]}/${c[2]}`, `${c[0]} ${c[4]}`]));
const write = (path, lines, ring) => answers(run(path, input(lines), undefined, ring));
const exec = promisify(execFile);
async function race(path, lines, rings) {
  const file = input(lines);
  const outs = await Promise.all(rings.map((ring) =>
    exec('node', [script, path, file], { env: { ...process.env, SAMEKEY_RING: ring.join(',') } })));
  return outs.map(({ stdout }) => answers(stdout.trim().split('\n')));
}
const withDb = (path, f) => {
  const db = new Database(path, { timeout: 10000 });
  try { return f(db); } finally { db.close(); }
};
const rows = (path) => withDb(path, (db) => db.prepare('SELECT slug, lang, id, id_scheme, id_v1, id_v2 FROM posts').all());
const ulid = (line, scheme) => {
  const p = JSON.parse(line);
  return deriveUlid([p.slug, p.lang], { time: p.publishedAt, namespace: NAMESPACE, scheme }).toString();
};

/** No twin, and every writer was told the id its post was created under. */
function onePostPerIdentity(path, runs) {
  const stored = rows(path);
  const created = new Map(stored.map((r) => [`${r.slug}/${r.lang}`, r.id]));
  assert.equal(created.size, stored.length, `twins: ${JSON.stringify(stored)}`);
  for (const answersOfRun of runs) {
    for (const [name, answer] of Object.entries(answersOfRun)) {
      const [id, action] = answer.split(' ');
      if (!action.startsWith('refused:')) assert.equal(id, created.get(name), `${name}: told ${id}`);
    }
  }
}

// ANCHOR: steps
test('the rollout step by step, with the previous step\'s writers still running', async () => {
  const path = freshDb();
  write(path, posts, BEFORE);
  // 1. Expand: ring (v1, v2) beside the old writers.
  onePostPerIdentity(path, await race(path, [...posts, NEW], [BEFORE, EXPAND, EXPAND]));
  // 2. Require v2: every post gets its v2 id; a writer without v2 is refused from now on.
  withDb(path, (db) => require(db, 'v2'));
  assert.deepEqual(rows(path).filter((r) => r.id_v2 === null), []);
  assert.match(write(path, [LATER], BEFORE)['contract/en'], / refused:scheme_required$/);
  // 3. Switch: ring (v2, v1) creates under v2, racing ring (v1, v2).
  onePostPerIdentity(path, await race(path, [...posts, LATER], [EXPAND, SWITCH, SWITCH]));
  // 4. Retire v1: its ids are cleared; a writer still recording them is refused.
  withDb(path, (db) => retire(db, 'v1'));
  assert.ok(rows(path).every((r) => r.id_v1 === null));
  assert.match(write(path, [RETIRED], SWITCH)['retired/en'], / refused:scheme_required$/);
  // 5. Contract: ring (v2) alone.
  const runs = await race(path, [...posts, NEW, LATER, RETIRED], [CONTRACT, CONTRACT]);
  onePostPerIdentity(path, runs);
  assert.match(runs[0]['retired/en'], new RegExp(`^${ulid(RETIRED, 'v2')} (inserted|unchanged)$`));
  const lines = withDb(path, status).map((l) => l.split('\t'));
  assert.deepEqual(lines.map((l) => l[1]), ['retired', 'required']);
  assert.equal(lines[1][4], 'missing 0');
});
// ANCHOR_END: steps

test('what a skipped step does', () => {
  const path = freshDb();
  write(path, posts, BEFORE);
  assert.match(write(path, [NEW], CONTRACT)['rollout/en'], / refused:scheme_required$/, 'v1 is still required');
  assert.throws(() => withDb(path, (db) => retire(db, 'v1')), /last required scheme/);
  withDb(path, (db) => require(db, 'v2'));
  withDb(path, (db) => retire(db, 'v1'));
  assert.throws(() => withDb(path, (db) => require(db, 'v1')), RolloutError);
});

test('a writer meeting a post of a scheme it does not know says so', () => {
  const path = freshDb();
  withDb(path, (db) => require(db, 'v2'));
  withDb(path, (db) => retire(db, 'v1'));
  write(path, [NEW], CONTRACT);
  assert.equal(write(path, [NEW], BEFORE)['rollout/en'], `${ulid(NEW, 'v2')} refused:scheme_not_accepted`);
  const moved = JSON.stringify({ ...JSON.parse(NEW), publishedAt: '2024-07-05T09:00:00Z' });
  assert.match(write(path, [moved], CONTRACT)['rollout/en'], / refused:identity_mismatch$/);
});

for (const [first, second] of [[BEFORE, SWITCH], [SWITCH, BEFORE], [EXPAND, SWITCH]]) {
  test(`both look, then both insert (${first} and ${second}): one post`, () => {
    const path = freshDb();
    const [a, b] = [first, second].map(keyRing);
    const [dbA, dbB] = [openDb(path), openDb(path)];
    const [planA, planB] = [look(dbA, NEW, a), look(dbB, NEW, b)];
    assert.ok(planA.insert && planB.insert, 'neither found the post');
    assert.equal(apply(dbA, planA, a)[2], 'inserted');
    assert.equal(apply(dbB, planB, b), null, 'the second insert created nothing');
    assert.deepEqual(apply(dbB, look(dbB, NEW, b), b), [ulid(NEW, first[0]), planB.sourceHash, 'unchanged']);
    dbA.close();
    dbB.close();
    assert.equal(rows(path).length, 1);
  });
}

test('without the per-scheme unique columns the same interleaving makes a twin', () => {
  const path = freshDb();
  withDb(path, (db) => db.exec('DROP INDEX posts_id_v1_key; DROP INDEX posts_id_v2_key'));
  const [a, b] = [BEFORE, SWITCH].map(keyRing);
  const [dbA, dbB] = [openDb(path), openDb(path)];
  const [planA, planB] = [look(dbA, NEW, a), look(dbB, NEW, b)];
  apply(dbA, planA, a);
  apply(dbB, planB, b);
  dbA.close();
  dbB.close();
  assert.deepEqual(rows(path).map((r) => r.id_scheme).sort(), ['v1', 'v2'], 'two posts for one identity');
});

test('a table of the recipe before key rings is migrated; its old writers are refused', () => {
  const path = join(mkdtempSync(join(tmpdir(), 'samekey-old-')), 'blog.db');
  const old = new Database(path);
  old.exec(`CREATE TABLE posts (
    id TEXT PRIMARY KEY, slug TEXT NOT NULL, lang TEXT NOT NULL, published_at TEXT NOT NULL,
    body TEXT NOT NULL, source_hash TEXT NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (slug, lang))`);
  // What samekey 0.3's pipeline.mjs wrote: the v1 id and nothing else.
  const oldInsert = old.prepare(`INSERT INTO posts (id, slug, lang, published_at, body, source_hash, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 0) ON CONFLICT (id) DO NOTHING`);
  for (const line of posts) {
    const p = JSON.parse(line);
    oldInsert.run(ulid(line, 'v1'), p.slug, p.lang, p.publishedAt, p.body, contentHashJsonText(line));
  }
  const out = write(path, posts, EXPAND);
  assert.deepEqual(Object.values(out), posts.map((l) => `${ulid(l, 'v1')} unchanged`));
  assert.equal(withDb(path, status)[0], `v1\trequired\tcreated ${posts.length}\trecorded ${posts.length}\tmissing 0`);
  const p = JSON.parse(NEW);
  assert.throws(() => oldInsert.run(ulid(NEW, 'v1'), p.slug, p.lang, p.publishedAt, p.body, contentHashJsonText(NEW)), /posts_require_v1/);
  old.close();
});
