//! Content hashes: a plain SHA-256 or BLAKE3 of the bytes, named by algorithm (spec §5).

use core::fmt;
use core::str::FromStr;

use crate::error::{Error, Result};
use crate::hex;
use crate::scheme::{HashState, Scheme};

/// `sha256:<64 hex>` (scheme v1) or `blake3:<64 hex>` (scheme v2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContentHash {
    scheme: Scheme,
    digest: [u8; 32],
}

impl ContentHash {
    /// A content hash from its parts; `scheme_not_supported` for v0.
    pub fn new(scheme: Scheme, digest: [u8; 32]) -> Result<Self> {
        scheme.require_hashing("content hashes")?;
        Ok(ContentHash { scheme, digest })
    }

    /// The scheme whose hash this is (v1 for `sha256:`, v2 for `blake3:`).
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The 32 bytes of the digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.digest
    }

    /// `sha256` or `blake3`.
    pub fn algorithm(&self) -> &'static str {
        self.scheme.content_prefix().unwrap_or("")
    }

    /// The 71 ASCII bytes of the text (`sha256:` or `blake3:`, then 64 hex digits),
    /// without allocating (for bulk output).
    ///
    /// ```
    /// use samekey::{content_hash, Scheme};
    /// let h = content_hash(Scheme::V2, b"doc")?;
    /// assert_eq!(h.to_text_bytes().as_slice(), h.to_string().as_bytes());
    /// # Ok::<(), samekey::Error>(())
    /// ```
    pub fn to_text_bytes(&self) -> [u8; 71] {
        let mut text = [0; 71];
        // Both algorithm names are six letters.
        text[..6].copy_from_slice(self.algorithm().as_bytes());
        text[6] = b':';
        text[7..].copy_from_slice(&hex::digits32(&self.digest));
        text
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.algorithm())?;
        f.write_str(":")?;
        hex::write32(f, &self.digest)
    }
}

impl FromStr for ContentHash {
    type Err = Error;
    /// Case-sensitive: only `sha256:`/`blake3:` followed by 64 lowercase hex digits.
    fn from_str(s: &str) -> Result<Self> {
        let (prefix, digest) = s.split_once(':').ok_or(Error::InvalidKey(
            s.into(),
            "a content hash is sha256:<hex> or blake3:<hex>",
        ))?;
        let scheme = match prefix {
            "sha256" => Scheme::V1,
            "blake3" => Scheme::V2,
            _ => {
                return Err(Error::InvalidKey(
                    s.into(),
                    "the algorithm must be sha256 or blake3",
                ))
            }
        };
        let digest = hex::decode32(digest).ok_or(Error::InvalidKey(
            s.into(),
            "the digest must be 64 lowercase hex digits",
        ))?;
        Ok(ContentHash { scheme, digest })
    }
}

text_serde!(ContentHash);

/// An incremental content hash: feed any number of chunks, in constant memory.
#[derive(Clone)]
pub struct ContentHasher {
    scheme: Scheme,
    state: HashState,
}

impl ContentHasher {
    /// A hasher for `scheme`; v0 has no content hashes (`scheme_not_supported`).
    pub fn new(scheme: Scheme) -> Result<Self> {
        Ok(ContentHasher {
            scheme,
            state: HashState::new(scheme)?,
        })
    }

    /// Feeds the next chunk of the data.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.state.update(chunk);
        self
    }

    /// The content hash of everything fed (spec §5).
    pub fn finalize(self) -> ContentHash {
        ContentHash {
            scheme: self.scheme,
            digest: self.state.finalize(),
        }
    }
}

/// The content hash of `data`.
///
/// ```
/// let h = samekey::content_hash(samekey::Scheme::V1, b"abc")?;
/// assert_eq!(h.to_string(), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn content_hash(scheme: Scheme, data: &[u8]) -> Result<ContentHash> {
    let mut h = ContentHasher::new(scheme)?;
    h.update(data);
    Ok(h.finalize())
}

/// Streams `reader` to its end through the hash with one fixed 1 MiB buffer.
#[cfg(feature = "std")]
pub fn content_hash_reader<R: std::io::Read>(scheme: Scheme, reader: R) -> Result<ContentHash> {
    content_hash_reader_with_progress(scheme, reader, |_| {})
}

/// As [`content_hash_reader`], calling `progress` with the byte count of each chunk read.
#[cfg(feature = "std")]
pub fn content_hash_reader_with_progress<R: std::io::Read>(
    scheme: Scheme,
    mut reader: R,
    mut progress: impl FnMut(usize),
) -> Result<ContentHash> {
    let mut h = ContentHasher::new(scheme)?;
    let mut buf = alloc::vec![0u8; 1 << 20];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(h.finalize()),
            Ok(n) => {
                h.update(&buf[..n]);
                progress(n);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
}

impl core::fmt::Debug for ContentHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContentHasher")
            .field("scheme", &self.scheme)
            .finish_non_exhaustive()
    }
}
