//! Large revision data streamed into the object store before its hash is known: a
//! multipart upload to a name of its own (`PREFIX/staging/<id>`), announced in the
//! database before it starts (so gc leaves it alone until its row commits or the upload
//! expires), checked against the multipart ETag of the bytes sent, and named by its
//! content row as it is: no copy. Memory per upload: the parts in flight ([`PART`] ×
//! [`PARTS_IN_FLIGHT`]).

use bytes::Bytes;
use md5::{Digest, Md5};
use object_store::path::Path;
use object_store::{ObjectStoreExt, WriteMultipart};

use super::objects::{hex, DataStore, ObjectError};
use super::Db;
use super::StoreError;

/// One part of a multipart upload.
pub const PART: usize = 8 * 1024 * 1024;

/// Parts uploaded at once; a body that arrives faster waits for them.
const PARTS_IN_FLIGHT: usize = 4;

/// The folder of staged uploads under the prefix (gc deletes old ones).
pub const STAGING: &str = "staging";

/// A multipart upload being written.
pub struct Staging {
    writer: WriteMultipart,
    path: Path,
    /// The upload announced for `path` ([`Db::begin_upload`]).
    upload: String,
    /// The MD5 of the part being filled, and of each part sent (the multipart ETag).
    part: Md5,
    part_len: usize,
    part_digests: Vec<u8>,
    parts: usize,
    size: u64,
}

/// A complete staged upload, checked: `size` bytes at `path`, under the announced
/// upload `upload`, which its commit ends.
#[derive(Debug)]
pub struct Staged {
    pub path: Path,
    pub size: u64,
    pub upload: String,
}

impl DataStore {
    /// Announces an upload to a fresh staging name, then starts it.
    pub async fn stage(&self, db: &Db) -> Result<Staging, StoreError> {
        let path = self
            .prefix()
            .clone()
            .join(STAGING)
            .join(super::uploads::unique_id());
        let upload = db
            .begin_upload(path.as_ref())
            .await?
            .ok_or_else(|| ObjectError::Unavailable(format!("{path} is being deleted")))?;
        let multipart = match self.inner().put_multipart(&path).await {
            Ok(multipart) => multipart,
            Err(e) => {
                let _ = db.abandon_upload(&upload).await;
                return Err(self.unavailable(&path, e).into());
            }
        };
        Ok(Staging {
            writer: WriteMultipart::new_with_chunk_size(multipart, PART),
            path,
            upload,
            part: Md5::new(),
            part_len: 0,
            part_digests: Vec::new(),
            parts: 0,
            size: 0,
        })
    }

    /// Whether `path` is a staged upload (gc deletes those older than its grace).
    pub fn is_staged(&self, path: &Path) -> bool {
        path.prefix_match(&self.prefix().clone().join(STAGING))
            .is_some_and(|mut rest| rest.next().is_some())
    }
}

impl Staging {
    /// Sends `bytes` on, waiting while [`PARTS_IN_FLIGHT`] parts are being uploaded.
    pub async fn write(&mut self, store: &DataStore, mut bytes: Bytes) -> Result<(), ObjectError> {
        self.writer
            .wait_for_capacity(PARTS_IN_FLIGHT)
            .await
            .map_err(|e| store.unavailable(&self.path, e))?;
        self.size += bytes.len() as u64;
        // The writer cuts parts every PART bytes: follow its cuts for the ETag.
        while !bytes.is_empty() {
            let n = bytes.len().min(PART - self.part_len);
            let piece = bytes.split_to(n);
            self.part.update(&piece);
            self.part_len += n;
            if self.part_len == PART {
                self.end_part();
            }
            self.writer.put(piece);
        }
        Ok(())
    }

    fn end_part(&mut self) {
        let part = std::mem::replace(&mut self.part, Md5::new());
        self.part_digests.extend_from_slice(&part.finalize());
        self.part_len = 0;
        self.parts += 1;
    }

    /// Completes the upload and checks the store's multipart ETag (the MD5 of the parts'
    /// MD5s, and their count) against the bytes sent; an ETag of another form (an
    /// encrypted object's) is left unchecked, and so are stores that answer none. A
    /// failed upload is abandoned (gc deletes what it left).
    pub async fn finish(mut self, store: &DataStore, db: &Db) -> Result<Staged, ObjectError> {
        if self.part_len > 0 {
            self.end_part();
        }
        let expected = format!("{}-{}", hex(&Md5::digest(&self.part_digests)), self.parts);
        let checked = match self.writer.finish().await {
            Err(e) => Err(store.unavailable(&self.path, e)),
            Ok(done) => match done.e_tag.as_deref() {
                Some(tag) => {
                    let tag = tag.trim_start_matches("W/").trim_matches('"');
                    if tag.contains('-') && tag != expected {
                        Err(ObjectError::Unavailable(format!(
                            "{}: the store's ETag {tag} is not the one of the bytes sent ({expected})",
                            self.path
                        )))
                    } else {
                        Ok(())
                    }
                }
                None => Ok(()),
            },
        };
        if let Err(e) = checked {
            let _ = db.abandon_upload(&self.upload).await;
            return Err(e);
        }
        Ok(Staged {
            path: self.path,
            size: self.size,
            upload: self.upload,
        })
    }

    /// Gives the upload up (its parts are deleted, its announcement ended).
    pub async fn abort(self, db: &Db) {
        let _ = self.writer.abort().await;
        let _ = db.abandon_upload(&self.upload).await;
    }
}
