//! Large revision data streamed into the object store before its hash is known: a
//! multipart upload to a staging name (`PREFIX/staging/<id>`), checked against the
//! multipart ETag of the bytes sent, then copied to the content's name once the hash is
//! known. Memory per upload: the parts in flight ([`PART`] × [`PARTS_IN_FLIGHT`]).

use bytes::Bytes;
use md5::{Digest, Md5};
use object_store::path::Path;
use object_store::{ObjectStoreExt, WriteMultipart};

use super::objects::{hex, DataStore, ObjectError};

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
    /// The MD5 of the part being filled, and of each part sent (the multipart ETag).
    part: Md5,
    part_len: usize,
    part_digests: Vec<u8>,
    parts: usize,
    size: u64,
}

/// A complete staged upload, checked: `size` bytes at `path`.
#[derive(Debug)]
pub struct Staged {
    pub path: Path,
    pub size: u64,
}

impl DataStore {
    /// Starts a multipart upload to a fresh staging name.
    pub async fn stage(&self) -> Result<Staging, ObjectError> {
        let path = self
            .prefix()
            .clone()
            .join(STAGING)
            .join(super::uploads::unique_id());
        let upload = self
            .inner()
            .put_multipart(&path)
            .await
            .map_err(|e| self.unavailable(&path, e))?;
        Ok(Staging {
            writer: WriteMultipart::new_with_chunk_size(upload, PART),
            path,
            part: Md5::new(),
            part_len: 0,
            part_digests: Vec::new(),
            parts: 0,
            size: 0,
        })
    }

    /// Moves a staged upload to the name of `content_hash` (unless an object of its size is
    /// there already), checks the result's size, and deletes the staged copy.
    pub async fn place(&self, staged: &Staged, content_hash: &str) -> Result<(), ObjectError> {
        let path = self.path(content_hash);
        let there = match self.inner().head(&path).await {
            Ok(meta) => meta.size == staged.size,
            Err(object_store::Error::NotFound { .. }) => false,
            Err(e) => return Err(self.unavailable(&path, e)),
        };
        if !there {
            self.inner()
                .copy(&staged.path, &path)
                .await
                .map_err(|e| self.unavailable(&path, e))?;
            let meta = self
                .inner()
                .head(&path)
                .await
                .map_err(|e| self.unavailable(&path, e))?;
            if meta.size != staged.size {
                return Err(ObjectError::Unavailable(format!(
                    "{path}: the copy of {} is {} bytes, not {}",
                    staged.path, meta.size, staged.size
                )));
            }
        }
        self.delete(&staged.path).await
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
    /// encrypted object's) is left unchecked: the size is checked when it is placed.
    pub async fn finish(mut self, store: &DataStore) -> Result<Staged, ObjectError> {
        if self.part_len > 0 {
            self.end_part();
        }
        let expected = format!("{}-{}", hex(&Md5::digest(&self.part_digests)), self.parts);
        let done = self
            .writer
            .finish()
            .await
            .map_err(|e| store.unavailable(&self.path, e))?;
        if let Some(tag) = done.e_tag.as_deref() {
            let tag = tag.trim_start_matches("W/").trim_matches('"');
            if tag.contains('-') && tag != expected {
                let _ = store.delete(&self.path).await;
                return Err(ObjectError::Unavailable(format!(
                    "{}: the store's ETag {tag} is not the one of the bytes sent ({expected})",
                    self.path
                )));
            }
        }
        Ok(Staged {
            path: self.path,
            size: self.size,
        })
    }

    /// Gives the upload up (its parts are deleted).
    pub async fn abort(self) {
        let _ = self.writer.abort().await;
    }
}
