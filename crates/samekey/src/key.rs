//! Key texts as stores and APIs hold them: a content hash (`sha256:…`, `blake3:…`) or a
//! revision key (`rev:v1:…`). Telling the two apart is a rule of its own: it lives here,
//! not in every binding.

use core::fmt;
use core::str::FromStr;

use crate::content::ContentHash;
use crate::error::{Error, Result};
use crate::revision::RevisionKey;
use crate::scheme::Scheme;

/// A content hash or a revision key.
///
/// ```
/// use samekey::{Key, Scheme};
/// let key: Key = "rev:v1:0000000000000000000000000000000000000000000000000000000000000000".parse()?;
/// assert_eq!((key.kind(), key.scheme()), ("revision", Scheme::V1));
/// let key: Key = "blake3:af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262".parse()?;
/// assert_eq!((key.kind(), key.scheme()), ("content", Scheme::V2));
/// # Ok::<(), samekey::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// A content hash: `sha256:<hex>` or `blake3:<hex>` (spec §5).
    Content(ContentHash),
    /// A revision key: `rev:<scheme>:<hex>` (spec §7).
    Revision(RevisionKey),
}

impl Key {
    /// The scheme the key was made under.
    pub fn scheme(&self) -> Scheme {
        match self {
            Key::Content(h) => h.scheme(),
            Key::Revision(k) => k.scheme(),
        }
    }

    /// `"content"` or `"revision"`, as the test vectors and bindings name the kinds.
    pub fn kind(&self) -> &'static str {
        match self {
            Key::Content(_) => "content",
            Key::Revision(_) => "revision",
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Content(h) => h.fmt(f),
            Key::Revision(k) => k.fmt(f),
        }
    }
}

impl FromStr for Key {
    type Err = Error;

    /// A text starting with `rev:` is a revision key; any other a content hash. Either
    /// way a malformed text is `invalid_key`.
    fn from_str(text: &str) -> Result<Self> {
        if text.starts_with("rev:") {
            text.parse().map(Key::Revision)
        } else {
            text.parse().map(Key::Content)
        }
    }
}

text_serde!(Key);
