//! What tests and operators read of the store: counts, every revision's index row, and
//! the database's and the registry's own consistency checks.

use sqlx::Row;

use crate::on_pool;
use crate::store::objects::{DataStore, ObjectError};
use crate::store::{Db, StoreError};

impl Db {
    /// (revisions, contents): for tests and operators.
    pub async fn counts(&self) -> Result<(i64, i64), sqlx::Error> {
        on_pool!(self, pool => {
            let revisions: i64 = sqlx::query("SELECT COUNT(*) AS n FROM revisions").fetch_one(pool).await?.try_get("n")?;
            let contents: i64 = sqlx::query("SELECT COUNT(*) AS n FROM contents").fetch_one(pool).await?.try_get("n")?;
            Ok((revisions, contents))
        })
    }

    /// Every revision's (key, parent, the SHA-256 content hash of its data whatever scheme
    /// it was created under), by key: for tests and operators. Twins made under two
    /// schemes (`sha256:` and `blake3:` content hashes) show the same third field. Data in
    /// an object store is read from `objects` (an error if it is not given).
    pub async fn revision_index(
        &self,
        objects: Option<&DataStore>,
    ) -> Result<Vec<(String, Option<String>, String)>, StoreError> {
        let rows = on_pool!(self, pool => {
            sqlx::query(
                "SELECT r.key, r.parent, r.size, r.content_hash, c.data, c.location FROM revisions r \
                 JOIN contents c ON c.hash = r.content_hash ORDER BY r.key",
            )
            .fetch_all(pool)
            .await?
            .iter()
            .map(|row| {
                Ok::<_, sqlx::Error>((
                    row.try_get::<String, _>("key")?,
                    row.try_get::<Option<String>, _>("parent")?,
                    row.try_get::<i64, _>("size")?,
                    row.try_get::<String, _>("content_hash")?,
                    row.try_get::<Vec<u8>, _>("data")?,
                    row.try_get::<Option<String>, _>("location")?,
                ))
            })
            .collect::<Result<Vec<_>, _>>()?
        });
        let mut out = Vec::with_capacity(rows.len());
        for (key, parent, size, content_hash, data, location) in rows {
            let hash = match location {
                None => samekey::content_hash(samekey::Scheme::V1, &data)
                    .map_err(|e| sqlx::Error::Decode(e.into()))?,
                Some(location) => {
                    let objects = objects.ok_or_else(|| {
                        ObjectError::Unavailable(format!(
                            "{key}: its data is in an object store, and none was given"
                        ))
                    })?;
                    let path = objects.located(&content_hash, &location);
                    objects
                        .hash(&path, size.max(0) as u64, samekey::Scheme::V1)
                        .await?
                }
            };
            out.push((key, parent, hash.to_string()));
        }
        Ok(out)
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
}
