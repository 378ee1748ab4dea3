//! Scheme names and the hash state each scheme uses (plain or keyed).

use core::fmt;
use core::str::FromStr;

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

/// A derivation scheme. Keys and ids name their scheme so that the algorithm can change
/// without ever reinterpreting an existing key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scheme {
    /// Legacy `SHA-256(f1 ":" f2 ...)` ULIDs only; ambiguous, kept to verify and migrate old ids.
    V0,
    /// SHA-256, keyed with HMAC-SHA-256.
    V1,
    /// BLAKE3, keyed with BLAKE3 keyed_hash under a derived key.
    V2,
}

impl Scheme {
    /// Every scheme, oldest first; a scheme's index here is its code in the bindings' wire.
    pub const ALL: [Scheme; 3] = [Scheme::V0, Scheme::V1, Scheme::V2];

    /// `v0`, `v1` or `v2`, as keys and options name it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Scheme::V0 => "v0",
            Scheme::V1 => "v1",
            Scheme::V2 => "v2",
        }
    }

    /// The content-hash algorithm prefix (`sha256`, `blake3`); v0 has none.
    pub(crate) fn content_prefix(self) -> Option<&'static str> {
        match self {
            Scheme::V0 => None,
            Scheme::V1 => Some("sha256"),
            Scheme::V2 => Some("blake3"),
        }
    }

    /// `scheme_not_supported` for v0, which makes ULIDs only, naming `operation`
    /// ("content hashes", "revision keys"); hosts call it before converting their values so
    /// the scheme is checked first (spec §6.1, §7.3).
    pub fn require_hashing(self, operation: &'static str) -> Result<()> {
        match self {
            Scheme::V0 => Err(Error::SchemeNotSupported {
                scheme: self.as_str(),
                operation,
            }),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Scheme {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        match s {
            "v0" => Ok(Scheme::V0),
            "v1" => Ok(Scheme::V1),
            "v2" => Ok(Scheme::V2),
            other => Err(Error::UnknownScheme(other.into())),
        }
    }
}

text_serde!(Scheme);

/// What a tagged hash is for; part of the domain-separation tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    Ulid,
    Revision,
}

impl Purpose {
    const fn as_str(self) -> &'static str {
        match self {
            Purpose::Ulid => "ulid",
            Purpose::Revision => "revision",
        }
    }
}

/// `block(tag)`: `samekey/<scheme>/<purpose>` zero-padded to one 64-byte hash block.
/// A `const fn` (hence the index loops), so that v1's tag midstates are compile-time
/// constants (see `short_sha256`).
pub(crate) const fn tag_block(scheme: Scheme, purpose: Purpose) -> [u8; 64] {
    let mut block = [0u8; 64];
    let parts: [&[u8]; 4] = [
        b"samekey/",
        scheme.as_str().as_bytes(),
        b"/",
        purpose.as_str().as_bytes(),
    ];
    let (mut at, mut p) = (0, 0);
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            block[at] = parts[p][i];
            at += 1;
            i += 1;
        }
        p += 1;
    }
    block
}

pub(crate) const V2_SECRET_CONTEXT: &str = "samekey v2 secret";

/// A running unkeyed hash of one scheme, always yielding 32 bytes: content hashes (spec
/// §5). Tagged hashes (ids, revisions) start from a precomputed state (`tagged.rs`).
#[derive(Clone)]
pub(crate) enum HashState {
    Sha256(Sha256),
    // Boxed: the hasher is ~1.9 KB and every move of an unboxed state would copy it,
    // which costs the SHA-256 variant more than one allocation costs BLAKE3.
    Blake3(alloc::boxed::Box<blake3::Hasher>),
}

impl HashState {
    /// A hash of `scheme` (v1/v2) with nothing absorbed yet.
    pub(crate) fn new(scheme: Scheme) -> Result<Self> {
        scheme.require_hashing("tagged hashing")?;
        Ok(match scheme {
            Scheme::V2 => HashState::Blake3(alloc::boxed::Box::new(blake3::Hasher::new())),
            _ => HashState::Sha256(Sha256::new()),
        })
    }

    pub(crate) fn update(&mut self, bytes: &[u8]) {
        match self {
            HashState::Sha256(h) => Digest::update(h, bytes),
            HashState::Blake3(h) => {
                h.update(bytes);
            }
        }
    }

    pub(crate) fn finalize(self) -> [u8; 32] {
        match self {
            HashState::Sha256(h) => h.finalize().into(),
            HashState::Blake3(h) => *h.finalize().as_bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_block_is_tag_then_zeros() {
        let b = tag_block(Scheme::V1, Purpose::Ulid);
        assert_eq!(&b[..15], b"samekey/v1/ulid");
        assert!(b[15..].iter().all(|&x| x == 0));
    }

    #[test]
    fn scheme_text_round_trips() {
        for s in Scheme::ALL {
            assert_eq!(s.as_str().parse::<Scheme>().unwrap(), s);
        }
        assert_eq!("V1".parse::<Scheme>().unwrap_err().code(), "unknown_scheme");
    }
}
