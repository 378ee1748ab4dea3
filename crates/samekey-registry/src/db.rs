//! The store: SQLite (a file, the default) or PostgreSQL, the same SQL on both. The
//! database, not the process, decides which of two identical registrations creates the
//! row: a primary key and `INSERT ... ON CONFLICT DO NOTHING`, so any number of server
//! processes on one PostgreSQL stay correct.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;

use crate::metrics::PoolState;

/// A stored revision, as every read and write returns it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revision {
    pub key: String,
    pub parent: Option<String>,
    pub scheme: String,
    pub content_hash: String,
    pub media_type: String,
    pub size: i64,
    pub created_at_ms: i64,
}

/// Where a revision's data is, for [`Db::data_chunk`].
#[derive(Debug, Clone)]
pub struct DataRef {
    pub media_type: String,
    pub size: i64,
    pub content_hash: String,
    /// SQLite: the content's row when the revision was looked up.
    rowid: Option<i64>,
}

/// What an insert did.
#[derive(Debug)]
pub enum Insert {
    /// The stored revision, and whether this insert created it.
    Stored(Revision, bool),
    /// The parent it names is not in the registry.
    UnknownParent,
}

fn is_foreign_key_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.kind() == sqlx::error::ErrorKind::ForeignKeyViolation)
}

/// What the SQLite write transaction did; it committed unless the parent was unknown.
enum SqliteWrite {
    Inserted(sqlx::sqlite::SqliteRow),
    Existed,
    UnknownParent,
}

type SqliteQuery<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>;

/// One write transaction: the content row, then the revision row. `BEGIN IMMEDIATE` takes
/// the write lock before anything is read. Success means SQLite answered the `COMMIT`
/// itself (in WAL mode with `synchronous=FULL`, after the log is synced); any error leaves
/// the connection in a state the caller must not reuse.
async fn sqlite_write<'q>(
    conn: &mut sqlx::SqliteConnection,
    content: SqliteQuery<'q>,
    revision: SqliteQuery<'q>,
) -> Result<SqliteWrite, sqlx::Error> {
    sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
    content.execute(&mut *conn).await?;
    let row = match revision.fetch_optional(&mut *conn).await {
        Ok(row) => row,
        Err(e) if is_foreign_key_violation(&e) => {
            sqlx::query("ROLLBACK").execute(&mut *conn).await?;
            return Ok(SqliteWrite::UnknownParent);
        }
        Err(e) => return Err(e),
    };
    sqlx::query("COMMIT").execute(&mut *conn).await?;
    Ok(row.map_or(SqliteWrite::Existed, SqliteWrite::Inserted))
}

/// Why the database at `url` is no use to the server; a PostgreSQL URL is not repeated
/// (it may hold a password).
fn unwritable(url: &str, e: sqlx::Error) -> sqlx::Error {
    let which = match url.strip_prefix("sqlite:") {
        Some(path) => format!("the SQLite database {path}"),
        None => "the PostgreSQL database".to_string(),
    };
    sqlx::Error::Configuration(
        format!("{which} cannot be written ({e}): the registry needs a database it can write, with free space").into(),
    )
}

/// The revision insert with its seven parameters numbered from `$first`.
fn insert_revision_sql(first: usize) -> String {
    let params: Vec<String> = (first..first + 7).map(|n| format!("${n}")).collect();
    format!(
        "INSERT INTO revisions ({COLUMNS}) VALUES ({}) ON CONFLICT (key) DO NOTHING RETURNING {COLUMNS}",
        params.join(", ")
    )
}

#[derive(Debug, Clone)]
pub enum Db {
    /// Reads, and the one connection that writes.
    Sqlite(SqlitePool, SqlitePool),
    Postgres(PgPool),
}

/// The same code over either pool; each arm is compiled for its own database.
macro_rules! on_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            Db::Sqlite($pool, _) => $body,
            Db::Postgres($pool) => $body,
        }
    };
}

/// The tables, the same on both databases but for the type of raw bytes (`BLOB`, `BYTEA`).
/// `registry_meta` holds what the server writes at start to prove it can.
fn schema(bytes_type: &str) -> [String; 4] {
    [
        "CREATE TABLE IF NOT EXISTS registry_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)".to_string(),
        format!("CREATE TABLE IF NOT EXISTS contents (hash TEXT PRIMARY KEY, media_type TEXT NOT NULL, data {bytes_type} NOT NULL)"),
        "CREATE TABLE IF NOT EXISTS revisions (key TEXT PRIMARY KEY, parent TEXT REFERENCES revisions(key), \
         scheme TEXT NOT NULL, content_hash TEXT NOT NULL REFERENCES contents(hash), media_type TEXT NOT NULL, \
         size BIGINT NOT NULL, created_at_ms BIGINT NOT NULL)"
            .to_string(),
        "CREATE INDEX IF NOT EXISTS revisions_parent ON revisions(parent)".to_string(),
    ]
}

const COLUMNS: &str = "key, parent, scheme, content_hash, media_type, size, created_at_ms";

macro_rules! revision_from_row {
    ($row:expr) => {
        Revision {
            key: $row.try_get("key")?,
            parent: $row.try_get("parent")?,
            scheme: $row.try_get("scheme")?,
            content_hash: $row.try_get("content_hash")?,
            media_type: $row.try_get("media_type")?,
            size: $row.try_get("size")?,
            created_at_ms: $row.try_get("created_at_ms")?,
        }
    };
}

impl Db {
    /// Opens `url` (`sqlite:PATH` or `postgres://...`) and creates the tables if needed.
    /// SQLite runs in WAL mode with `synchronous=FULL`: an acknowledged revision survives
    /// a crash of the process or of the machine.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
        let db = if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .busy_timeout(Duration::from_secs(30))
                .foreign_keys(true);
            // One writer connection: SQLite takes one writer at a time anyway, and queueing
            // in the pool is fair where 32 connections would sleep in SQLite's busy handler.
            // Uniqueness stays the database's (other processes still contend through
            // busy_timeout).
            let writes = SqlitePoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await?;
            // Readers look up small rows and stream data in chunks: a page cache of 1 MiB
            // each (SQLite's default is 2 MiB) keeps the pool's memory to a MiB a connection.
            let reads = SqlitePoolOptions::new()
                .max_connections(max_connections)
                .connect_with(options.pragma("cache_size", "-1024"))
                .await?;
            Db::Sqlite(reads, writes)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Db::Postgres(
                PgPoolOptions::new()
                    .max_connections(max_connections)
                    .connect(url)
                    .await?,
            )
        } else {
            return Err(sqlx::Error::Configuration(
                format!("unsupported database URL {url:?}: use sqlite:PATH or postgres://...")
                    .into(),
            ));
        };
        if let Err(e) = db.create_schema().await {
            db.close().await;
            return Err(unwritable(url, e));
        }
        Ok(db)
    }

    /// One small write, which the server makes at start so that a full disk, a read-only
    /// file or a read-only PostgreSQL (a standby, `default_transaction_read_only`) stops
    /// it at once instead of failing every registration. `url` names the database in the
    /// error.
    pub async fn require_writable(&self, url: &str) -> Result<(), sqlx::Error> {
        self.probe_write().await.map_err(|e| unwritable(url, e))
    }

    async fn probe_write(&self) -> Result<(), sqlx::Error> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let sql = "INSERT INTO registry_meta (name, value) VALUES ('started_at_ms', $1) \
                   ON CONFLICT (name) DO UPDATE SET value = excluded.value";
        match self {
            Db::Sqlite(_, writes) => sqlx::query(sql).bind(now).execute(writes).await.map(drop),
            Db::Postgres(pool) => sqlx::query(sql).bind(now).execute(pool).await.map(drop),
        }
    }

    async fn create_schema(&self) -> Result<(), sqlx::Error> {
        match self {
            Db::Sqlite(_, pool) => {
                for statement in schema("BLOB") {
                    sqlx::query(&statement).execute(pool).await?;
                }
            }
            Db::Postgres(pool) => {
                // Several servers may start at once; CREATE ... IF NOT EXISTS races in PostgreSQL.
                let mut tx = pool.begin().await?;
                sqlx::query("SELECT pg_advisory_xact_lock(7305079254237112385)")
                    .execute(&mut *tx)
                    .await?;
                for statement in schema("BYTEA") {
                    sqlx::query(&statement).execute(&mut *tx).await?;
                }
                tx.commit().await?;
            }
        }
        Ok(())
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Db::Sqlite(..) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    pub async fn revision(&self, key: &str) -> Result<Option<Revision>, sqlx::Error> {
        let sql = format!("SELECT {COLUMNS} FROM revisions WHERE key = $1");
        on_pool!(self, pool => {
            match sqlx::query(&sql).bind(key).fetch_optional(pool).await? {
                Some(row) => Ok(Some(revision_from_row!(row))),
                None => Ok(None),
            }
        })
    }

    /// Stores `revision` and its data unless a revision with its key exists; either way
    /// returns the stored row, and whether this call created it. A missing parent is
    /// `Insert::UnknownParent` (the foreign key says so; no separate check races it).
    ///
    /// PostgreSQL: one statement (a data-modifying CTE), so one round trip and one commit.
    /// SQLite: one transaction whose first statement writes, so it takes the write lock
    /// before reading anything.
    /// Takes the data by value: SQLite binds it without a copy (a 16 MiB payload would
    /// otherwise be held twice while the row is written).
    pub async fn insert(&self, revision: &Revision, data: Vec<u8>) -> Result<Insert, sqlx::Error> {
        let select = format!("SELECT {COLUMNS} FROM revisions WHERE key = $1");
        let insert_content = "INSERT INTO contents (hash, media_type, data) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING";
        // The content row's three values, then the revision row's seven, in column order.
        macro_rules! bind_content {
            ($query:expr) => {
                $query
                    .bind(&revision.content_hash)
                    .bind(&revision.media_type)
                    .bind(data)
            };
        }
        macro_rules! bind_revision {
            ($query:expr) => {
                $query
                    .bind(&revision.key)
                    .bind(&revision.parent)
                    .bind(&revision.scheme)
                    .bind(&revision.content_hash)
                    .bind(&revision.media_type)
                    .bind(revision.size)
                    .bind(revision.created_at_ms)
            };
        }
        let created = match self {
            Db::Postgres(pool) => {
                let sql = format!("WITH c AS ({insert_content}) {}", insert_revision_sql(4));
                match bind_revision!(bind_content!(sqlx::query(&sql)))
                    .fetch_optional(pool)
                    .await
                {
                    Ok(Some(row)) => Some(revision_from_row!(row)),
                    Ok(None) => None,
                    Err(e) if is_foreign_key_violation(&e) => return Ok(Insert::UnknownParent),
                    Err(e) => return Err(e),
                }
            }
            Db::Sqlite(_, writes) => {
                let mut conn = writes.acquire().await?;
                let written = sqlite_write(
                    &mut conn,
                    bind_content!(sqlx::query(insert_content)),
                    bind_revision!(sqlx::query(&insert_revision_sql(1))),
                )
                .await;
                if written.is_err() {
                    // A COMMIT that fails with SQLITE_FULL or SQLITE_IOERR may or may not have
                    // rolled the transaction back by itself, and a later ROLLBACK then fails
                    // too: sqlx's transaction bookkeeping went out of step with SQLite's, and
                    // every later write on that connection went into a transaction that never
                    // committed, each answered 201. A connection whose write failed is closed,
                    // which rolls back whatever it held; the pool opens a new one.
                    conn.close_on_drop();
                }
                match written? {
                    SqliteWrite::Inserted(row) => Some(revision_from_row!(row)),
                    SqliteWrite::Existed => None,
                    SqliteWrite::UnknownParent => return Ok(Insert::UnknownParent),
                }
            }
        };
        if let Some(stored) = created {
            return Ok(Insert::Stored(stored, true));
        }
        // Someone else's identical registration won; theirs is committed, so it is visible.
        let existing = on_pool!(self, pool => {
            let row = sqlx::query(&select).bind(&revision.key).fetch_one(pool).await?;
            revision_from_row!(row)
        });
        Ok(Insert::Stored(existing, false))
    }

    /// Where a revision's data is: its media type, its size and its content hash, for
    /// reading it in chunks ([`Db::data_chunk`]) instead of whole.
    pub async fn data_ref(&self, key: &str) -> Result<Option<DataRef>, sqlx::Error> {
        // SQLite reads the data by its row; PostgreSQL by its hash.
        let rowid = match self {
            Db::Sqlite(..) => "c.rowid",
            Db::Postgres(_) => "CAST(NULL AS BIGINT)",
        };
        let sql = format!(
            "SELECT r.media_type, r.size, r.content_hash, {rowid} AS rowid \
             FROM revisions r JOIN contents c ON c.hash = r.content_hash WHERE r.key = $1"
        );
        on_pool!(self, pool => {
            match sqlx::query(&sql).bind(key).fetch_optional(pool).await? {
                Some(row) => Ok(Some(DataRef {
                    media_type: row.try_get("media_type")?,
                    size: row.try_get("size")?,
                    content_hash: row.try_get("content_hash")?,
                    rowid: row.try_get("rowid")?,
                })),
                None => Ok(None),
            }
        })
    }

    /// `len` bytes of the data at `data` from `offset` (fewer at its end). A reader holds
    /// one chunk at a time, so a slow one costs a chunk of memory, not the revision.
    pub async fn data_chunk(
        &self,
        data: &DataRef,
        offset: u64,
        len: usize,
    ) -> Result<Vec<u8>, sqlx::Error> {
        let size = data.size.max(0) as u64;
        let len = len.min(size.saturating_sub(offset) as usize);
        if len == 0 {
            return Ok(Vec::new());
        }
        match self {
            Db::Postgres(pool) => {
                // A bytea stored out of line and uncompressed is sliced from its TOAST
                // chunks without reading the rest.
                let row = sqlx::query(
                    "SELECT substring(data FROM CAST($2 AS INTEGER) FOR CAST($3 AS INTEGER)) AS part FROM contents WHERE hash = $1",
                )
                .bind(&data.content_hash)
                .bind(offset as i64 + 1)
                .bind(len as i64)
                .fetch_one(pool)
                .await?;
                let part: Vec<u8> = row.try_get("part")?;
                if part.len() != len {
                    return Err(sqlx::Error::Protocol(format!(
                        "{}: read {} bytes at {offset}, wanted {len}",
                        data.content_hash,
                        part.len()
                    )));
                }
                Ok(part)
            }
            Db::Sqlite(reads, _) => {
                let mut conn = reads.acquire().await?;
                let (rowid, hash, size) = (
                    data.rowid.unwrap_or(-1),
                    data.content_hash.clone(),
                    data.size,
                );
                // The read copies the chunk and walks SQLite's overflow pages: CPU work done
                // on a blocking thread, so that the async workers keep answering requests.
                let runtime = tokio::runtime::Handle::current();
                let (mut conn, read) = tokio::task::spawn_blocking(move || {
                    let read = runtime.block_on(crate::blob::read_chunk(
                        &mut conn, rowid, &hash, size, offset, len,
                    ));
                    (conn, read)
                })
                .await
                .map_err(|e| sqlx::Error::Protocol(format!("the chunk read failed: {e}")))?;
                if read.is_err() {
                    // It may be inside the read transaction still.
                    conn.close_on_drop();
                }
                read
            }
        }
    }

    /// `key` and its ancestors, nearest first, at most `limit` of them.
    pub async fn history(&self, key: &str, limit: i64) -> Result<Vec<Revision>, sqlx::Error> {
        let sql = format!(
            "WITH RECURSIVE chain (key, depth) AS ( \
               SELECT CAST($1 AS TEXT), 0 \
               UNION ALL SELECT r.parent, c.depth + 1 FROM revisions r JOIN chain c ON r.key = c.key \
               WHERE r.parent IS NOT NULL AND c.depth + 1 < CAST($2 AS BIGINT)) \
             SELECT {} FROM chain JOIN revisions rv ON rv.key = chain.key ORDER BY chain.depth",
            COLUMNS.split(", ").map(|c| format!("rv.{c}")).collect::<Vec<_>>().join(", ")
        );
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).bind(key).bind(limit).fetch_all(pool).await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                out.push(revision_from_row!(row));
            }
            Ok(out)
        })
    }

    /// (revisions, contents): for tests and operators.
    pub async fn counts(&self) -> Result<(i64, i64), sqlx::Error> {
        on_pool!(self, pool => {
            let revisions: i64 = sqlx::query("SELECT COUNT(*) AS n FROM revisions").fetch_one(pool).await?.try_get("n")?;
            let contents: i64 = sqlx::query("SELECT COUNT(*) AS n FROM contents").fetch_one(pool).await?.try_get("n")?;
            Ok((revisions, contents))
        })
    }

    /// Every revision's (key, parent, content hash), by key: for tests and operators.
    pub async fn revision_index(
        &self,
    ) -> Result<Vec<(String, Option<String>, String)>, sqlx::Error> {
        on_pool!(self, pool => {
            let rows = sqlx::query("SELECT key, parent, content_hash FROM revisions ORDER BY key")
                .fetch_all(pool)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                out.push((row.try_get("key")?, row.try_get("parent")?, row.try_get("content_hash")?));
            }
            Ok(out)
        })
    }

    /// The database's own consistency check, plus the registry's invariants: every parent
    /// and every content a revision names exists. Returns the problems found.
    pub async fn integrity_problems(&self) -> Result<Vec<String>, sqlx::Error> {
        let mut problems = Vec::new();
        match self {
            Db::Sqlite(pool, _) => {
                for row in sqlx::query("PRAGMA integrity_check")
                    .fetch_all(pool)
                    .await?
                {
                    let line: String = row.try_get(0)?;
                    if line != "ok" {
                        problems.push(format!("integrity_check: {line}"));
                    }
                }
                for row in sqlx::query("PRAGMA foreign_key_check")
                    .fetch_all(pool)
                    .await?
                {
                    let table: String = row.try_get(0)?;
                    problems.push(format!(
                        "foreign_key_check: a row of {table} names a missing row"
                    ));
                }
            }
            Db::Postgres(pool) => {
                // amcheck (in postgresql-contrib) verifies the B-tree indexes, unique ones included.
                sqlx::query("CREATE EXTENSION IF NOT EXISTS amcheck")
                    .execute(pool)
                    .await?;
                let indexes = sqlx::query(
                    "SELECT c.oid::regclass::text AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid \
                     JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname IN ('revisions', 'contents')",
                )
                .fetch_all(pool)
                .await?;
                for row in indexes {
                    let name: String = row.try_get("name")?;
                    sqlx::query("SELECT bt_index_check(CAST($1 AS regclass), true)")
                        .bind(&name)
                        .execute(pool)
                        .await?;
                }
            }
        }
        let orphans = on_pool!(self, pool => {
            let n: i64 = sqlx::query(
                "SELECT COUNT(*) AS n FROM revisions r WHERE (r.parent IS NOT NULL AND NOT EXISTS \
                 (SELECT 1 FROM revisions p WHERE p.key = r.parent)) OR NOT EXISTS \
                 (SELECT 1 FROM contents c WHERE c.hash = r.content_hash)",
            )
            .fetch_one(pool)
            .await?
            .try_get("n")?;
            n
        });
        if orphans != 0 {
            problems.push(format!(
                "{orphans} revisions name a missing parent or content"
            ));
        }
        Ok(problems)
    }

    /// Each pool's size and idle connections, for `/metrics`.
    pub fn pool_states(&self) -> Vec<PoolState> {
        macro_rules! state {
            ($name:expr, $pool:expr) => {
                PoolState {
                    name: $name,
                    open: $pool.size(),
                    idle: $pool.num_idle(),
                    max: $pool.options().get_max_connections(),
                }
            };
        }
        match self {
            Db::Sqlite(reads, writes) => vec![state!("reads", reads), state!("writes", writes)],
            Db::Postgres(pool) => vec![state!("main", pool)],
        }
    }

    pub async fn close(&self) {
        match self {
            Db::Sqlite(reads, writes) => {
                reads.close().await;
                writes.close().await;
            }
            Db::Postgres(pool) => pool.close().await,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_revision_insert_numbers_its_parameters_from_the_given_one() {
        let sql = super::insert_revision_sql(4);
        assert!(
            sql.contains("VALUES ($4, $5, $6, $7, $8, $9, $10)"),
            "{sql}"
        );
    }
}
