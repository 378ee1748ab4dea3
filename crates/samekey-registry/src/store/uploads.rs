//! The database's side of revision data in an object store: uploads announced before their
//! object is written, and gc's deletions announced before their object is deleted. Both
//! take the content's lock (PostgreSQL: an advisory lock on its hash; SQLite: the write
//! lock), so for any content hash, in the database's order, either
//! - an upload is announced first: gc sees it (or the content row its commit adds) and
//!   keeps the object; or
//! - a deletion is announced first: the upload waits for it to end, then writes the
//!   object anew.
//!
//! An upload older than the grace period no longer holds its object: its commit fails
//! ([`super::Insert::UploadExpired`]) and the client's retry uploads again. A deletion
//! older than [`DELETION_LEASE_MS`] (its gc was killed) is taken over. A deletion belongs to
//! the gc pass that announced it: a second pass leaves that content alone, and a pass ends
//! only its own (two passes sharing one announcement lose an object: the model in
//! crates/samekey-model/src/objects.rs found it).

use std::sync::atomic::{AtomicU64, Ordering};

use std::time::Duration;

use bytes::Bytes;

use super::objects::{DataStore, ObjectError};
use super::{now_ms, Db, StoreError};

/// How long an upload waits for gc to finish deleting its content's object.
const DELETION_WAIT: Duration = Duration::from_secs(10);

/// How long an announced deletion keeps uploads of its content waiting: longer than one
/// DELETE request to the store takes (gc gives up on it sooner).
pub const DELETION_LEASE_MS: i64 = 120_000;

/// The first key of PostgreSQL's two-key advisory locks on contents (an arbitrary
/// constant; the schema's lock uses the one-key form).
const CONTENT_LOCK: i32 = 0x5a3e_0001;

/// Takes `hash`'s lock for the rest of the transaction (PostgreSQL).
pub(super) async fn lock_content(
    conn: &mut sqlx::PgConnection,
    hash: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_advisory_xact_lock($1, hashtext($2))")
        .bind(CONTENT_LOCK)
        .bind(hash)
        .execute(conn)
        .await
        .map(drop)
}

/// A name no other upload or gc pass of any process has: the process, the time, a counter.
pub fn unique_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}-{}",
        std::process::id(),
        now_ms(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// What gc may do with an object.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Its deletion is announced: delete it, then [`Db::end_deletion`].
    Delete,
    /// A content row names it.
    Named,
    /// An upload of it is in flight.
    Uploading,
    /// Another gc pass is deleting it.
    Deleting,
}

impl Db {
    /// Announces an upload of `hash`'s object; its id, or `None` while gc is deleting
    /// that object (wait and ask again). A deletion past its lease is taken over.
    pub async fn begin_upload(&self, hash: &str) -> Result<Option<String>, sqlx::Error> {
        let now = now_ms();
        let id = unique_id();
        super::write_locked!(self, sqlx::Error, lock(tx) => lock_content(tx, hash), conn => {
            let deleting: Option<i64> =
                sqlx::query_scalar("SELECT started_at_ms FROM data_deletions WHERE hash = $1")
                    .bind(hash)
                    .fetch_optional(&mut *conn)
                    .await?;
            match deleting {
                Some(at) if now - at < DELETION_LEASE_MS => return Ok(None),
                Some(_) => {
                    sqlx::query("DELETE FROM data_deletions WHERE hash = $1")
                        .bind(hash)
                        .execute(&mut *conn)
                        .await?;
                }
                None => {}
            }
            sqlx::query("INSERT INTO data_uploads (id, hash, started_at_ms) VALUES ($1, $2, $3)")
                .bind(&id)
                .bind(hash)
                .bind(now)
                .execute(&mut *conn)
                .await?;
            Ok(Some(id.clone()))
        })
    }

    /// Writes `data`, whose content hash is `hash`, to the object store at the hash's name
    /// under an announced upload (waiting while gc deletes that object); the upload's id,
    /// which the commit of a row naming the object ends ([`super::Content::Object`]).
    pub async fn upload(
        &self,
        objects: &DataStore,
        hash: &str,
        data: Bytes,
    ) -> Result<String, StoreError> {
        let waited = tokio::time::Instant::now();
        let id = loop {
            if let Some(id) = self.begin_upload(hash).await? {
                break id;
            }
            if waited.elapsed() > DELETION_WAIT {
                return Err(ObjectError::Unavailable(format!(
                    "gc has been deleting the object of {hash} for over {DELETION_WAIT:?}"
                ))
                .into());
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        match objects.put(hash, data).await {
            Ok(_) => Ok(id),
            Err(e) => {
                // An upload left announced would only delay gc until its grace ends.
                let _ = self.abandon_upload(&id).await;
                Err(e.into())
            }
        }
    }

    /// Ends an upload that will not be committed (its object write failed).
    pub async fn abandon_upload(&self, id: &str) -> Result<(), sqlx::Error> {
        super::on_writer!(self, pool => {
            sqlx::query("DELETE FROM data_uploads WHERE id = $1").bind(id).execute(pool).await.map(drop)
        })
    }

    /// gc pass `pass`'s question for an object of `hash` older than `grace_ms`: announces
    /// its deletion unless a content row names it, an upload younger than `grace_ms` is
    /// in flight (older ones are dropped: their commits will fail), or another pass's
    /// deletion of it is within its lease (a stale one is taken over).
    pub async fn begin_deletion(
        &self,
        hash: &str,
        grace_ms: i64,
        pass: &str,
    ) -> Result<Verdict, sqlx::Error> {
        let now = now_ms();
        super::write_locked!(self, sqlx::Error, lock(tx) => lock_content(tx, hash), conn => {
            sqlx::query("DELETE FROM data_uploads WHERE hash = $1 AND started_at_ms < $2")
                .bind(hash)
                .bind(now - grace_ms)
                .execute(&mut *conn)
                .await?;
            // A content hash, or a staged object's name (which has a '/', no hash has).
            let named: Option<i32> =
                sqlx::query_scalar("SELECT 1 FROM contents WHERE hash = $1 OR location = $1 LIMIT 1")
                .bind(hash)
                .fetch_optional(&mut *conn)
                .await?;
            if named.is_some() {
                return Ok(Verdict::Named);
            }
            let uploading: Option<i32> =
                sqlx::query_scalar("SELECT 1 FROM data_uploads WHERE hash = $1 LIMIT 1")
                    .bind(hash)
                    .fetch_optional(&mut *conn)
                    .await?;
            if uploading.is_some() {
                return Ok(Verdict::Uploading);
            }
            let deleting: Option<i64> =
                sqlx::query_scalar("SELECT started_at_ms FROM data_deletions WHERE hash = $1")
                    .bind(hash)
                    .fetch_optional(&mut *conn)
                    .await?;
            if deleting.is_some_and(|at| now - at < DELETION_LEASE_MS) {
                return Ok(Verdict::Deleting);
            }
            sqlx::query(
                "INSERT INTO data_deletions (hash, pass, started_at_ms) VALUES ($1, $2, $3) \
                 ON CONFLICT (hash) DO UPDATE SET pass = excluded.pass, started_at_ms = excluded.started_at_ms",
            )
            .bind(hash)
            .bind(pass)
            .bind(now)
            .execute(&mut *conn)
            .await?;
            Ok(Verdict::Delete)
        })
    }

    /// Pass `pass` deleted the object of `hash`: uploads of it may go ahead (unless
    /// another pass took the deletion over meanwhile).
    pub async fn end_deletion(&self, hash: &str, pass: &str) -> Result<(), sqlx::Error> {
        super::on_writer!(self, pool => {
            sqlx::query("DELETE FROM data_deletions WHERE hash = $1 AND pass = $2")
                .bind(hash)
                .bind(pass)
                .execute(pool)
                .await
                .map(drop)
        })
    }
}
