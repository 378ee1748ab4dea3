//! Which schemes every revision is recorded under, and the rollout's two database steps.
//!
//! A process may write only while its ring holds every *required* scheme and no *retired*
//! one: then any two writers share the required schemes, whose keys are unique, so one
//! (parent, data) is one revision whatever ring answers. The database enforces it on every
//! insert (PostgreSQL CHECK constraints, the SQLite trigger of [`crate::store::schema`]), so a
//! process started before a step cannot write around it: it gets `scheme_required`.
//!
//! - `require(S)`: records S's key of every revision that lacks it (hashing its data,
//!   from the database or the object store), then makes S required. Run once every writer's ring has S (the expand step).
//! - `retire(S)`: no new revision is recorded under S, and no process whose ring has S may
//!   write; another scheme must be required. A collision in a retired scheme (S's hash
//!   broken one day) can then never make two contents one revision.

use std::collections::HashMap;

use samekey::{content_hash, derive_revision, ContentHash, KeyRing, Scheme};
use sqlx::Row;

use crate::store::objects::{DataStore, ObjectError};
use crate::store::schema::SCHEMES;
use crate::store::{key_column, Db, StoreError};

/// A scheme's state in this database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Every revision is recorded under it; a process whose ring lacks it cannot write.
    Required,
    /// No new revision is recorded under it; a process whose ring has it cannot write.
    Retired,
    /// Recorded by the writers whose ring has it.
    Optional,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Required => "required",
            State::Retired => "retired",
            State::Optional => "optional",
        }
    }
}

/// Each scheme of [`SCHEMES`] with its state.
pub async fn states(db: &Db) -> Result<Vec<(Scheme, State)>, sqlx::Error> {
    let rows: Vec<(String, String)> = crate::on_pool!(db, pool => {
        sqlx::query_as("SELECT scheme, state FROM registry_schemes").fetch_all(pool).await?
    });
    Ok(SCHEMES
        .iter()
        .map(|s| {
            let state = match rows.iter().find(|(name, _)| name == s.as_str()) {
                Some((_, st)) if st == "required" => State::Required,
                Some(_) => State::Retired,
                None => State::Optional,
            };
            (*s, state)
        })
        .collect())
}

/// Why a process with `ring` may not write to a database whose schemes are `states`.
pub fn ring_refusal(ring: &KeyRing, states: &[(Scheme, State)]) -> Option<String> {
    let names = |want: State| -> Vec<&str> {
        states
            .iter()
            .filter(|(_, st)| *st == want)
            .map(|(s, _)| s.as_str())
            .collect()
    };
    let ring_names: Vec<&str> = ring.accepted().iter().map(|s| s.as_str()).collect();
    let missing: Vec<&str> = names(State::Required)
        .into_iter()
        .filter(|s| !ring_names.contains(s))
        .collect();
    let retired: Vec<&str> = names(State::Retired)
        .into_iter()
        .filter(|s| ring_names.contains(s))
        .collect();
    if missing.is_empty() && retired.is_empty() {
        return None;
    }
    let mut why = format!(
        "this process's key ring ({}) cannot write to this database, whose revisions are recorded under {} (required)",
        ring_names.join(", "),
        names(State::Required).join(", ")
    );
    if !names(State::Retired).is_empty() {
        why += &format!(
            " and never again under {} (retired)",
            names(State::Retired).join(", ")
        );
    }
    if !missing.is_empty() {
        why += &format!(": add {} to --accept", missing.join(", "));
    }
    if !retired.is_empty() {
        why += &format!(
            "{} remove {} from the ring",
            if missing.is_empty() { ":" } else { ", and" },
            retired.join(", ")
        );
    }
    Some(why + " (see the registry README's \"Changing the scheme\")")
}

/// What `require` did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Backfill {
    /// Revisions that got their key under the scheme.
    pub recorded: u64,
    /// Revisions whose key under the scheme another revision holds already: twins that a
    /// registry before schema 2 created in a mixed-ring rollout (marked `twin_of`).
    pub twins: u64,
}

fn refused(why: String) -> sqlx::Error {
    sqlx::Error::Configuration(why.into())
}

/// Records `scheme`'s key of every revision that lacks it, then makes `scheme` required.
/// The data is hashed before the schema's lock is taken (reading it from `objects` where
/// its row names an object), so registrations wait only for the keys of revisions created
/// in the meantime; data in an object store with no `objects` given is an error.
pub async fn require(
    db: &Db,
    scheme: Scheme,
    objects: Option<&DataStore>,
) -> Result<Backfill, StoreError> {
    let column = key_column(scheme);
    let postgres = matches!(db, Db::Postgres(_));
    let lacking_sql = format!(
        "SELECT r.key, r.parent, r.content_hash, r.size, c.location FROM revisions r \
         JOIN contents c ON c.hash = r.content_hash \
         WHERE r.{column} IS NULL AND r.twin_of IS NULL ORDER BY r.created_at_ms, r.key"
    );
    // Before the lock: every revision's data under `scheme`, by key.
    let rows =
        crate::on_pool!(db, pool => lacking(sqlx::query(&lacking_sql).fetch_all(pool).await?)?);
    let mut hashed = HashMap::new();
    for row in rows {
        let data = match row.location {
            None => Some(crate::on_pool!(db, pool => {
                sqlx::query_scalar(DATA_SQL).bind(&row.content_hash).fetch_one(pool).await?
            })),
            Some(_) => None,
        };
        let hash = scheme_hash(scheme, &row, data, objects).await?;
        hashed.insert(row.key, hash);
    }
    macro_rules! body {
        ($conn:expr) => {{
            let state: Option<String> =
                sqlx::query_scalar("SELECT state FROM registry_schemes WHERE scheme = $1")
                    .bind(scheme.as_str())
                    .fetch_optional(&mut *$conn)
                    .await?;
            match state.as_deref() {
                Some("retired") => {
                    return Err(refused(format!(
                        "{scheme} is retired in this database: a retired scheme is never required again"
                    ))
                    .into())
                }
                Some(_) => return Ok(Backfill::default()),
                None => {}
            }
            let rows = lacking(sqlx::query(&lacking_sql).fetch_all(&mut *$conn).await?)?;
            let mut done = Backfill::default();
            for row in rows {
                // Created after the pass above: hashed now, under the lock.
                let hash = match hashed.remove(&row.key) {
                    Some(hash) => hash,
                    None => {
                        let data = match row.location {
                            None => Some(
                                sqlx::query_scalar(DATA_SQL)
                                    .bind(&row.content_hash)
                                    .fetch_one(&mut *$conn)
                                    .await?,
                            ),
                            Some(_) => None,
                        };
                        scheme_hash(scheme, &row, data, objects).await?
                    }
                };
                let key = &row.key;
                let derived = derive_revision(scheme, row.parent.as_deref(), &hash, None)
                    .map_err(|e| refused(format!("{key}: {e}")))?
                    .to_string();
                let holder: Option<String> =
                    sqlx::query_scalar(&format!("SELECT key FROM revisions WHERE {column} = $1"))
                        .bind(&derived)
                        .fetch_optional(&mut *$conn)
                        .await?;
                let (sql, value) = match holder {
                    Some(first) => {
                        done.twins += 1;
                        ("UPDATE revisions SET twin_of = $1 WHERE key = $2".to_string(), first)
                    }
                    None => {
                        done.recorded += 1;
                        (format!("UPDATE revisions SET {column} = $1 WHERE key = $2"), derived)
                    }
                };
                sqlx::query(&sql).bind(value).bind(key).execute(&mut *$conn).await?;
            }
            if postgres {
                sqlx::query(&format!(
                    "ALTER TABLE revisions ADD CONSTRAINT revisions_require_{scheme} CHECK ({column} IS NOT NULL OR twin_of IS NOT NULL)"
                ))
                .execute(&mut *$conn)
                .await?;
            }
            sqlx::query("INSERT INTO registry_schemes (scheme, state) VALUES ($1, 'required')")
                .bind(scheme.as_str())
                .execute(&mut *$conn)
                .await?;
            Ok(done)
        }};
    }
    crate::store::write_locked!(db, StoreError, lock(tx) => crate::store::schema_lock(tx, true), conn => body!(conn))
}

/// A revision that lacks a scheme's key, and where its data is.
struct Lacking {
    key: String,
    parent: Option<String>,
    content_hash: String,
    size: i64,
    location: Option<String>,
}

fn lacking<R: Row>(rows: Vec<R>) -> Result<Vec<Lacking>, sqlx::Error>
where
    for<'r> String: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> Option<String>: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    for<'r> &'r str: sqlx::ColumnIndex<R>,
{
    rows.iter()
        .map(|row| {
            Ok(Lacking {
                key: row.try_get("key")?,
                parent: row.try_get("parent")?,
                content_hash: row.try_get("content_hash")?,
                size: row.try_get("size")?,
                location: row.try_get("location")?,
            })
        })
        .collect()
}

const DATA_SQL: &str = "SELECT data FROM contents WHERE hash = $1";

/// The content hash under `scheme` of `row`'s data: `data` as read from the database, or
/// (where its row names an object) read from `objects`.
async fn scheme_hash(
    scheme: Scheme,
    row: &Lacking,
    data: Option<Vec<u8>>,
    objects: Option<&DataStore>,
) -> Result<ContentHash, StoreError> {
    let key = &row.key;
    match (&row.location, data) {
        (None, Some(data)) => {
            Ok(content_hash(scheme, &data).map_err(|e| refused(format!("{key}: {e}")))?)
        }
        (None, None) => Err(refused(format!("{key}: its data was not read")).into()),
        (Some(location), _) => {
            let objects = objects.ok_or_else(|| {
                ObjectError::Unavailable(format!(
                    "the data of {key} is in an object store: give its --data-store"
                ))
            })?;
            let path = objects.located(&row.content_hash, location);
            Ok(objects.hash(&path, row.size.max(0) as u64, scheme).await?)
        }
    }
}

/// Retires `scheme`: no new revision is recorded under it. Another scheme must be required.
pub async fn retire(db: &Db, scheme: Scheme) -> Result<(), sqlx::Error> {
    let column = key_column(scheme);
    let postgres = matches!(db, Db::Postgres(_));
    macro_rules! body {
        ($conn:expr) => {{
            let rows: Vec<(String, String)> =
                sqlx::query_as("SELECT scheme, state FROM registry_schemes")
                    .fetch_all(&mut *$conn)
                    .await?;
            if rows.iter().any(|(s, st)| s == scheme.as_str() && st == "retired") {
                return Ok(());
            }
            if !rows.iter().any(|(s, st)| s != scheme.as_str() && st == "required") {
                return Err(refused(format!(
                    "{scheme} cannot be retired while no other scheme is required: require the new scheme first"
                )));
            }
            if postgres {
                for statement in [
                    format!("ALTER TABLE revisions DROP CONSTRAINT IF EXISTS revisions_require_{scheme}"),
                    // NOT VALID: the revisions recorded under it keep their keys.
                    format!(
                        "ALTER TABLE revisions ADD CONSTRAINT revisions_retire_{scheme} CHECK ({column} IS NULL AND scheme <> '{scheme}') NOT VALID"
                    ),
                ] {
                    sqlx::query(&statement).execute(&mut *$conn).await?;
                }
            }
            sqlx::query(
                "INSERT INTO registry_schemes (scheme, state) VALUES ($1, 'retired') \
                 ON CONFLICT (scheme) DO UPDATE SET state = excluded.state",
            )
            .bind(scheme.as_str())
            .execute(&mut *$conn)
            .await?;
            Ok(())
        }};
    }
    crate::store::write_locked!(db, sqlx::Error, lock(tx) => crate::store::schema_lock(tx, true), conn => body!(conn))
}

/// At a process's start: a database where no scheme is required yet (new, or just
/// upgraded to schema 2) gets one, the scheme of `ring` that the fewest revisions lack
/// (the primary on a tie), so that the writers already running keep theirs. Then the
/// process's ring is checked against the database's schemes.
pub async fn settle(
    db: &Db,
    ring: &KeyRing,
    objects: Option<&DataStore>,
) -> Result<Vec<(Scheme, State)>, StoreError> {
    let mut now = states(db).await?;
    if !now.iter().any(|(_, st)| *st == State::Required) {
        let mut best: Option<(i64, Scheme)> = None;
        for &scheme in ring.accepted() {
            if !SCHEMES.contains(&scheme) {
                continue;
            }
            let sql = format!(
                "SELECT COUNT(*) FROM revisions WHERE {} IS NULL",
                key_column(scheme)
            );
            let lacking: i64 = crate::on_pool!(db, pool => {
                sqlx::query_scalar(&sql).fetch_one(pool).await?
            });
            if best.is_none_or(|(n, _)| lacking < n) {
                best = Some((lacking, scheme));
            }
        }
        if let Some((_, scheme)) = best {
            let done = require(db, scheme, objects).await?;
            tracing::info!(%scheme, recorded = done.recorded, twins = done.twins,
                "every revision is now recorded under {scheme}, which writers must derive");
        }
        now = states(db).await?;
    }
    match ring_refusal(ring, &now) {
        Some(why) => Err(refused(why).into()),
        None => Ok(now),
    }
}

/// Per scheme: its state, the revisions created under it, and those recorded under it.
pub async fn status(db: &Db) -> Result<Vec<(Scheme, State, i64, i64)>, sqlx::Error> {
    let mut out = Vec::new();
    for (scheme, state) in states(db).await? {
        let sql = format!(
            "SELECT COUNT(*) FILTER (WHERE scheme = $1) AS created, COUNT({}) AS recorded FROM revisions",
            key_column(scheme)
        );
        let (created, recorded): (i64, i64) = crate::on_pool!(db, pool => {
            sqlx::query_as(&sql).bind(scheme.as_str()).fetch_one(pool).await?
        });
        out.push((scheme, state, created, recorded));
    }
    Ok(out)
}
