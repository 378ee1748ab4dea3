// The blog-ingestion pipeline on SQLite (better-sqlite3): one JSONL post per line, upserted
// under an id derived from (slug, lang) and publishedAt. Usage:
//   node pipeline.mjs DB INPUT.jsonl OUTPUT.tsv
// OUTPUT gets one line per post: id, slug, lang, source hash, action; the Python and Go
// pipelines write the same file for the same input.
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { UlidDeriver, contentHashJsonText, needsWrite, verify, SamekeyError } from 'samekey';

const NAMESPACE = 'posts';
const deriver = new UlidDeriver({ scheme: 'v1', namespace: NAMESPACE });

export function openDb(path) {
  // Another pipeline may hold the lock: wait for it. (The rollback journal, not WAL: two
  // processes switching a new file to WAL at once can fail without waiting.)
  const db = new Database(path, { timeout: 10000 });
  db.exec(`CREATE TABLE IF NOT EXISTS posts (
    id TEXT PRIMARY KEY, slug TEXT NOT NULL, lang TEXT NOT NULL, published_at TEXT NOT NULL,
    body TEXT NOT NULL, source_hash TEXT NOT NULL, updated_at INTEGER NOT NULL,
    UNIQUE (slug, lang))`);
  return db;
}

/** Ingests one source line; returns [id, action]. */
export function ingest(db, line) {
  const post = JSON.parse(line);
  const fields = [post.slug, post.lang];
  const id = deriver.derive(fields, { time: post.publishedAt }).toString();
  const sourceHash = contentHashJsonText(line);
  const stored = db.prepare('SELECT id, source_hash FROM posts WHERE slug = ? AND lang = ?').get(post.slug, post.lang);
  if (stored && stored.id !== id) {
    // An identity field changed: writing would orphan the stored document.
    try {
      verify(stored.id, fields, { time: post.publishedAt, namespace: NAMESPACE, accept: ['v1'] });
    } catch (e) {
      if (e instanceof SamekeyError) return [id, sourceHash, `refused:${e.code}`];
      throw e;
    }
  }
  if (stored && !needsWrite(stored.source_hash, sourceHash)) return [id, sourceHash, 'unchanged'];
  const changes = db
    .prepare(
      `INSERT INTO posts (id, slug, lang, published_at, body, source_hash, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET body = excluded.body, source_hash = excluded.source_hash,
         updated_at = excluded.updated_at
       WHERE posts.source_hash <> excluded.source_hash`,
    )
    .run(id, post.slug, post.lang, post.publishedAt, post.body, sourceHash, Date.now()).changes;
  // No change: another run wrote the same document between our read and our write.
  return [id, sourceHash, changes === 0 ? 'unchanged' : stored ? 'updated' : 'inserted'];
}

export function run(dbPath, inputPath, outputPath) {
  const db = openDb(dbPath);
  const out = [];
  for (const line of readFileSync(inputPath, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const post = JSON.parse(line);
    const [id, sourceHash, action] = ingest(db, line);
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
  for (const line of run(dbPath, inputPath, outputPath)) console.log(line);
}
