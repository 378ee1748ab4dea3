//! The database's schema, by numbered migrations recorded in `registry_schema`, and the
//! schemes every revision is recorded under.
//!
//! A whole upgrade runs in one transaction that first takes the database's write lock
//! (SQLite `BEGIN IMMEDIATE`, PostgreSQL an advisory lock), so a second process starting
//! while the first migrates waits for it and then finds nothing to do. sqlx's migrator
//! was not used: its SQLite lock is a no-op (two processes migrating at once race) and it
//! applies each migration in a transaction of its own.
//!
//! Why the schemes are recorded: during a change of scheme, processes of different key
//! rings serve one database. Each revision is recorded under its key in every scheme of
//! its writer's ring (`key_v1`, `key_v2`, each unique), so two writers whose rings share a
//! scheme collide on that scheme's key and the database keeps one revision. Which schemes
//! every revision must carry (*required*) and which no new revision may carry (*retired*)
//! is `registry_schemes`, enforced by the database itself (PostgreSQL CHECK constraints,
//! SQLite triggers), so a process that started before a change cannot write around it.

use sqlx::Row;

use crate::store::Db;

/// The newest schema this build knows.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// (description, SQLite statements, PostgreSQL statements), version = position + 1.
type Migration = (
    &'static str,
    &'static [&'static str],
    &'static [&'static str],
);

const MIGRATIONS: [Migration; 3] = [
    (
        "revisions and contents (the schema of samekey 0.2, made with IF NOT EXISTS)",
        &[
            "CREATE TABLE IF NOT EXISTS registry_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS contents (hash TEXT PRIMARY KEY, media_type TEXT NOT NULL, data BLOB NOT NULL)",
            REVISIONS_V1,
            "CREATE INDEX IF NOT EXISTS revisions_parent ON revisions(parent)",
        ],
        &[
            "CREATE TABLE IF NOT EXISTS registry_meta (name TEXT PRIMARY KEY, value BIGINT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS contents (hash TEXT PRIMARY KEY, media_type TEXT NOT NULL, data BYTEA NOT NULL)",
            REVISIONS_V1,
            "CREATE INDEX IF NOT EXISTS revisions_parent ON revisions(parent)",
        ],
    ),
    (
        "each revision's key under every scheme of its writer's ring, unique per scheme",
        &[
            "ALTER TABLE revisions ADD COLUMN key_v1 TEXT",
            "ALTER TABLE revisions ADD COLUMN key_v2 TEXT",
            "ALTER TABLE revisions ADD COLUMN twin_of TEXT",
            "UPDATE revisions SET key_v1 = key WHERE scheme = 'v1'",
            "UPDATE revisions SET key_v2 = key WHERE scheme = 'v2'",
            "CREATE UNIQUE INDEX revisions_key_v1 ON revisions(key_v1)",
            "CREATE UNIQUE INDEX revisions_key_v2 ON revisions(key_v2)",
            "CREATE TABLE registry_schemes (scheme TEXT PRIMARY KEY, state TEXT NOT NULL CHECK (state IN ('required', 'retired')))",
            // A process of an earlier release inserts the created key alone: it is recorded
            // under its own scheme too, so its twins collide (and fail) instead of landing.
            "CREATE TRIGGER revisions_created_key AFTER INSERT ON revisions \
             WHEN (NEW.scheme = 'v1' AND NEW.key_v1 IS NULL) OR (NEW.scheme = 'v2' AND NEW.key_v2 IS NULL) \
             BEGIN UPDATE revisions SET key_v1 = coalesce(key_v1, CASE WHEN scheme = 'v1' THEN key END), \
             key_v2 = coalesce(key_v2, CASE WHEN scheme = 'v2' THEN key END) WHERE key = NEW.key; END",
            // SQLite writes one transaction at a time, so a trigger that reads the table is
            // as strong as a constraint here.
            "CREATE TRIGGER revisions_schemes BEFORE INSERT ON revisions \
             WHEN NEW.twin_of IS NULL AND EXISTS (SELECT 1 FROM registry_schemes s WHERE \
               (s.state = 'required' AND ((s.scheme = 'v1' AND coalesce(NEW.key_v1, CASE WHEN NEW.scheme = 'v1' THEN NEW.key END) IS NULL) \
                                       OR (s.scheme = 'v2' AND coalesce(NEW.key_v2, CASE WHEN NEW.scheme = 'v2' THEN NEW.key END) IS NULL))) \
               OR (s.state = 'retired' AND ((s.scheme = 'v1' AND (NEW.key_v1 IS NOT NULL OR NEW.scheme = 'v1')) \
                                       OR (s.scheme = 'v2' AND (NEW.key_v2 IS NOT NULL OR NEW.scheme = 'v2'))))) \
             BEGIN SELECT RAISE(ABORT, 'scheme_required: a required scheme is missing or a retired one is present'); END",
        ],
        &[
            "ALTER TABLE revisions ADD COLUMN key_v1 TEXT, ADD COLUMN key_v2 TEXT, ADD COLUMN twin_of TEXT",
            "UPDATE revisions SET key_v1 = key WHERE scheme = 'v1'",
            "UPDATE revisions SET key_v2 = key WHERE scheme = 'v2'",
            "CREATE UNIQUE INDEX revisions_key_v1 ON revisions(key_v1)",
            "CREATE UNIQUE INDEX revisions_key_v2 ON revisions(key_v2)",
            "CREATE TABLE registry_schemes (scheme TEXT PRIMARY KEY, state TEXT NOT NULL CHECK (state IN ('required', 'retired')))",
            "CREATE FUNCTION samekey_created_key() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
               IF NEW.scheme = 'v1' AND NEW.key_v1 IS NULL THEN NEW.key_v1 := NEW.key; END IF; \
               IF NEW.scheme = 'v2' AND NEW.key_v2 IS NULL THEN NEW.key_v2 := NEW.key; END IF; \
               RETURN NEW; END $$",
            "CREATE TRIGGER revisions_created_key BEFORE INSERT ON revisions FOR EACH ROW EXECUTE FUNCTION samekey_created_key()",
        ],
    ),
    (
        "revision data in an object store: where each content's bytes are, uploads and gc's deletions",
        &[
            "ALTER TABLE contents ADD COLUMN location TEXT",
            "CREATE INDEX contents_location ON contents(location)",
            "CREATE TABLE data_uploads (id TEXT PRIMARY KEY, hash TEXT NOT NULL, started_at_ms BIGINT NOT NULL)",
            "CREATE INDEX data_uploads_hash ON data_uploads(hash)",
            "CREATE TABLE data_deletions (hash TEXT PRIMARY KEY, pass TEXT NOT NULL, started_at_ms BIGINT NOT NULL)",
        ],
        &[
            "ALTER TABLE contents ADD COLUMN location TEXT",
            "CREATE INDEX contents_location ON contents(location)",
            "CREATE TABLE data_uploads (id TEXT PRIMARY KEY, hash TEXT NOT NULL, started_at_ms BIGINT NOT NULL)",
            "CREATE INDEX data_uploads_hash ON data_uploads(hash)",
            "CREATE TABLE data_deletions (hash TEXT PRIMARY KEY, pass TEXT NOT NULL, started_at_ms BIGINT NOT NULL)",
        ],
    ),
];

const REVISIONS_V1: &str = "CREATE TABLE IF NOT EXISTS revisions (key TEXT PRIMARY KEY, parent TEXT REFERENCES revisions(key), \
     scheme TEXT NOT NULL, content_hash TEXT NOT NULL REFERENCES contents(hash), media_type TEXT NOT NULL, \
     size BIGINT NOT NULL, created_at_ms BIGINT NOT NULL)";

/// The schemes a revision can be recorded under (v0 has no content hashes).
pub const SCHEMES: [samekey::Scheme; 2] = [samekey::Scheme::V1, samekey::Scheme::V2];

/// The advisory lock every schema change on PostgreSQL takes (an arbitrary constant).
pub(crate) const PG_LOCK: i64 = 7305079254237112385;

/// Why a database cannot be used by this build, or how its upgrade failed.
#[derive(Debug)]
pub enum SchemaError {
    Newer { found: i64 },
    Database(sqlx::Error),
}

impl std::fmt::Display for SchemaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SchemaError::Newer { found } => write!(
                f,
                "the database's schema is version {found}, newer than this samekey ({}) knows (up to {VERSION}): \
                 run a samekey at least as new as the one that upgraded it",
                env!("CARGO_PKG_VERSION")
            ),
            SchemaError::Database(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SchemaError {}

impl From<sqlx::Error> for SchemaError {
    fn from(e: sqlx::Error) -> Self {
        SchemaError::Database(e)
    }
}

/// The version table, and the version a database created by samekey 0.2 (tables, no
/// version table) is at.
const VERSION_TABLE: &str =
    "CREATE TABLE IF NOT EXISTS registry_schema (version BIGINT PRIMARY KEY, \
     description TEXT NOT NULL, applied_at_ms BIGINT NOT NULL)";

/// Brings the database to [`VERSION`], in one transaction under the write lock; returns
/// the version it was at. Refuses a database newer than this build.
pub async fn migrate(db: &Db) -> Result<i64, SchemaError> {
    macro_rules! run {
        ($tx:expr, $statements:expr) => {{
            sqlx::query(VERSION_TABLE).execute(&mut *$tx).await?;
            let found: i64 =
                sqlx::query("SELECT COALESCE(MAX(version), 0) AS v FROM registry_schema")
                    .fetch_one(&mut *$tx)
                    .await?
                    .try_get("v")?;
            if found > VERSION {
                return Err(SchemaError::Newer { found });
            }
            for (i, migration) in MIGRATIONS.iter().enumerate().skip(found as usize) {
                for statement in $statements(migration) {
                    sqlx::query(statement).execute(&mut *$tx).await?;
                }
                sqlx::query(
                    "INSERT INTO registry_schema (version, description, applied_at_ms) VALUES ($1, $2, $3)",
                )
                .bind(i as i64 + 1)
                .bind(migration.0)
                .bind(crate::store::now_ms())
                .execute(&mut *$tx)
                .await?;
            }
            found
        }};
    }
    let sqlite = matches!(db, Db::Sqlite(..));
    let found = crate::store::write_locked!(db, SchemaError, lock(tx) => crate::store::schema_lock(tx, false), conn => {
        Ok(run!(conn, |m: &Migration| if sqlite { m.1.iter() } else { m.2.iter() }))
    })?;
    Ok(found)
}
