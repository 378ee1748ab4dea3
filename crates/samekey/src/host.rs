//! The argument rules every host binding applies, in one place: which of a call's
//! arguments is converted and checked first when several are wrong (spec §2.2, §4.4,
//! §9), and the warnings a host gives. A binding converts its host's values to these
//! arguments (its strings to `&str`, failing with `invalid_string`, §2.2, before it calls
//! here) and never writes an order of checks itself.
//!
//! ```
//! use samekey::host;
//! // A ring's errors come before those of any operation on it (spec §9.1).
//! assert_eq!(host::key_in_ring(&["v1", "v3"], "nope").unwrap_err().code(), "unknown_scheme");
//! let ring = host::ring(&["v2", "v1"])?;
//! assert_eq!(ring.parse_key("sha256:".to_owned() + &"0".repeat(64))?.scheme().as_str(), "v1");
//! # Ok::<(), samekey::Error>(())
//! ```

use alloc::string::String;

use crate::content::ContentHash;
use crate::error::Result;
use crate::key::Key;
use crate::keyring::KeyRing;
use crate::revision::revision_scheme;
use crate::scheme::Scheme;

/// A key ring from its scheme names, primary first (spec §9.1): every name must be a
/// scheme, an empty list names no primary (`unknown_scheme` both), repeats count once.
pub fn ring<S: AsRef<str>>(names: &[S]) -> Result<KeyRing> {
    let mut schemes = alloc::vec::Vec::with_capacity(names.len());
    for name in names {
        schemes.push(name.as_ref().parse::<Scheme>()?);
    }
    KeyRing::from_accept(&schemes)
}

/// The key text's parse under a ring given by its names: the ring's errors, then the
/// text's (`invalid_key`), then `scheme_not_accepted` (spec §9.1, `key_parse`).
pub fn key_in_ring<S: AsRef<str>>(names: &[S], text: &str) -> Result<Key> {
    ring(names)?.parse_key(text)
}

/// The content hash of `data` under the scheme named `scheme` (spec §5).
pub fn content_hash(scheme: &str, data: &[u8]) -> Result<ContentHash> {
    crate::content::content_hash(scheme.parse()?, data)
}

/// The canonical text and content hash of JSON text under the scheme named `scheme`: the
/// scheme's errors before the text's (spec §6.1).
pub fn content_hash_json_text(scheme: &str, json: &str) -> Result<(String, ContentHash)> {
    crate::jcs::content_hash_json_text(scheme.parse()?, json)
}

/// The scheme a revision is derived under and the parsed content hash, checked in spec
/// §7.3's order: the requested scheme's name (`unknown_scheme`), then the content hash
/// (`invalid_key`); `None` derives under the content hash's own scheme.
pub fn revision_inputs(content_hash: &str, scheme: Option<&str>) -> Result<(Scheme, ContentHash)> {
    let requested = scheme.map(str::parse::<Scheme>).transpose()?;
    let content: ContentHash = content_hash.parse()?;
    Ok((revision_scheme(requested, &content), content))
}

/// Whether content must be written (spec §9.3), from the texts: both are parsed,
/// incoming first, so that a malformed hash is `invalid_key` and never a change (not even
/// the same malformed text on both sides); hashes of different schemes differ.
pub fn needs_write(stored: Option<&str>, incoming: &str) -> Result<bool> {
    let incoming: ContentHash = incoming.parse()?;
    let stored = stored.map(str::parse::<ContentHash>).transpose()?;
    Ok(crate::guard::needs_write(stored.as_ref(), &incoming))
}

/// Seconds since the epoch of 2001-2286, read as milliseconds, land in 1970 (between
/// 1970-01-12 and 1970-04-26), where an immutable natural time (a publication date) is
/// almost never: the id is valid and nothing else would notice, so hosts warn.
pub const SECONDS_LOOKALIKE: core::ops::Range<u64> = 1_000_000_000..10_000_000_000;

/// Whether integer milliseconds `ms` look like seconds given by mistake
/// ([`SECONDS_LOOKALIKE`]).
pub fn likely_seconds(ms: u64) -> bool {
    SECONDS_LOOKALIKE.contains(&ms)
}

/// The warning a host prints (once) for milliseconds that look like seconds, naming
/// both readings and what to pass instead; `None` when `ms` does not look like seconds.
///
/// ```
/// let w = samekey::host::seconds_warning(1_714_564_800).unwrap();
/// assert!(w.contains("1970-01-20T20:16:04.800Z") && w.contains("1714564800000"));
/// assert_eq!(samekey::host::seconds_warning(1_714_564_800_000), None);
/// ```
pub fn seconds_warning(ms: u64) -> Option<String> {
    if !likely_seconds(ms) {
        return None;
    }
    let as_ms = crate::timestamp::format_rfc3339(ms).ok()?;
    let as_s = crate::timestamp::format_rfc3339(ms * 1000).ok()?;
    Some(alloc::format!(
        "time {ms} is {as_ms} as milliseconds; if it is seconds ({as_s}), pass {}",
        ms * 1000
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ring_comes_before_the_key_text() {
        let code = |r: Result<Key>| r.unwrap_err().code();
        assert_eq!(code(key_in_ring(&["v1", "v3"], "nope")), "unknown_scheme");
        assert_eq!(code(key_in_ring::<&str>(&[], "nope")), "unknown_scheme");
        assert_eq!(code(key_in_ring(&["v2"], "nope")), "invalid_key");
        let h1 = alloc::format!("sha256:{}", "0".repeat(64));
        assert_eq!(code(key_in_ring(&["v2"], &h1)), "scheme_not_accepted");
        assert_eq!(
            key_in_ring(&["v2", "v1"], &h1).unwrap().scheme(),
            Scheme::V1
        );
    }

    #[test]
    fn needs_write_parses_both_and_compares_schemes() {
        let d = "0".repeat(64);
        let (h1, h2) = (alloc::format!("sha256:{d}"), alloc::format!("blake3:{d}"));
        assert_eq!(
            needs_write(Some("sha256:x"), "sha256:x")
                .unwrap_err()
                .code(),
            "invalid_key"
        );
        assert!(needs_write(Some(&h1), &h2).unwrap());
        assert!(!needs_write(Some(&h1), &h1).unwrap());
        assert!(needs_write(None, &h1).unwrap());
    }

    #[test]
    fn seconds_are_told_from_milliseconds() {
        assert!(likely_seconds(1_714_564_800));
        assert!(!likely_seconds(1_714_564_800_000));
        assert!(!likely_seconds(999_999_999));
    }
}
