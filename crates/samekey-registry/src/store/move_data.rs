//! `samekey registry move-data`: a registry's revision data moved from its database into
//! an object store while the registry serves. Two phases, both resumable:
//!
//! 1. **Copy.** Each content whose bytes are in the database and larger than the inline
//!    limit is read in chunks, hashed (the bytes must hash to the content's hash), written
//!    under an announced upload as a registration writes it (one object at the hash's
//!    name, or a multipart upload to a staging name past one part), read back from the
//!    store and hashed again, and only then named by its row (`contents.location`), in
//!    the transaction that ends the upload. The bytes stay in the row: readers that
//!    started before go on reading them; readers that start after read the object.
//! 2. **Drop.** After `drain` (the time given to reads in flight), the database's copy of
//!    every content that names an object is emptied.
//!
//! A kill anywhere leaves a consistent registry: a row names an object only once the
//! object was verified; an object written before the kill is either found again (same
//! size and MD5: not rewritten) or deleted by gc after its grace. The next run carries on
//! where the last one stopped: the rows say what is done.

use std::time::Duration;

use bytes::Bytes;
use samekey::{ContentHash, ContentHasher};
use sqlx::Row;

use super::data::{DataRef, BY_HASH};
use super::objects::{DataStore, ObjectError};
use super::staged::PART;
use super::{Db, StoreError};
use crate::on_pool;

/// Bytes read from the database at a time.
const CHUNK: usize = 1024 * 1024;

/// Contents fetched per query of the copy phase.
const BATCH: i64 = 64;

/// What a run did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MoveReport {
    /// Contents copied into the store and named by their rows.
    pub moved: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Contents whose database copy was emptied (this run's and earlier runs').
    pub dropped: u64,
    /// Contents left in the database: within the inline limit.
    pub inline: u64,
}

/// Copies every content larger than `inline_limit` from the database into `objects`,
/// waits `drain`, then empties the database's copies; `progress` hears of each content
/// moved.
pub async fn move_data(
    db: &Db,
    objects: &DataStore,
    inline_limit: u64,
    drain: Duration,
    mut progress: impl FnMut(&str, u64),
) -> Result<MoveReport, StoreError> {
    let mut report = MoveReport::default();
    let mut after = String::new();
    loop {
        let batch = db.in_database(&after, inline_limit).await?;
        let Some(last) = batch.last() else { break };
        after = last.content_hash.clone();
        for data in batch {
            let location = copy(db, objects, &data).await?;
            let size = data.size.max(0) as u64;
            if db.relocate(&data.content_hash, &location).await? {
                report.moved += 1;
                report.bytes += size;
                progress(&data.content_hash, size);
            }
        }
    }
    report.inline = db.count_inline().await?;
    if db.copies_to_drop().await? > 0 {
        tokio::time::sleep(drain).await;
        report.dropped = db.drop_copies().await?;
    }
    Ok(report)
}

/// Writes the content's bytes to the store and verifies them there; the object's name as
/// its row will record it ([`BY_HASH`] or a staging name).
async fn copy(db: &Db, objects: &DataStore, data: &DataRef) -> Result<Location, StoreError> {
    let expected: ContentHash = data
        .content_hash
        .parse()
        .map_err(|e| corrupt(data, format!("its hash does not parse: {e}")))?;
    let size = data.size.max(0) as u64;
    let mut hasher = ContentHasher::new(expected.scheme())
        .map_err(|e| corrupt(data, format!("its scheme has no hasher: {e}")))?;
    let (path, upload) = if size <= PART as u64 {
        let mut bytes = Vec::with_capacity(size as usize);
        while (bytes.len() as u64) < size {
            let chunk = db.data_chunk(data, bytes.len() as u64, CHUNK).await?;
            if chunk.is_empty() {
                return Err(corrupt(data, format!("ends at {} bytes", bytes.len())).into());
            }
            bytes.extend_from_slice(&chunk);
        }
        hasher.update(&bytes);
        check(data, hasher, &expected)?;
        let upload = db
            .upload(objects, &data.content_hash, Bytes::from(bytes))
            .await?;
        (BY_HASH.to_string(), upload)
    } else {
        let mut staging = objects.stage(db).await?;
        let mut at = 0u64;
        let written: Result<(), StoreError> = async {
            while at < size {
                let chunk = db.data_chunk(data, at, CHUNK).await?;
                if chunk.is_empty() {
                    return Err(corrupt(data, format!("ends at {at} bytes")).into());
                }
                at += chunk.len() as u64;
                hasher.update(&chunk);
                staging.write(objects, chunk.into()).await?;
            }
            Ok(())
        }
        .await;
        if let Err(e) = written.and_then(|()| check(data, hasher, &expected)) {
            staging.abort(db).await;
            return Err(e);
        }
        let staged = staging.finish(objects, db).await?;
        (staged.path.to_string(), staged.upload)
    };
    let location = Location { path, upload };
    if let Err(e) = verify(objects, data, &expected, &location.path).await {
        let _ = db.abandon_upload(&location.upload).await;
        return Err(e.into());
    }
    Ok(location)
}

/// Where a content was copied, under which announced upload.
struct Location {
    path: String,
    upload: String,
}

fn corrupt(data: &DataRef, why: String) -> ObjectError {
    ObjectError::Corrupt(format!(
        "the database's copy of {}: {why}",
        data.content_hash
    ))
}

fn check(data: &DataRef, hasher: ContentHasher, expected: &ContentHash) -> Result<(), StoreError> {
    let got = hasher.finalize();
    if &got != expected {
        return Err(corrupt(data, format!("hashes to {got}")).into());
    }
    Ok(())
}

/// Reads the object back and checks its size and hash.
async fn verify(
    objects: &DataStore,
    data: &DataRef,
    expected: &ContentHash,
    location: &str,
) -> Result<(), ObjectError> {
    let path = objects.located(&data.content_hash, location);
    let got = objects
        .hash(&path, data.size.max(0) as u64, expected.scheme())
        .await?;
    if &got != expected {
        return Err(ObjectError::Corrupt(format!(
            "{path} read back hashes to {got}, not {expected}"
        )));
    }
    Ok(())
}

impl Db {
    /// Up to [`BATCH`] contents after `after` (by hash) whose bytes are in the database and
    /// larger than `inline_limit`.
    async fn in_database(
        &self,
        after: &str,
        inline_limit: u64,
    ) -> Result<Vec<DataRef>, sqlx::Error> {
        let rowid = match self {
            Db::Sqlite(..) => "rowid",
            Db::Postgres(_) => "CAST(NULL AS BIGINT)",
        };
        let sql = format!(
            "SELECT hash, media_type, CAST(length(data) AS BIGINT) AS size, {rowid} AS rowid FROM contents \
             WHERE location IS NULL AND hash > $1 AND length(data) > $2 ORDER BY hash LIMIT $3"
        );
        let limit = i64::try_from(inline_limit).unwrap_or(i64::MAX);
        on_pool!(self, pool => {
            let rows = sqlx::query(&sql).bind(after).bind(limit).bind(BATCH).fetch_all(pool).await?;
            rows.iter()
                .map(|row| {
                    Ok(DataRef::in_database(
                        row.try_get("media_type")?,
                        row.try_get("size")?,
                        row.try_get("hash")?,
                        row.try_get("rowid")?,
                    ))
                })
                .collect()
        })
    }

    /// Names the object at `location` in the row of `hash`, ending its upload, under the
    /// content's lock; false if the row named an object already (another run's).
    async fn relocate(&self, hash: &str, location: &Location) -> Result<bool, StoreError> {
        let moved = super::write_locked!(self, StoreError, lock(tx) => super::uploads::lock_content(tx, hash), conn => {
            let ended = sqlx::query("DELETE FROM data_uploads WHERE id = $1")
                .bind(&location.upload)
                .execute(&mut *conn)
                .await?;
            if ended.rows_affected() == 0 {
                // Older than gc's grace: gc may have deleted the object; a later run copies
                // the content again.
                return Err(ObjectError::Unavailable(format!(
                    "the upload of {hash} outlived gc's grace period; run move-data again"
                ))
                .into());
            }
            let named = sqlx::query("UPDATE contents SET location = $2 WHERE hash = $1 AND location IS NULL")
                .bind(hash)
                .bind(&location.path)
                .execute(&mut *conn)
                .await?;
            Ok(named.rows_affected() == 1)
        })?;
        Ok(moved)
    }

    async fn count_inline(&self) -> Result<u64, sqlx::Error> {
        on_pool!(self, pool => {
            let n: i64 = sqlx::query_scalar("SELECT count(*) FROM contents WHERE location IS NULL")
                .fetch_one(pool)
                .await?;
            Ok(n as u64)
        })
    }

    async fn copies_to_drop(&self) -> Result<u64, sqlx::Error> {
        on_pool!(self, pool => {
            let n: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM contents WHERE location IS NOT NULL AND length(data) > 0",
            )
            .fetch_one(pool)
            .await?;
            Ok(n as u64)
        })
    }

    /// Empties the database's copy of every content whose row names an object, a batch
    /// per transaction (so that registrations are not held up behind one long write).
    async fn drop_copies(&self) -> Result<u64, sqlx::Error> {
        let mut dropped = 0;
        loop {
            let done = super::on_writer!(self, pool => {
                sqlx::query(
                    "UPDATE contents SET data = $1 WHERE hash IN (SELECT hash FROM contents \
                     WHERE location IS NOT NULL AND length(data) > 0 LIMIT $2)",
                )
                .bind(Vec::<u8>::new())
                .bind(BATCH)
                .execute(pool)
                .await?
                .rows_affected()
            });
            if done == 0 {
                return Ok(dropped);
            }
            dropped += done;
        }
    }
}
