//! Revision data in S3-compatible object storage (`--data-store s3://BUCKET/PREFIX`): one
//! object per content hash, `PREFIX/sha256/<hex>` or `PREFIX/blake3/<hex>`, so two
//! revisions of the same data share it. The database still holds every revision and
//! content row; a content row whose `location` is `object` names the object by its hash.
//!
//! The order of writes across the two systems (see [`crate::store::uploads`]): an upload
//! is announced in the database, the object written and checked, then the rows committed.
//! So no committed row names missing or other bytes, and gc never deletes an object that
//! a registration in flight is about to name.

use std::sync::Arc;

use bytes::Bytes;
use futures_util::stream::BoxStream;
use futures_util::StreamExt;
use md5::{Digest, Md5};
use object_store::aws::AmazonS3Builder;
use object_store::path::Path;
use object_store::{ObjectMeta, ObjectStore, ObjectStoreExt, PutPayload};

/// What `--data-store` names.
#[derive(Debug, Clone)]
pub struct DataStore {
    store: Arc<dyn ObjectStore>,
    prefix: Path,
    url: String,
}

/// Why the object store could not do what was asked.
#[derive(Debug)]
pub enum ObjectError {
    /// The store did not answer, refused, or took other bytes than were sent: the request
    /// may be retried.
    Unavailable(String),
    /// An object a committed row names is missing, or is not the bytes its hash names
    /// (deleted or altered behind the registry's back): a retry will not help.
    Corrupt(String),
}

impl std::fmt::Display for ObjectError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ObjectError::Unavailable(why) | ObjectError::Corrupt(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for ObjectError {}

impl DataStore {
    /// `s3://BUCKET/PREFIX`. The endpoint, region, addressing style and credentials come
    /// from the standard variables (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_ALLOW_HTTP`,
    /// `AWS_VIRTUAL_HOSTED_STYLE_REQUEST`), as the AWS tools read them.
    pub fn open(url: &str) -> Result<DataStore, String> {
        DataStore::open_with(url, &[])
    }

    /// As [`DataStore::open`], with these `AWS_*` variables over the process's own (a
    /// test's cluster, an embedding program's settings).
    pub fn open_with(url: &str, vars: &[(&str, &str)]) -> Result<DataStore, String> {
        let rest = url.strip_prefix("s3://").ok_or_else(|| {
            format!("--data-store {url:?}: write `database` or s3://BUCKET/PREFIX")
        })?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        if bucket.is_empty() {
            return Err(format!("--data-store {url:?} names no bucket"));
        }
        // The object store's HTTPS uses the process's rustls provider: ring, as the
        // server's own TLS. A second install (another server in this process) is refused
        // harmlessly. ring: deprecated by rustls for lacking post-quantum key exchange, see
        // http/tls.rs.
        #[allow(deprecated)]
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut builder = AmazonS3Builder::from_env();
        for (name, value) in vars {
            let key = name
                .to_ascii_lowercase()
                .parse()
                .map_err(|e| format!("{name}: {e}"))?;
            builder = builder.with_config(key, *value);
        }
        let store = builder
            .with_bucket_name(bucket)
            .build()
            .map_err(|e| format!("--data-store {url}: {e}"))?;
        Ok(DataStore {
            store: Arc::new(store),
            prefix: Path::from(prefix.trim_matches('/')),
            url: url.to_string(),
        })
    }

    /// One request, which the server makes at start so that a wrong endpoint, bucket or
    /// credential stops it at once instead of failing every registration.
    pub async fn check(&self) -> Result<(), ObjectError> {
        let probe = self.prefix.clone().join(".samekey-probe");
        match self.store.head(&probe).await {
            Ok(_) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(ObjectError::Unavailable(format!(
                "--data-store {}: the object store cannot be used ({e})",
                self.url
            ))),
        }
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// `PREFIX/sha256/<hex>` for `sha256:<hex>`.
    pub fn path(&self, content_hash: &str) -> Path {
        let (algorithm, hex) = content_hash.split_once(':').unwrap_or(("", content_hash));
        self.prefix.clone().join(algorithm).join(hex)
    }

    /// The content hash an object's path names, or `None` for an object that is not a
    /// content of this registry (gc leaves those alone).
    pub fn hash_of(&self, path: &Path) -> Option<String> {
        let mut parts = path.prefix_match(&self.prefix)?;
        let algorithm = parts.next()?;
        let hex = parts.next()?;
        if parts.next().is_some() {
            return None;
        }
        let text = format!("{}:{}", algorithm.as_ref(), hex.as_ref());
        text.parse::<samekey::ContentHash>().ok().map(|_| text)
    }

    /// Makes the object of `content_hash` hold `data`; whether anything was written. An
    /// object already there with the same size (and, where its ETag is an MD5, the same
    /// MD5) is left as it is. A written object's ETag is checked against the MD5 of the
    /// bytes sent; where the store's ETag is not an MD5, the object is read back.
    pub async fn put(&self, content_hash: &str, data: Bytes) -> Result<bool, ObjectError> {
        let path = self.path(content_hash);
        let md5 = hex(&Md5::digest(&data));
        match self.store.head(&path).await {
            Ok(meta)
                if meta.size == data.len() as u64
                    && md5_matches(meta.e_tag.as_deref(), &md5) != Some(false) =>
            {
                return Ok(false)
            }
            Ok(_) | Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => return Err(self.unavailable(&path, e)),
        }
        let put = self
            .store
            .put(&path, PutPayload::from_bytes(data.clone()))
            .await
            .map_err(|e| self.unavailable(&path, e))?;
        match md5_matches(put.e_tag.as_deref(), &md5) {
            Some(true) => Ok(true),
            Some(false) => Err(ObjectError::Unavailable(format!(
                "{path}: the store's ETag {:?} is not the MD5 of the bytes sent ({md5})",
                put.e_tag.unwrap_or_default()
            ))),
            None => {
                let back = self
                    .store
                    .get(&path)
                    .await
                    .map_err(|e| self.unavailable(&path, e))?
                    .bytes()
                    .await
                    .map_err(|e| self.unavailable(&path, e))?;
                if back != data {
                    return Err(ObjectError::Unavailable(format!(
                        "{path}: the store holds other bytes than were sent"
                    )));
                }
                Ok(true)
            }
        }
    }

    /// The object of `content_hash` stored at `location` (`contents.location`).
    pub fn located(&self, content_hash: &str, location: &str) -> Path {
        if location == super::data::BY_HASH {
            self.path(content_hash)
        } else {
            Path::from(location)
        }
    }

    /// The bytes of the object at `path` as they arrive, once the store has said that it
    /// exists and is `size` bytes long. The caller checks the hash as they stream.
    pub async fn get(
        &self,
        path: &Path,
        size: u64,
    ) -> Result<BoxStream<'static, object_store::Result<Bytes>>, ObjectError> {
        let path = path.clone();
        let got = self.store.get(&path).await.map_err(|e| match e {
            object_store::Error::NotFound { .. } => {
                ObjectError::Corrupt(format!("the object {path} is missing from {}", self.url))
            }
            e => self.unavailable(&path, e),
        })?;
        if got.meta.size != size {
            return Err(ObjectError::Corrupt(format!(
                "the object {path} is {} bytes, its revision says {size}",
                got.meta.size
            )));
        }
        Ok(got.into_stream())
    }

    /// The content hash under `scheme` of the object at `path`, which must be `size` bytes
    /// long (read through, in bounded memory).
    pub async fn hash(
        &self,
        path: &Path,
        size: u64,
        scheme: samekey::Scheme,
    ) -> Result<samekey::ContentHash, ObjectError> {
        let mut hasher = samekey::ContentHasher::new(scheme)
            .map_err(|e| ObjectError::Corrupt(format!("{path}: {e}")))?;
        let mut stream = self.get(path, size).await?;
        while let Some(piece) = stream.next().await {
            let piece = piece.map_err(|e| self.unavailable(path, e))?;
            hasher.update(&piece);
        }
        Ok(hasher.finalize())
    }

    /// Every object under the prefix (gc's candidates).
    pub fn list(&self) -> BoxStream<'static, object_store::Result<ObjectMeta>> {
        self.store.list(Some(&self.prefix))
    }

    /// Deletes `path`; one already gone is no error.
    pub async fn delete(&self, path: &Path) -> Result<(), ObjectError> {
        match self.store.delete(path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(self.unavailable(path, e)),
        }
    }

    pub(super) fn prefix(&self) -> &Path {
        &self.prefix
    }

    pub(super) fn inner(&self) -> &Arc<dyn ObjectStore> {
        &self.store
    }

    pub(super) fn unavailable(&self, path: &Path, e: object_store::Error) -> ObjectError {
        ObjectError::Unavailable(format!("{path} in {}: {e}", self.url))
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether an ETag is the MD5 `md5`; `None` when it is not an MD5 at all (a multipart
/// upload's `<md5>-<parts>`, an encrypted object's, another store's own form).
fn md5_matches(e_tag: Option<&str>, md5: &str) -> Option<bool> {
    let tag = e_tag?.trim_start_matches("W/").trim_matches('"');
    if tag.len() != 32 || !tag.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    Some(tag.eq_ignore_ascii_case(md5))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(url: &str) -> DataStore {
        DataStore::open(url).unwrap()
    }

    #[test]
    fn objects_are_named_by_their_hash_under_the_prefix() {
        let s = store("s3://bucket/some/prefix");
        let hash = format!("sha256:{}", "ab".repeat(32));
        let path = s.path(&hash);
        assert_eq!(
            path.as_ref(),
            format!("some/prefix/sha256/{}", "ab".repeat(32))
        );
        assert_eq!(s.hash_of(&path), Some(hash));
        for other in [
            "some/prefix/sha256/xyz",
            "some/prefix/md5/0123",
            "elsewhere/sha256/abab",
            "some/prefix/sha256",
        ] {
            assert_eq!(s.hash_of(&Path::from(other)), None, "{other}");
        }
        let root = store("s3://bucket");
        let blake = format!("blake3:{}", "0f".repeat(32));
        assert_eq!(root.hash_of(&root.path(&blake)), Some(blake));
    }

    #[test]
    fn a_data_store_url_names_a_bucket() {
        for bad in ["database2", "file:///tmp", "s3://", "s3:///prefix"] {
            assert!(DataStore::open(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn etags_are_compared_only_when_they_are_md5s() {
        let md5 = hex(&Md5::digest(b"abc"));
        assert_eq!(md5_matches(Some(&format!("\"{md5}\"")), &md5), Some(true));
        let other = hex(&Md5::digest(b"abd"));
        assert_eq!(
            md5_matches(Some(&format!("\"{other}\"")), &md5),
            Some(false)
        );
        assert_eq!(md5_matches(Some(&format!("\"{md5}-3\"")), &md5), None);
        assert_eq!(md5_matches(None, &md5), None);
    }
}
