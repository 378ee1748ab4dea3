//! What a registration does, apart from HTTP: the payload's stored bytes and its revision
//! key under each scheme of the key ring (the primary first), then finding or storing it.

use std::sync::Arc;

use samekey::{canonicalize_json_text, derive_revision, ContentHash, KeyRing, RevisionKey};
use tokio::sync::Semaphore;

use crate::api::error::ApiError;
use crate::metrics::Metrics;
use crate::store::objects::DataStore;
use crate::store::staged::Staged;
use crate::store::{Content, Db, Insert, Revision};

pub const JSON: &str = "application/json";
pub const OCTET_STREAM: &str = "application/octet-stream";

/// Bodies up to this size are canonicalized and hashed on the async worker that read
/// them (well under a millisecond); larger ones go to a blocking thread.
const INLINE_BYTES: usize = 64 * 1024;

/// Registrations in flight at once, counted so that shutdown can wait for them.
const MAX_TRACKED: u32 = 1 << 20;

/// What a registration stores.
#[derive(Debug)]
pub enum Payload {
    /// The JCS form of a JSON payload, or the raw bytes.
    Bytes(Vec<u8>),
    /// Raw bytes already streamed into the object store under a staging name.
    Staged(Staged),
}

impl Payload {
    pub fn len(&self) -> u64 {
        match self {
            Payload::Bytes(b) => b.len() as u64,
            Payload::Staged(s) => s.size,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a request hands the registrar once its body is read.
pub enum Input {
    /// A whole body of this media type.
    Body(&'static str, Vec<u8>),
    /// A large octet-stream body streamed into the object store, with its content hash
    /// under every scheme of the ring (primary first).
    Staged(Staged, Vec<ContentHash>),
}

/// The registration a request asks for.
#[derive(Debug)]
pub struct Registration {
    pub data: Payload,
    pub media_type: &'static str,
    pub parent: Option<String>,
    /// (scheme, content hash, revision key) under every accepted scheme, primary first.
    pub candidates: Vec<Candidate>,
}

#[derive(Debug)]
pub struct Candidate {
    pub scheme: String,
    pub content_hash: String,
    pub key: String,
}

/// `application/json` (any parameters, e.g. charset=utf-8) or `application/octet-stream`.
pub fn media_type(content_type: Option<&str>) -> Option<&'static str> {
    let essence = content_type?.split(';').next()?.trim();
    if essence.eq_ignore_ascii_case(JSON) {
        Some(JSON)
    } else if essence.eq_ignore_ascii_case(OCTET_STREAM) {
        Some(OCTET_STREAM)
    } else {
        None
    }
}

/// A parent must be a revision key of an accepted scheme.
pub fn parse_parent(ring: &KeyRing, parent: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(parent) = parent else {
        return Ok(None);
    };
    let key: RevisionKey = parent.parse()?;
    ring.scheme_of_key(parent)?;
    Ok(Some(key.to_string()))
}

/// Canonicalizes and keys a payload. Takes the body by value so that it is freed as soon
/// as its canonical form exists (and raw bytes are stored without a copy).
pub fn registration(
    ring: &KeyRing,
    media_type: &'static str,
    body: Vec<u8>,
    parent: Option<String>,
) -> Result<Registration, ApiError> {
    let data = if media_type == JSON {
        let text = samekey::text::from_utf8(&body)?;
        canonicalize_json_text(text)?.into_bytes()
    } else {
        body
    };
    let candidates = candidates(ring.content_hashes(&data)?, parent.as_deref())?;
    Ok(Registration {
        data: Payload::Bytes(data),
        media_type,
        parent,
        candidates,
    })
}

/// The revision key of each content hash on `parent`.
fn candidates(hashes: Vec<ContentHash>, parent: Option<&str>) -> Result<Vec<Candidate>, ApiError> {
    let mut out = Vec::new();
    for hash in hashes {
        let key = derive_revision(hash.scheme(), parent, &hash, None)?;
        out.push(Candidate {
            scheme: hash.scheme().to_string(),
            content_hash: hash.to_string(),
            key: key.to_string(),
        });
    }
    Ok(out)
}

/// Registers payloads: the CPU work within a bound, the database work to its end.
pub struct Registrar {
    pub db: Db,
    /// Where revision data goes when not into the database (`--data-store s3://...`).
    pub objects: Option<DataStore>,
    /// Data of at most this many bytes stays in the database all the same.
    inline_limit: u64,
    pub ring: KeyRing,
    metrics: Arc<Metrics>,
    /// Permits for canonicalizing and hashing large bodies at once.
    /// `--cpu-jobs` permits: large bodies hashed, and revision data read, at once.
    pub(crate) cpu: Arc<Semaphore>,
    /// One permit held by every registration in flight.
    tracked: Arc<Semaphore>,
}

impl Registrar {
    pub fn new(
        db: Db,
        objects: Option<(DataStore, u64)>,
        ring: KeyRing,
        metrics: Arc<Metrics>,
        cpu_jobs: usize,
    ) -> Self {
        let (objects, inline_limit) = match objects {
            Some((store, limit)) => (Some(store), limit),
            None => (None, 0),
        };
        Registrar {
            db,
            objects,
            inline_limit,
            ring,
            metrics,
            cpu: Arc::new(Semaphore::new(cpu_jobs)),
            tracked: Arc::new(Semaphore::new(MAX_TRACKED as usize)),
        }
    }

    /// Registers `input` as a revision of `parent`; the stored revision and whether this
    /// call created it. Runs as a task of its own: once the body is read, the client
    /// leaving does not cancel it, so its retry finds the revision.
    pub async fn register(
        self: &Arc<Self>,
        input: Input,
        parent: Option<String>,
    ) -> Result<(Revision, bool), ApiError> {
        let this = self.clone();
        // No await between the body's last byte and the spawn: nothing can cancel it here.
        let tracked =
            self.tracked.clone().try_acquire_owned().map_err(|e| {
                ApiError::Internal(format!("too many registrations in flight: {e}"))
            })?;
        let task = tokio::spawn(async move {
            // A parent named by any of its keys is one parent: the child's keys are derived
            // over the key the parent was created under, whichever ring answers.
            let parent = match parent {
                Some(given) => Some(
                    this.db
                        .created_key(&given)
                        .await?
                        .ok_or(ApiError::UnknownParent(given))?,
                ),
                None => None,
            };
            let r = match input {
                Input::Body(media_type, body) => this.prepare(media_type, body, parent).await,
                Input::Staged(staged, hashes) => match candidates(hashes, parent.as_deref()) {
                    Ok(candidates) => Ok(Registration {
                        data: Payload::Staged(staged),
                        media_type: OCTET_STREAM,
                        parent,
                        candidates,
                    }),
                    Err(e) => {
                        this.discard(Payload::Staged(staged)).await;
                        Err(e)
                    }
                },
            }?;
            let stored = this.store(r).await;
            drop(tracked);
            stored
        });
        let (revision, created) = task
            .await
            .map_err(|e| ApiError::Internal(format!("registration task failed: {e}")))??;
        self.metrics.registered(created);
        Ok((revision, created))
    }

    /// Resolves when no registration is in flight.
    pub async fn finished(&self) {
        let _ = self.tracked.acquire_many(MAX_TRACKED).await;
    }

    async fn prepare(
        self: &Arc<Self>,
        media_type: &'static str,
        body: Vec<u8>,
        parent: Option<String>,
    ) -> Result<Registration, ApiError> {
        if body.len() <= INLINE_BYTES {
            return registration(&self.ring, media_type, body, parent);
        }
        // Large JSON takes milliseconds to seconds: off the async workers, a bounded
        // number at once, so reads and small writes keep flowing (and memory stays bounded).
        let permit = self
            .cpu
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let this = self.clone();
        tokio::task::spawn_blocking(move || {
            let r = registration(&this.ring, media_type, body, parent);
            drop(permit);
            r
        })
        .await
        .map_err(|e| ApiError::Internal(format!("hashing task failed: {e}")))?
    }

    /// Stores the revision under the primary scheme, recorded under its key in every
    /// scheme of the ring; the database answers with the existing revision when one holds
    /// any of those keys (one created by a process of another ring included).
    async fn store(&self, r: Registration) -> Result<(Revision, bool), ApiError> {
        let primary = &r.candidates[0];
        let revision = Revision {
            key: primary.key.clone(),
            parent: r.parent.clone(),
            scheme: primary.scheme.clone(),
            content_hash: primary.content_hash.clone(),
            media_type: r.media_type.to_string(),
            size: r.data.len() as i64,
            created_at_ms: crate::store::now_ms(),
        };
        let keys = crate::store::schema::SCHEMES.map(|s| {
            r.candidates
                .iter()
                .find(|c| c.scheme == s.as_str())
                .map(|c| c.key.as_str())
        });
        let content = match (&self.objects, r.data) {
            (None, Payload::Bytes(data)) => Content::Bytes(data),
            (Some(_), Payload::Bytes(data)) if data.len() as u64 <= self.inline_limit => {
                Content::Bytes(data)
            }
            (None, Payload::Staged(_)) => {
                return Err(ApiError::Internal(
                    "a staged upload with no object store".into(),
                ))
            }
            (Some(objects), data) => {
                // What exists needs no upload (nor writes an object).
                let existing = match self.db.find(keys).await {
                    Ok(found) => found,
                    Err(e) => {
                        self.discard(data).await;
                        return Err(e.into());
                    }
                };
                if let Some(existing) = existing {
                    self.discard(data).await;
                    return Ok((existing, false));
                }
                match data {
                    // Written under its own announced upload before its hash was known.
                    Payload::Staged(staged) => Content::Object {
                        upload: staged.upload,
                        at: Some(staged.path.to_string()),
                    },
                    Payload::Bytes(data) => Content::Object {
                        upload: self
                            .db
                            .upload(objects, &revision.content_hash, data.into())
                            .await?,
                        at: None,
                    },
                }
            }
        };
        match self.db.insert(&revision, keys, content).await {
            Ok(Insert::Stored(stored, created)) => Ok((stored, created)),
            Ok(Insert::UnknownParent) => Err(ApiError::UnknownParent(r.parent.unwrap_or_default())),
            Ok(Insert::UploadExpired) => Err(ApiError::DataStore(format!(
                "the upload of {} outlived gc's grace period; nothing was committed",
                revision.content_hash
            ))),
            // The database moved past this ring (a rollout step ran after this process
            // started): it may still answer what exists, and must not create anything.
            Err(e) if crate::store::is_scheme_refusal(&e) => match self.db.find(keys).await? {
                Some(existing) => Ok((existing, false)),
                None => Err(ApiError::SchemeRequired(self.ring_names())),
            },
            Err(e) => Err(e.into()),
        }
    }

    /// Gives up a staged upload that no row will name: its object deleted, its
    /// announcement ended (gc would delete it after its grace otherwise).
    async fn discard(&self, data: Payload) {
        if let (Payload::Staged(staged), Some(objects)) = (data, &self.objects) {
            let _ = objects.delete(&staged.path).await;
            let _ = self.db.abandon_upload(&staged.upload).await;
        }
    }

    /// The ring's schemes, primary first, as the logs and problems name them.
    pub fn ring_names(&self) -> String {
        self.ring
            .accepted()
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use samekey::Scheme;

    #[test]
    fn json_is_stored_canonical_and_keyed_under_every_scheme_primary_first() {
        let ring = KeyRing::new(Scheme::V2, &[Scheme::V1]).unwrap();
        let json = |s: &str| s.as_bytes().to_vec();
        let r = registration(&ring, JSON, json(r#"{"b": 1.0, "a": [true]}"#), None).unwrap();
        assert!(matches!(&r.data, Payload::Bytes(b) if b == br#"{"a":[true],"b":1}"#));
        let schemes: Vec<_> = r.candidates.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, ["v2", "v1"]);
        let again = registration(&ring, JSON, json(r#"{"a":[true],"b":1}"#), None).unwrap();
        assert_eq!(r.candidates[0].key, again.candidates[0].key);
        let child = registration(
            &ring,
            JSON,
            json(r#"{"a":[true],"b":1}"#),
            Some(r.candidates[0].key.clone()),
        )
        .unwrap();
        assert_ne!(child.candidates[0].key, r.candidates[0].key);
    }

    #[test]
    fn bad_inputs_carry_the_core_codes() {
        let ring = KeyRing::new(Scheme::V1, &[]).unwrap();
        let code = |body: &[u8]| {
            registration(&ring, JSON, body.to_vec(), None)
                .unwrap_err()
                .code()
        };
        assert_eq!(code(b"{\"a\":"), "invalid_json");
        assert_eq!(code(b"\xff"), "invalid_string");
        assert_eq!(
            parse_parent(&ring, Some("rev:v1:zz")).unwrap_err().code(),
            "invalid_key"
        );
        assert_eq!(
            media_type(Some("application/json; charset=utf-8")),
            Some(JSON)
        );
        assert_eq!(media_type(Some("text/plain")), None);
        assert_eq!(media_type(None), None);
    }
}
