// The store's side of changing the key algorithm while writers run, for pipeline.mjs's
// SQLite table (the key-rings guide's client-side rollout; examples/python/rollout.py is
// the same on PostgreSQL). Each post records its id in one unique column per scheme, and
// the store names its required and retired schemes with triggers (SQLite cannot add a
// CHECK to a table), so that a writer whose ring lacks a required scheme, or holds a
// retired one, is refused: any two writers it lets in share a required scheme.
//   node rollout.mjs DB status | require SCHEME | retire SCHEME
import Database from 'better-sqlite3';
import { deriveUlid, KeyRing, SamekeyError } from 'samekey';

export const NAMESPACE = 'posts';
export const ID_COLUMNS = { v1: 'id_v1', v2: 'id_v2' };

export class RolloutError extends Error {}

/** Each scheme's state: 'required' or 'retired' (absent: neither). */
export function states(db) {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB 'posts_re*_insert'")
    .pluck()
    .all();
  return Object.fromEntries(
    names.map((n) => n.match(/^posts_(require|retire)_(v\d+)_insert$/)).filter(Boolean)
      .map(([, verb, scheme]) => [scheme, verb === 'require' ? 'required' : 'retired']),
  );
}

// A write whose row breaks the state aborts with the trigger's name as its message.
function stateTriggers(db, verb, scheme) {
  const column = columnOf(scheme);
  const breaks = verb === 'require' ? `NEW.${column} IS NULL` : `NEW.${column} IS NOT NULL`;
  for (const op of ['insert', 'update']) {
    db.exec(`CREATE TRIGGER posts_${verb}_${scheme}_${op} BEFORE ${op.toUpperCase()} ON posts
      WHEN ${breaks} BEGIN SELECT RAISE(ABORT, 'posts_${verb}_${scheme}'); END`);
  }
}

function dropTriggers(db, verb, scheme) {
  for (const op of ['insert', 'update']) db.exec(`DROP TRIGGER IF EXISTS posts_${verb}_${scheme}_${op}`);
}

/** The posts table, its per-scheme id columns and v1 required, on a new database; on a
 * table of the recipe before key rings, the same added (every post stored so far was
 * derived under v1). Repeating it changes nothing. */
export function createSchema(db) {
  db.transaction(() => {
    const columns = db.prepare("SELECT name FROM pragma_table_info('posts')").pluck().all();
    if (columns.includes('id_scheme')) return;
    if (columns.length === 0) {
      db.exec(`CREATE TABLE posts (
        id TEXT PRIMARY KEY, slug TEXT NOT NULL, lang TEXT NOT NULL, published_at TEXT NOT NULL,
        body TEXT NOT NULL, source_hash TEXT NOT NULL, updated_at INTEGER NOT NULL,
        UNIQUE (slug, lang))`);
    }
    db.exec(`ALTER TABLE posts ADD COLUMN id_scheme TEXT;
      ALTER TABLE posts ADD COLUMN id_v1 TEXT; ALTER TABLE posts ADD COLUMN id_v2 TEXT;
      UPDATE posts SET id_scheme = 'v1', id_v1 = id;
      CREATE UNIQUE INDEX posts_id_v1_key ON posts (id_v1);
      CREATE UNIQUE INDEX posts_id_v2_key ON posts (id_v2);`);
    stateTriggers(db, 'require', 'v1');
  }).immediate();
}

/** Makes every post carry its `scheme` id; a writer whose ring lacks it is refused from
 * then on. Returns how many posts it filled in. */
export function require(db, scheme) {
  const column = columnOf(scheme);
  return db.transaction(() => {
    const state = states(db)[scheme];
    if (state === 'retired') throw new RolloutError(`${scheme} is retired: a retired scheme is never required again`);
    if (state !== 'required') stateTriggers(db, 'require', scheme);
    const rows = db.prepare(`SELECT id, id_scheme, slug, lang, published_at FROM posts WHERE ${column} IS NULL`).all();
    const fill = db.prepare(`UPDATE posts SET ${column} = ? WHERE id = ?`);
    for (const row of rows) {
      const fields = [row.slug, row.lang];
      const options = { time: row.published_at, namespace: NAMESPACE };
      try {
        // The post's own fields must still derive the id it was created under.
        new KeyRing(row.id_scheme).verifyUlid(row.id, fields, options);
      } catch (e) {
        if (!(e instanceof SamekeyError)) throw e;
        throw new RolloutError(`post ${row.id}: its fields do not derive its ${row.id_scheme} id (${e.code})`);
      }
      fill.run(deriveUlid(fields, { ...options, scheme }).toString(), row.id);
    }
    return rows.length;
  }).immediate();
}

/** Stops `scheme` for good: its ids are cleared and a writer recording one is refused.
 * Needs another required scheme. Returns how many ids it cleared. */
export function retire(db, scheme) {
  const column = columnOf(scheme);
  return db.transaction(() => {
    const now = states(db);
    if (!Object.entries(now).some(([s, state]) => state === 'required' && s !== scheme)) {
      throw new RolloutError(`${scheme} is the last required scheme: require another one first`);
    }
    if (now[scheme] === 'retired') return 0;
    dropTriggers(db, 'require', scheme);
    const cleared = db.prepare(`UPDATE posts SET ${column} = NULL WHERE ${column} IS NOT NULL`).run().changes;
    stateTriggers(db, 'retire', scheme);
    return cleared;
  }).immediate();
}

/** One line per scheme: its state, posts created under it, posts carrying its id, and not. */
export function status(db) {
  const now = states(db);
  return Object.entries(ID_COLUMNS).map(([scheme, column]) => {
    const c = db
      .prepare(`SELECT COUNT(*) FILTER (WHERE id_scheme = ?) AS created, COUNT(${column}) AS recorded,
                COUNT(*) - COUNT(${column}) AS missing FROM posts`)
      .get(scheme);
    return `${scheme}\t${now[scheme] ?? 'optional'}\tcreated ${c.created}\trecorded ${c.recorded}\tmissing ${c.missing}`;
  });
}

function columnOf(scheme) {
  const column = ID_COLUMNS[scheme];
  if (!column) throw new RolloutError(`'${scheme}' is not a scheme the posts table has a column for (v1, v2)`);
  return column;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [path, command, scheme] = process.argv.slice(2);
  const usage = { status: 0, require: 1, retire: 1 };
  if (!path || !(command in usage) || usage[command] !== (scheme ? 1 : 0)) {
    console.error('usage: node rollout.mjs DB status | require SCHEME | retire SCHEME');
    process.exit(2);
  }
  const db = new Database(path, { timeout: 10000 });
  try {
    if (command === 'status') console.log(status(db).join('\n'));
    else if (command === 'require') console.log(`${scheme} required: ${require(db, scheme)} posts filled in`);
    else console.log(`${scheme} retired: ${retire(db, scheme)} ids cleared`);
  } catch (e) {
    if (!(e instanceof RolloutError)) throw e;
    console.error(`rollout: ${e.message}`);
    process.exit(1);
  }
}
