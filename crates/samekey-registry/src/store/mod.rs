//! The store: SQLite (a file, the default) or PostgreSQL, the same SQL on both. The
//! database, not the process, decides which of two identical registrations creates the
//! row: a primary key and `INSERT ... ON CONFLICT DO NOTHING`, so any number of server
//! processes on one PostgreSQL stay correct.

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::SqlitePool;
use sqlx::Row;

mod blob;
mod check;
pub mod data;
mod error;
pub mod gc;
mod insert;
pub mod move_data;
pub mod objects;
pub mod schema;
pub mod schemes;
mod sqlite;
pub mod staged;
pub mod uploads;

pub use self::data::DataRef;
pub use self::error::StoreError;
pub use self::insert::{Content, Insert};

/// A database pool's state at the moment of a scrape.
pub struct PoolState {
    pub name: &'static str,
    pub open: u32,
    pub idle: usize,
    pub max: u32,
}

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

pub(crate) fn is_foreign_key_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.kind() == sqlx::error::ErrorKind::ForeignKeyViolation)
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

/// The column that holds revisions' keys under `scheme`'s.
pub fn key_column(scheme: samekey::Scheme) -> &'static str {
    match scheme {
        samekey::Scheme::V2 => "key_v2",
        _ => "key_v1",
    }
}

/// The column to look `key` up in: its scheme's (a key text the API has parsed).
pub(crate) fn column_of(key: &str) -> &'static str {
    let v2 = key.starts_with("rev:v2:");
    key_column(if v2 {
        samekey::Scheme::V2
    } else {
        samekey::Scheme::V1
    })
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Whether `e` is the database refusing a revision for its schemes: a required scheme's
/// key missing, or a retired scheme's present ([`crate::store::schema`]).
pub fn is_scheme_refusal(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            d.constraint().is_some_and(|c| {
                c.starts_with("revisions_require_") || c.starts_with("revisions_retire_")
            }) || d.message().contains("scheme_required")
        }
        _ => false,
    }
}

#[derive(Debug, Clone)]
pub enum Db {
    /// Reads, and the one connection that writes.
    Sqlite(SqlitePool, SqlitePool),
    Postgres(PgPool),
}

/// The same code over either pool; each arm is compiled for its own database.
#[macro_export]
#[doc(hidden)]
macro_rules! on_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite($pool, _) => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
}

/// The same writing code over either database: SQLite's one writing connection, or the
/// PostgreSQL pool.
macro_rules! on_writer {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite(_, $pool) => $body,
            $crate::store::Db::Postgres($pool) => $body,
        }
    };
}
pub(crate) use on_writer;

/// Runs `$body` in a write transaction with `$conn` bound to its connection; committed
/// when it returns `Ok`, rolled back otherwise. SQLite: `BEGIN IMMEDIATE`, the one write
/// lock (other processes wait in busy_timeout). PostgreSQL: `$lock` is awaited first with
/// `$tx` bound to the transaction: [`schema_lock`] for the schema's steps, or one
/// content's lock ([`uploads`]). `$err` is the body's error type (it takes `sqlx::Error`s).
macro_rules! write_locked {
    ($db:expr, $err:ty, lock($tx:ident) => $lock:expr, $conn:ident => $body:expr) => {
        match $db {
            $crate::store::Db::Sqlite(_, writes) => {
                let mut c = writes.acquire().await?;
                sqlx::query("BEGIN IMMEDIATE").execute(&mut *c).await?;
                let $conn = &mut *c;
                let result: Result<_, $err> = async { $body }.await;
                let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
                if let Err(e) = sqlx::query(end).execute(&mut *c).await {
                    c.close_on_drop();
                    return Err(e.into());
                }
                result
            }
            $crate::store::Db::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                {
                    let $tx = &mut *tx;
                    $lock.await?;
                }
                let $conn = &mut *tx;
                let result: Result<_, $err> = async { $body }.await;
                if result.is_ok() {
                    tx.commit().await?;
                }
                result
            }
        }
    };
}
pub(crate) use write_locked;

/// The schema's advisory lock for the rest of the transaction (PostgreSQL), and with
/// `revisions` a lock that no revision insert passes, taken after every insert that
/// started before it has ended.
pub(crate) async fn schema_lock(
    conn: &mut sqlx::PgConnection,
    revisions: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(schema::PG_LOCK)
        .execute(&mut *conn)
        .await?;
    if revisions {
        sqlx::query("LOCK TABLE revisions IN SHARE ROW EXCLUSIVE MODE")
            .execute(conn)
            .await?;
    }
    Ok(())
}

pub(crate) const COLUMNS: &str =
    "key, parent, scheme, content_hash, media_type, size, created_at_ms";

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
pub(crate) use revision_from_row;

impl Db {
    /// Opens `url` (`sqlite:PATH` or `postgres://...`) and brings its schema to this
    /// build's version ([`crate::store::schema`]); a database newer than that is refused.
    /// SQLite runs in WAL mode with `synchronous=FULL`: an acknowledged revision survives
    /// a crash of the process or of the machine; processes starting at once on one new
    /// database all start.
    pub async fn connect(url: &str, max_connections: u32) -> Result<Db, sqlx::Error> {
        let db = if url.starts_with("sqlite:") {
            let (reads, writes) = crate::store::sqlite::open(url, max_connections).await?;
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
        match crate::store::schema::migrate(&db).await {
            Ok(_) => Ok(db),
            Err(crate::store::schema::SchemaError::Database(e)) => {
                db.close().await;
                Err(unwritable(url, e))
            }
            Err(newer) => {
                db.close().await;
                Err(sqlx::Error::Configuration(newer.to_string().into()))
            }
        }
    }

    /// One small write, which the server makes at start so that a full disk, a read-only
    /// file or a read-only PostgreSQL (a standby, `default_transaction_read_only`) stops
    /// it at once instead of failing every registration. `url` names the database in the
    /// error.
    pub async fn require_writable(&self, url: &str) -> Result<(), sqlx::Error> {
        self.probe_write().await.map_err(|e| unwritable(url, e))
    }

    async fn probe_write(&self) -> Result<(), sqlx::Error> {
        let now = now_ms();
        let sql = "INSERT INTO registry_meta (name, value) VALUES ('started_at_ms', $1) \
                   ON CONFLICT (name) DO UPDATE SET value = excluded.value";
        match self {
            Db::Sqlite(_, writes) => sqlx::query(sql).bind(now).execute(writes).await.map(drop),
            Db::Postgres(pool) => sqlx::query(sql).bind(now).execute(pool).await.map(drop),
        }
    }

    pub fn backend(&self) -> &'static str {
        match self {
            Db::Sqlite(..) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }

    /// The revision recorded under `key` in `key`'s scheme (the key it was created under,
    /// or its key under another scheme of its writer's ring).
    pub async fn revision(&self, key: &str) -> Result<Option<Revision>, sqlx::Error> {
        let sql = format!(
            "SELECT {COLUMNS} FROM revisions WHERE {} = $1",
            column_of(key)
        );
        on_pool!(self, pool => {
            match sqlx::query(&sql).bind(key).fetch_optional(pool).await? {
                Some(row) => Ok(Some(revision_from_row!(row))),
                None => Ok(None),
            }
        })
    }

    /// The revision recorded under any of `keys` (by [`crate::store::schema::SCHEMES`]' order;
    /// the oldest, should a database written before schema 2 hold twins).
    pub async fn find(&self, keys: [Option<&str>; 2]) -> Result<Option<Revision>, sqlx::Error> {
        let select = format!(
            "SELECT {COLUMNS} FROM revisions WHERE key_v1 = $1 OR key_v2 = $2 ORDER BY created_at_ms, key LIMIT 1"
        );
        on_pool!(self, pool => {
            match sqlx::query(&select).bind(keys[0]).bind(keys[1]).fetch_optional(pool).await? {
                Some(row) => Ok(Some(revision_from_row!(row))),
                None => Ok(None),
            }
        })
    }

    /// The key the revision recorded under `key` was created under (a parent named by
    /// any of its keys is one parent).
    pub async fn created_key(&self, key: &str) -> Result<Option<String>, sqlx::Error> {
        let sql = format!("SELECT key FROM revisions WHERE {} = $1", column_of(key));
        on_pool!(self, pool => {
            Ok(sqlx::query_scalar(&sql).bind(key).fetch_optional(pool).await?)
        })
    }

    /// `key` and its ancestors, nearest first, at most `limit` of them.
    pub async fn history(&self, key: &str, limit: i64) -> Result<Vec<Revision>, sqlx::Error> {
        let sql = format!(
            "WITH RECURSIVE chain (key, depth) AS ( \
               SELECT r0.key, 0 FROM revisions r0 WHERE r0.{} = $1 \
               UNION ALL SELECT r.parent, c.depth + 1 FROM revisions r JOIN chain c ON r.key = c.key \
               WHERE r.parent IS NOT NULL AND c.depth + 1 < CAST($2 AS BIGINT)) \
             SELECT {} FROM chain JOIN revisions rv ON rv.key = chain.key ORDER BY chain.depth",
            column_of(key),
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
