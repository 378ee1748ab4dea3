// The blog-ingestion pipeline on SQLite (better-sqlite3): one JSONL post per line, upserted
// under an id derived from (slug, lang) and publishedAt. Usage:
//   [SAMEKEY_RING=v2,v1] node pipeline.mjs DB INPUT.jsonl OUTPUT.tsv
// OUTPUT gets one line per post: id, slug, lang, source hash, action; the Python and Go
// pipelines write the same file for the same input.
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { KeyRing, contentHashJsonText, needsWrite, SamekeyError } from 'samekey';
import { createSchema, ID_COLUMNS, NAMESPACE } from './rollout.mjs';

/** The writer's key ring from its schemes, primary first; each needs a column. */
export function keyRing(schemes = ['v1']) {
  const ring = KeyRing.fromAccept(schemes);
  const missing = ring.accepted.filter((s) => !(s in ID_COLUMNS));
  if (missing.length) throw new Error(`the posts table has no id column for ${missing.join(', ')}`);
  return ring;
}

export function openDb(path) {
  // Another pipeline may hold the lock: wait for it. (The rollback journal, not WAL: two
  // processes switching a new file to WAL at once can fail without waiting.)
  const db = new Database(path, { timeout: 10000 });
  createSchema(db);
  return db;
}

// ANCHOR: look
/** What to do with one source line, from what the store holds now. */
export function look(db, line, ring) {
  const post = JSON.parse(line);
  const fields = [post.slug, post.lang];
  const options = { time: post.publishedAt, namespace: NAMESPACE };
  const ids = Object.fromEntries(ring.candidateUlids(fields, options).map((c) => [c.scheme, c.ulid.toString()]));
  const id = ids[ring.primary];
  const sourceHash = contentHashJsonText(line);
  const stored = db
    .prepare(`SELECT id, id_v1, id_v2, source_hash FROM posts
              WHERE (slug = ? AND lang = ?) OR id_v1 = ? OR id_v2 = ? LIMIT 1`)
    .get(post.slug, post.lang, ids.v1 ?? null, ids.v2 ?? null);
  if (!stored) return { post, ids, id, sourceHash, insert: true };
  const known = ring.accepted.filter((s) => stored[ID_COLUMNS[s]] != null);
  // Created by a ring sharing no scheme with ours: we cannot tell whether it is this post.
  if (known.length === 0) return { id: stored.id, sourceHash, action: 'refused:scheme_not_accepted' };
  for (const scheme of known) {
    // Every recorded id of our ring must be ours (an edited identity field, or a collision).
    try {
      if (ring.verifyUlid(stored[ID_COLUMNS[scheme]], fields, options) !== scheme) {
        return { id, sourceHash, action: 'refused:identity_mismatch' };
      }
    } catch (e) {
      if (e instanceof SamekeyError) return { id, sourceHash, action: `refused:${e.code}` };
      throw e;
    }
  }
  if (!needsWrite(stored.source_hash, sourceHash)) return { id: stored.id, sourceHash, action: 'unchanged' };
  return { post, ids, id: stored.id, sourceHash, update: true };
}
// ANCHOR_END: look

// ANCHOR: apply
/** Carries out look's plan; null when another writer stored the post in between. */
export function apply(db, plan, ring) {
  const { post, ids, id, sourceHash } = plan;
  if (plan.action) return [id, sourceHash, plan.action];
  try {
    if (plan.insert) {
      const inserted = db
        .prepare(`INSERT INTO posts (id, id_scheme, id_v1, id_v2, slug, lang, published_at, body, source_hash, updated_at)
                  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
        .run(id, ring.primary, ids.v1 ?? null, ids.v2 ?? null, post.slug, post.lang, post.publishedAt, post.body,
          sourceHash, Date.now()).changes;
      return inserted ? [id, sourceHash, 'inserted'] : null;
    }
    const updated = db
      .prepare(`UPDATE posts SET body = ?, source_hash = ?, updated_at = ?,
                  id_v1 = COALESCE(id_v1, ?), id_v2 = COALESCE(id_v2, ?)
                WHERE id = ? AND source_hash <> ?`)
      .run(post.body, sourceHash, Date.now(), ids.v1 ?? null, ids.v2 ?? null, id, sourceHash).changes;
    // No change: another run wrote the same content between our read and our write.
    return [id, sourceHash, updated ? 'updated' : 'unchanged'];
  } catch (e) {
    // The store refused our ring: it lacks a required scheme or holds a retired one.
    if (e.code === 'SQLITE_CONSTRAINT_TRIGGER' && /^posts_re(quire|tire)_/.test(e.message)) {
      return [plan.ids[ring.primary], sourceHash, 'refused:scheme_required'];
    }
    throw e;
  }
}
// ANCHOR_END: apply

/** Ingests one source line; returns [id, source hash, action]. */
export function ingest(db, line, ring) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const done = apply(db, look(db, line, ring), ring);
    if (done) return done;
  }
  throw new Error(`gave up after 5 attempts: ${line}`);
}

export function run(dbPath, inputPath, outputPath, schemes = ['v1']) {
  const ring = keyRing(schemes);
  const db = openDb(dbPath);
  const out = [];
  for (const line of readFileSync(inputPath, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const post = JSON.parse(line);
    const [id, sourceHash, action] = ingest(db, line, ring);
    out.push([id, post.slug, post.lang, sourceHash, action].join('\t'));
  }
  db.close();
  if (outputPath) writeFileSync(outputPath, out.join('\n') + '\n');
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dbPath, inputPath, outputPath] = process.argv.slice(2);
  if (!dbPath || !inputPath) {
    console.error('usage: node pipeline.mjs DB INPUT.jsonl [OUTPUT.tsv]');
    process.exit(2);
  }
  const ring = (process.env.SAMEKEY_RING ?? 'v1').split(',');
  for (const line of run(dbPath, inputPath, outputPath, ring)) console.log(line);
}
