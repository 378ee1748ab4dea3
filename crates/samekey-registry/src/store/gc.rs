//! Garbage collection of the object store: objects that no content row names, older than
//! a grace period, with no upload of them in flight, are deleted. Each deletion is
//! announced in the database first, under the content's lock ([`super::uploads`]), so a
//! registration of the same content either keeps the object or writes it anew; it never
//! commits a row that names a deleted object.

use std::time::Duration;

use futures_util::StreamExt;

use super::objects::{DataStore, ObjectError};
use super::uploads::Verdict;
use super::{now_ms, Db, StoreError};

/// How long one object's DELETE may take: half an announced deletion's lease.
const DELETE_TIMEOUT: Duration =
    Duration::from_millis(super::uploads::DELETION_LEASE_MS as u64 / 2);

/// What one gc pass found and did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct GcReport {
    /// Objects under the prefix.
    pub listed: u64,
    /// Not contents of this registry (other names under the prefix): left alone.
    pub foreign: u64,
    /// Written within the grace period: left alone.
    pub young: u64,
    /// Named by a content row.
    pub named: u64,
    /// An upload of them is in flight, or another gc pass is deleting them.
    pub busy: u64,
    pub deleted: u64,
}

/// One pass over every object under the store's prefix. An object is deleted only when
/// it was last written more than `grace` ago and the database, under the content's lock,
/// says no row names it and no upload of it younger than `grace` is in flight.
pub async fn collect(
    db: &Db,
    objects: &DataStore,
    grace: Duration,
) -> Result<GcReport, StoreError> {
    let grace_ms = i64::try_from(grace.as_millis()).unwrap_or(i64::MAX);
    let pass = super::uploads::unique_id();
    let mut report = GcReport::default();
    let mut listing = objects.list();
    while let Some(meta) = listing.next().await {
        let meta =
            meta.map_err(|e| ObjectError::Unavailable(format!("listing {}: {e}", objects.url())))?;
        report.listed += 1;
        // A content's object is named by its hash, or (a large upload's) by a staging
        // name its content row records: either is the key its uploads and deletions are
        // announced under.
        let key = if objects.is_staged(&meta.location) {
            meta.location.to_string()
        } else if let Some(hash) = objects.hash_of(&meta.location) {
            hash
        } else {
            report.foreign += 1;
            continue;
        };
        if now_ms() - meta.last_modified.timestamp_millis() < grace_ms {
            report.young += 1;
            continue;
        }
        match db.begin_deletion(&key, grace_ms, &pass).await? {
            Verdict::Named => report.named += 1,
            Verdict::Uploading | Verdict::Deleting => report.busy += 1,
            Verdict::Delete => {
                // The delete ends well within the deletion's lease, after which an upload
                // takes the content over (the model's one timing assumption). A delete
                // that fails or times out leaves the deletion announced: uploads of this
                // content wait out its lease, then go ahead.
                tokio::time::timeout(DELETE_TIMEOUT, objects.delete(&meta.location))
                    .await
                    .map_err(|_| {
                        ObjectError::Unavailable(format!(
                            "deleting {} took over {DELETE_TIMEOUT:?}",
                            meta.location
                        ))
                    })??;
                db.end_deletion(&key, &pass).await?;
                report.deleted += 1;
            }
        }
    }
    Ok(report)
}
