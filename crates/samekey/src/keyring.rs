//! A key ring: derive under one primary scheme while still recognising keys made under
//! the others, so a scheme change needs no flag day (spec §9).

use alloc::string::String;
use alloc::vec::Vec;

use crate::content::{content_hash, ContentHash};
use crate::error::{Error, Result};
use crate::key::Key;
use crate::revision::{derive_revision, RevisionKey};
use crate::scheme::Scheme;
use crate::ulid::{derive_ulid, Ulid};

/// Derives under one scheme, the primary, and recognises keys and ids of every accepted
/// scheme (spec §9.1): how data moves from an old scheme to a new one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRing {
    primary: Scheme,
    /// The primary first, then the other accepted schemes, newest first, no repeats.
    accepted: Vec<Scheme>,
}

impl KeyRing {
    /// A ring deriving with `primary` and recognising `primary` and `also_accepted`.
    ///
    /// ```
    /// use samekey::{KeyRing, Scheme};
    /// let ring = KeyRing::new(Scheme::V2, &[Scheme::V1])?;
    /// let id = ring.derive_ulid(1_700_000_000_000, "posts", &["hello", "en"], None)?;
    /// let candidates = ring.candidate_ulids(1_700_000_000_000, "posts", &["hello", "en"], None)?;
    /// assert_eq!(candidates[0], (Scheme::V2, id));
    /// assert_eq!(candidates[1].0, Scheme::V1);
    /// # Ok::<(), samekey::Error>(())
    /// ```
    pub fn new(primary: Scheme, also_accepted: &[Scheme]) -> Result<Self> {
        let mut accepted = alloc::vec![primary];
        // Newest first, each once: walk the schemes from the newest.
        accepted.extend(
            Scheme::ALL
                .iter()
                .rev()
                .copied()
                .filter(|s| *s != primary && also_accepted.contains(s)),
        );
        Ok(KeyRing { primary, accepted })
    }

    /// A ring from a list of accepted schemes, newest first: the first is the primary.
    /// An empty list names no scheme to derive with: `unknown_scheme`.
    ///
    /// ```
    /// use samekey::{KeyRing, Scheme};
    /// let ring = KeyRing::from_accept(&[Scheme::V2, Scheme::V1])?;
    /// assert_eq!(ring, KeyRing::new(Scheme::V2, &[Scheme::V1])?);
    /// assert_eq!(KeyRing::from_accept(&[]).unwrap_err().code(), "unknown_scheme");
    /// # Ok::<(), samekey::Error>(())
    /// ```
    pub fn from_accept(accept: &[Scheme]) -> Result<Self> {
        match accept {
            [primary, rest @ ..] => KeyRing::new(*primary, rest),
            [] => Err(Error::UnknownScheme(String::new())),
        }
    }

    /// The scheme new ids and keys are derived under.
    pub fn primary(&self) -> Scheme {
        self.primary
    }

    /// The accepted schemes, primary first.
    pub fn accepted(&self) -> &[Scheme] {
        &self.accepted
    }

    /// Whether keys and ids of `scheme` are recognised.
    pub fn accepts(&self, scheme: Scheme) -> bool {
        self.accepted.contains(&scheme)
    }

    fn require_accepted(&self, scheme: Scheme) -> Result<Scheme> {
        if self.accepts(scheme) {
            Ok(scheme)
        } else {
            Err(Error::SchemeNotAccepted(scheme.as_str()))
        }
    }

    /// The id of `fields` at `timestamp_ms` under the primary scheme (spec §4).
    pub fn derive_ulid<F: AsRef<[u8]>>(
        &self,
        timestamp_ms: u64,
        namespace: &str,
        fields: &[F],
        secret: Option<&[u8]>,
    ) -> Result<Ulid> {
        derive_ulid(self.primary, timestamp_ms, namespace, fields, secret)
    }

    /// The id under every accepted scheme that can express these inputs, primary first:
    /// the set of ids to look up while documents written under older schemes remain.
    /// The primary's errors are returned; an older scheme that cannot take the inputs
    /// (v0 with a namespace or a secret) is left out.
    pub fn candidate_ulids<F: AsRef<[u8]>>(
        &self,
        timestamp_ms: u64,
        namespace: &str,
        fields: &[F],
        secret: Option<&[u8]>,
    ) -> Result<Vec<(Scheme, Ulid)>> {
        let mut out = alloc::vec![(
            self.primary,
            self.derive_ulid(timestamp_ms, namespace, fields, secret)?
        )];
        for &s in &self.accepted[1..] {
            match derive_ulid(s, timestamp_ms, namespace, fields, secret) {
                Ok(id) => out.push((s, id)),
                Err(Error::NamespaceNotSupported | Error::SecretNotSupported) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// The content hash of `data` under the primary scheme (spec §5).
    pub fn content_hash(&self, data: &[u8]) -> Result<ContentHash> {
        content_hash(self.primary, data)
    }

    /// The content hash under every accepted scheme that hashes content (not v0).
    pub fn content_hashes(&self, data: &[u8]) -> Result<Vec<ContentHash>> {
        self.accepted
            .iter()
            .filter(|s| s.content_prefix().is_some())
            .map(|&s| content_hash(s, data))
            .collect()
    }

    /// The revision key under the scheme of `content`, which must be accepted.
    pub fn derive_revision(
        &self,
        parent: Option<&str>,
        content: &ContentHash,
        secret: Option<&[u8]>,
    ) -> Result<RevisionKey> {
        let scheme = self.require_accepted(content.scheme())?;
        derive_revision(scheme, parent, content, secret)
    }

    /// Which accepted scheme a key text belongs to: a revision key (`rev:v1:...`) or a
    /// content hash (`sha256:...`, `blake3:...`).
    pub fn scheme_of_key(&self, key: &str) -> Result<Scheme> {
        self.parse_key(key).map(|k| k.scheme())
    }

    /// A content hash or revision key text, parsed (`invalid_key`), whose scheme the ring
    /// accepts (`scheme_not_accepted`), in that order (spec §9.1).
    pub fn parse_key(&self, text: impl AsRef<str>) -> Result<Key> {
        let key: Key = text.as_ref().parse()?;
        self.require_accepted(key.scheme())?;
        Ok(key)
    }

    /// Which accepted scheme derived `id` from these inputs (primary tried first), or
    /// `identity_mismatch`: the guard before writing a document under an existing id.
    pub fn verify_ulid<F: AsRef<[u8]>>(
        &self,
        id: &Ulid,
        timestamp_ms: u64,
        namespace: &str,
        fields: &[F],
        secret: Option<&[u8]>,
    ) -> Result<Scheme> {
        self.candidate_ulids(timestamp_ms, namespace, fields, secret)?
            .into_iter()
            .find(|(_, candidate)| candidate == id)
            .map(|(s, _)| s)
            .ok_or(Error::IdentityMismatch)
    }
}
