//! Storing a revision: its content row and its revision row, committed together, with its
//! data in the database or named in the object store.

use sqlx::Row;

use super::{is_foreign_key_violation, revision_from_row, Db, Revision, COLUMNS};

/// Where a new revision's data goes.
#[derive(Debug)]
pub enum Content {
    /// Into the database's `contents.data`.
    Bytes(Vec<u8>),
    /// Already in the object store, written under the upload `upload` announced
    /// ([`Db::begin_upload`]); the commit ends that upload. At the content hash's own
    /// name, or at `at` (a staged upload's).
    Object { upload: String, at: Option<String> },
}

/// What an insert did.
#[derive(Debug)]
pub enum Insert {
    /// The stored revision, and whether this insert created it.
    Stored(Revision, bool),
    /// The parent it names is not in the registry.
    UnknownParent,
    /// The upload of its data outlived gc's grace period, so gc may have deleted the
    /// object: nothing was committed, and a retry uploads it again.
    UploadExpired,
}

/// What the SQLite write transaction did; it committed unless the parent was unknown or
/// the upload had expired.
enum SqliteWrite {
    Inserted(sqlx::sqlite::SqliteRow),
    Existed,
    UnknownParent,
    UploadExpired,
}

type SqliteQuery<'q> = sqlx::query::Query<'q, sqlx::Sqlite, sqlx::sqlite::SqliteArguments<'q>>;

const END_UPLOAD: &str = "DELETE FROM data_uploads WHERE id = $1";

/// One write transaction: the upload's end (when the data is in the object store), the
/// content row, then the revision row. `BEGIN IMMEDIATE` takes the write lock before
/// anything is read. Success means SQLite answered the `COMMIT` itself (in WAL mode with
/// `synchronous=FULL`, after the log is synced); any error leaves the connection in a
/// state the caller must not reuse.
async fn sqlite_write<'q>(
    conn: &mut sqlx::SqliteConnection,
    upload: Option<&str>,
    content: SqliteQuery<'q>,
    revision: SqliteQuery<'q>,
) -> Result<SqliteWrite, sqlx::Error> {
    sqlx::query("BEGIN IMMEDIATE").execute(&mut *conn).await?;
    if let Some(id) = upload {
        let ended = sqlx::query(END_UPLOAD).bind(id).execute(&mut *conn).await?;
        if ended.rows_affected() == 0 {
            sqlx::query("ROLLBACK").execute(&mut *conn).await?;
            return Ok(SqliteWrite::UploadExpired);
        }
        sqlx::query("SAVEPOINT rows").execute(&mut *conn).await?;
    }
    content.execute(&mut *conn).await?;
    let row = match revision.fetch_optional(&mut *conn).await {
        Ok(row) => row,
        Err(e) if is_foreign_key_violation(&e) => {
            sqlx::query("ROLLBACK").execute(&mut *conn).await?;
            return Ok(SqliteWrite::UnknownParent);
        }
        Err(e) => return Err(e),
    };
    // A revision that existed leaves no content row behind (its data may be another
    // scheme's hash of the same bytes); an upload's end is kept either way.
    if row.is_none() && upload.is_some() {
        sqlx::query("ROLLBACK TO rows").execute(&mut *conn).await?;
    }
    let end = if row.is_some() || upload.is_some() {
        "COMMIT"
    } else {
        "ROLLBACK"
    };
    sqlx::query(end).execute(&mut *conn).await?;
    Ok(row.map_or(SqliteWrite::Existed, SqliteWrite::Inserted))
}

/// The revision insert with its nine parameters numbered from `$first`: the row, then its
/// key under each scheme of [`crate::store::schema::SCHEMES`] (NULL for a scheme outside the
/// writer's ring). Any unique key that exists already makes it do nothing.
pub(super) fn insert_revision_sql(first: usize) -> String {
    let params: Vec<String> = (first..first + 9).map(|n| format!("${n}")).collect();
    format!(
        "INSERT INTO revisions ({COLUMNS}, key_v1, key_v2) VALUES ({}) ON CONFLICT DO NOTHING RETURNING {COLUMNS}",
        params.join(", ")
    )
}

impl Db {
    /// Stores `revision` and its data, recorded under `keys` (its key in each scheme of
    /// the writer's ring, by [`crate::store::schema::SCHEMES`]' order, `None` outside it),
    /// unless a revision holding one of those keys exists; either way returns the stored
    /// row, and whether this call created it. The database decides: every key is unique,
    /// so two writers whose rings share a scheme cannot both create. A missing parent is
    /// `Insert::UnknownParent` (the foreign key says so; no separate check races it).
    ///
    /// PostgreSQL: one statement (data-modifying CTEs), so one round trip and one commit;
    /// the data is stored only when the revision is. With the data in the object store,
    /// the upload's end goes first in the same transaction, under the content's lock
    /// ([`Db::begin_upload`]). SQLite: one transaction whose first statement writes, so it
    /// takes the write lock before reading anything; rolled back when the revision existed.
    /// Takes the data by value: SQLite binds it without a copy (a 16 MiB payload would
    /// otherwise be held twice while the row is written).
    pub async fn insert(
        &self,
        revision: &Revision,
        keys: [Option<&str>; 2],
        content: Content,
    ) -> Result<Insert, sqlx::Error> {
        let (data, location, upload) = match content {
            Content::Bytes(data) => (data, None, None),
            Content::Object { upload, at } => (
                Vec::new(),
                Some(at.unwrap_or_else(|| super::data::BY_HASH.to_string())),
                Some(upload),
            ),
        };
        let insert_content = "INSERT INTO contents (hash, media_type, data, location) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING";
        // The content row's four values, then the revision row's nine, in column order.
        macro_rules! bind_content {
            ($query:expr) => {
                $query
                    .bind(&revision.content_hash)
                    .bind(&revision.media_type)
                    .bind(data)
                    .bind(location)
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
                    .bind(keys[0])
                    .bind(keys[1])
            };
        }
        let created = match self {
            Db::Postgres(pool) => {
                let sql = format!(
                    "WITH r AS ({}), c AS (INSERT INTO contents (hash, media_type, data, location) \
                     SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM r) ON CONFLICT (hash) DO NOTHING) \
                     SELECT * FROM r",
                    insert_revision_sql(5)
                );
                let query = bind_revision!(bind_content!(sqlx::query(&sql)));
                let row = match &upload {
                    None => query.fetch_optional(pool).await,
                    Some(id) => {
                        let mut tx = pool.begin().await?;
                        super::uploads::lock_content(&mut tx, &revision.content_hash).await?;
                        let ended = sqlx::query(END_UPLOAD).bind(id).execute(&mut *tx).await?;
                        if ended.rows_affected() == 0 {
                            return Ok(Insert::UploadExpired);
                        }
                        let row = query.fetch_optional(&mut *tx).await;
                        if row.is_ok() {
                            tx.commit().await?;
                        }
                        row
                    }
                };
                match row {
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
                    upload.as_deref(),
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
                    SqliteWrite::UploadExpired => return Ok(Insert::UploadExpired),
                }
            }
        };
        if let Some(stored) = created {
            return Ok(Insert::Stored(stored, true));
        }
        // Someone else's registration holding one of these keys won; it is committed, so
        // it is visible.
        match self.find(keys).await? {
            Some(existing) => Ok(Insert::Stored(existing, false)),
            None => Err(sqlx::Error::RowNotFound),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_revision_insert_numbers_its_parameters_from_the_given_one() {
        let sql = super::insert_revision_sql(5);
        assert!(
            sql.contains("VALUES ($5, $6, $7, $8, $9, $10, $11, $12, $13)"),
            "{sql}"
        );
    }
}
