//! Revision keys: `H(parent, H(data))`, so that the same data on the same parent is the
//! same revision and a retried registration creates nothing new (spec §7).

use core::fmt;
use core::str::FromStr;

use crate::content::ContentHash;
use crate::error::{Error, Result};
use crate::framing;
use crate::framing::Sink;
use crate::hex;
use crate::scheme::{Purpose, Scheme};
use crate::tagged::{Message, Midstate};

/// `rev:<scheme>:<64 lowercase hex>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RevisionKey {
    scheme: Scheme,
    digest: [u8; 32],
}

impl RevisionKey {
    /// The scheme the key was derived under.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The 32 bytes of the digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.digest
    }
}

impl fmt::Display for RevisionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rev:{}:", self.scheme)?;
        hex::write32(f, &self.digest)
    }
}

impl FromStr for RevisionKey {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let bad = |why| Error::InvalidKey(s.into(), why);
        let rest = s
            .strip_prefix("rev:")
            .ok_or(bad("a revision key starts with rev:"))?;
        let (scheme, digest) = rest
            .split_once(':')
            .ok_or(bad("a revision key is rev:<scheme>:<hex>"))?;
        let scheme = match scheme {
            "v1" => Scheme::V1,
            "v2" => Scheme::V2,
            _ => return Err(bad("the scheme of a revision key is v1 or v2")),
        };
        let digest =
            hex::decode32(digest).ok_or(bad("the digest must be 64 lowercase hex digits"))?;
        Ok(RevisionKey { scheme, digest })
    }
}

text_serde!(RevisionKey);

/// The scheme a revision is keyed under: the one asked for, or else the content hash's
/// own (spec §7).
pub fn revision_scheme(requested: Option<Scheme>, content: &ContentHash) -> Scheme {
    requested.unwrap_or(content.scheme())
}

fn check_inputs(
    scheme: Scheme,
    parent: Option<&str>,
    content: &ContentHash,
    secret: Option<&[u8]>,
) -> Result<()> {
    scheme.require_hashing("revision keys")?;
    if secret.is_some_and(<[u8]>::is_empty) {
        return Err(Error::EmptySecret);
    }
    if parent == Some("") {
        return Err(Error::EmptyParent);
    }
    if content.scheme() != scheme {
        return Err(Error::SchemeMismatch(alloc::format!(
            "a {scheme} revision key needs a {} content hash, got {content}",
            scheme.content_prefix().unwrap_or_default()
        )));
    }
    Ok(())
}

/// The revision key of content `content` on `parent` (`None` for a root revision).
///
/// ```
/// use samekey::{content_hash, derive_revision, Scheme};
/// let data = content_hash(Scheme::V1, b"{\"rows\":3}")?;
/// let root = derive_revision(Scheme::V1, None, &data, None)?;
/// let child = derive_revision(Scheme::V1, Some(&root.to_string()), &data, None)?;
/// assert_ne!(root, child);
/// assert!(root.to_string().starts_with("rev:v1:"));
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn derive_revision(
    scheme: Scheme,
    parent: Option<&str>,
    content: &ContentHash,
    secret: Option<&[u8]>,
) -> Result<RevisionKey> {
    check_inputs(scheme, parent, content, secret)?;
    let state = Midstate::new(scheme, Purpose::Revision, secret)?;
    Ok(RevisionKey {
        scheme,
        digest: state.digest(&Body {
            parent,
            content: content.as_bytes(),
        })?,
    })
}

/// The revision message after the tag block (spec §7.2).
struct Body<'a> {
    parent: Option<&'a str>,
    content: &'a [u8; 32],
}

impl Message for Body<'_> {
    fn frame<S: Sink>(&self, sink: &mut S) -> Result<()> {
        framing::revision_body(sink, self.parent, self.content)
    }
}

/// The exact bytes hashed for a revision key (tag block included).
pub fn revision_message(
    scheme: Scheme,
    parent: Option<&str>,
    content: &ContentHash,
) -> Result<alloc::vec::Vec<u8>> {
    check_inputs(scheme, parent, content, None)?;
    let mut out = crate::scheme::tag_block(scheme, Purpose::Revision).to_vec();
    framing::revision_body(&mut out, parent, content.as_bytes())?;
    Ok(out)
}
