//! The rest of the JS backends' surface, with argument types that napi and wasm-bindgen
//! both pass cheaply (strings, byte slices, numbers), so each backend is one line a call.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use samekey::{Error, Scheme, Ulid};

use crate::codec::*;

pub fn error_codes() -> String {
    Error::CODES.join(",")
}

/// The core's JSON limits for host values: deepest nesting, largest integer magnitude.
pub fn json_limits() -> [f64; 2] {
    [samekey::MAX_DEPTH as f64, samekey::MAX_SAFE_INTEGER as f64]
}

// The scheme is parsed here, not through samekey::host::content_hash: the same order in
// fewer instructions, which the WebAssembly size budget counts (about 350 bytes gzipped).
pub fn content_hash(data: &[u8], scheme: &str) -> Result<String> {
    Ok(samekey::content_hash(scheme.parse()?, data)?.to_string())
}

/// JSON text that `JSON.stringify` wrote from a checked JS value (spec §6.2).
pub fn canonical_json_value(json: &str) -> Result<String> {
    Ok(samekey::canonicalize_json_text_from_doubles(json)?)
}

pub fn canonical_json_text(json: &str) -> Result<String> {
    Ok(samekey::canonicalize_json_text(json)?)
}

// JSON is canonicalized as it is parsed, never built into a `Value` tree: the tree's
// parser would be a second copy of the JSON grammar in the WebAssembly download.

pub fn content_hash_json_value(json: &str, scheme: &str) -> Result<String> {
    let scheme: Scheme = scheme.parse()?;
    Ok(samekey::content_hash_json_text_from_doubles(scheme, json)?
        .1
        .to_string())
}

pub fn content_hash_json_text(json: &str, scheme: &str) -> Result<String> {
    let scheme: Scheme = scheme.parse()?;
    Ok(samekey::content_hash_json_text(scheme, json)?.1.to_string())
}

/// The scheme defaults to the content hash's own.
pub fn revision_key(
    content_hash: &str,
    parent: Option<&str>,
    scheme: Option<&str>,
    secret: Option<&[u8]>,
) -> Result<String> {
    let (scheme, content) = samekey::host::revision_inputs(content_hash, scheme)?;
    Ok(samekey::derive_revision(scheme, parent, &content, secret)?.to_string())
}

pub fn revision_message(
    content_hash: &str,
    parent: Option<&str>,
    scheme: Option<&str>,
) -> Result<Vec<u8>> {
    let (scheme, content) = samekey::host::revision_inputs(content_hash, scheme)?;
    Ok(samekey::revision_message(scheme, parent, &content)?)
}

pub fn needs_write(stored: Option<&str>, incoming: &str) -> Result<bool> {
    Ok(samekey::host::needs_write(stored, incoming)?)
}

/// Whether a JavaScript number of milliseconds looks like seconds (`samekey::host`). The
/// JS layer words the warning with `Date`: the core's date formatting would add 4 KB
/// (gzipped) to the WebAssembly download.
pub fn likely_seconds(ms: f64) -> bool {
    let whole = (0.0..1e19).contains(&ms) && ms == (ms as u64) as f64;
    whole && samekey::host::likely_seconds(ms as u64)
}

pub fn parse_rfc3339(text: &str) -> Result<f64> {
    Ok(samekey::parse_rfc3339(text)? as f64)
}

/// RFC 3339 text as milliseconds, not range-checked: a time argument given as text is
/// converted first and range-checked in spec §4.4's order. Four-digit years keep every
/// value exact in a double.
pub fn rfc3339_unchecked_ms(text: &str) -> Result<f64> {
    Ok(samekey::timestamp::rfc3339_millis(text)?.as_i128() as f64)
}

/// `kind scheme canonical` of a content hash or revision key text.
pub fn parse_key(text: &str) -> Result<String> {
    let key: samekey::Key = text.parse()?;
    Ok(alloc::format!("{} {} {key}", key.kind(), key.scheme()))
}

pub fn ulid_canonical(text: &str) -> Result<String> {
    Ok(text.parse::<Ulid>()?.to_string())
}

pub fn ulid_from_bytes(bytes: &[u8]) -> Result<String> {
    let raw: [u8; 16] = bytes
        .try_into()
        .map_err(|_| Error::InvalidUlid(alloc::format!("{} bytes (a ULID is 16)", bytes.len())))?;
    Ok(Ulid::from_bytes(raw).to_string())
}

pub fn ulid_uuid(text: &str) -> Result<String> {
    Ok(text.parse::<Ulid>()?.to_uuid_string())
}

pub fn ulid_timestamp_ms(text: &str) -> Result<f64> {
    Ok(text.parse::<Ulid>()?.timestamp_ms() as f64)
}

/// An incremental content hash for the JS `ContentHasher`.
pub fn hasher(scheme: &str) -> Result<samekey::ContentHasher> {
    Ok(samekey::ContentHasher::new(scheme.parse()?)?)
}
