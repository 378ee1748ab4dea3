// An idempotent upsert pipeline with better-sqlite3. Run it twice, or kill it half-way
// and run it again: the table ends the same, because each post's id derives from what
// identifies it, unchanged content is not rewritten, and a changed identity is refused.
import Database from 'better-sqlite3';
import * as samekey from 'samekey';

const deriver = new samekey.UlidDeriver({ namespace: 'posts' });

export function upsert(db, post) {
  const id = deriver.derive([post.slug, post.lang], { time: post.publishedAt }).toString();
  const content = samekey.contentHashJson(post);
  const row = db.prepare('SELECT content_hash FROM posts WHERE id = ?').get(id);
  if (!samekey.needsWrite(row?.content_hash ?? null, content)) return 'unchanged';
  db.prepare(
    `INSERT INTO posts (id, slug, lang, published_at, body, content_hash) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET body = excluded.body, content_hash = excluded.content_hash`,
  ).run(id, post.slug, post.lang, post.publishedAt, post.body, content);
  return 'written';
}

export function edit(db, storedId, post) {
  try {
    samekey.verify(storedId, [post.slug, post.lang], { time: post.publishedAt, namespace: 'posts' });
  } catch (e) {
    if (e instanceof samekey.SamekeyError && e.code === 'identity_mismatch') {
      return "refused: the edit changes the document's identity";
    }
    throw e;
  }
  return upsert(db, post);
}

export function main(file = ':memory:') {
  const db = new Database(file);
  db.exec(`CREATE TABLE IF NOT EXISTS posts (id TEXT PRIMARY KEY, slug TEXT, lang TEXT,
           published_at TEXT, body TEXT, content_hash TEXT)`);
  const post = { slug: 'hello-world', lang: 'en', publishedAt: '2024-05-01T12:00:00Z', body: 'Hi' };
  const log = [
    upsert(db, post), // written
    upsert(db, post), // a retry: unchanged, no duplicate
    upsert(db, { ...post, body: 'Hello' }), // an edit of the body: written
  ];
  const storedId = db.prepare('SELECT id FROM posts').get().id;
  log.push(edit(db, storedId, { ...post, publishedAt: '2024-05-02T12:00:00Z' })); // refused
  log.push(`rows: ${db.prepare('SELECT COUNT(*) AS n FROM posts').get().n}`);
  db.close();
  return log;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(main(process.argv[2]).join('\n'));
}
