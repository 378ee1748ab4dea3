//! RFC 8785 (JCS) canonical JSON and the content hash of it (spec §6). The writers, by
//! job: [`scalar`] (strings and numbers), [`tree`] (a parsed [`Value`]), [`stream`] (as
//! the parser reads, no tree), [`top`] (what a record keeps); the key order is
//! [`crate::key_order`]. These are the entry points.

mod scalar;
mod stream;
mod top;
mod tree;

use alloc::string::String;

pub(crate) use stream::Canonical;
pub(crate) use top::Top;
pub use top::{RecordMember, TopValue};

use crate::content::{content_hash, ContentHash};
use crate::error::Result;
use crate::json::Value;
use crate::scheme::Scheme;

/// The canonical text of a JSON value.
///
/// ```
/// use samekey::{canonical_json, Value};
/// let v = Value::parse(r#"{"b": [1.0, -0, 1e21], "a": "\u00e9"}"#)?;
/// assert_eq!(canonical_json(&v)?, r#"{"a":"é","b":[1,0,1e+21]}"#);
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn canonical_json(value: &Value) -> Result<String> {
    let mut out = String::new();
    tree::write_value(&mut out, value, 0)?;
    Ok(out)
}

/// Parses JSON text strictly and writes its canonical form, the same text as
/// `canonical_json(&Value::parse(text)?)` but without building the tree: it holds about
/// the output and the largest object's members, where a tree costs over ten times the text.
///
/// ```
/// use samekey::canonicalize_json_text;
/// assert_eq!(canonicalize_json_text(r#"{"b": [1.0, -0], "a": "\u00e9"}"#)?, r#"{"a":"é","b":[1,0]}"#);
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn canonicalize_json_text(text: &str) -> Result<String> {
    canonicalize(text, false)
}

/// [`canonicalize_json_text`] for JSON text written by a host whose numbers are all
/// doubles (JavaScript's `JSON.stringify`): integer literals are not range-checked, as in
/// [`Value::parse_from_doubles`].
pub fn canonicalize_json_text_from_doubles(text: &str) -> Result<String> {
    canonicalize(text, true)
}

fn canonicalize(text: &str, doubles: bool) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    crate::json::parse_into(text, doubles, Canonical::new(&mut out, None))?;
    Ok(out)
}

/// The content hash of JSON text's canonical form, with that form. The scheme is checked
/// before the text is parsed (spec §6.1), so `v0` is `scheme_not_supported` whatever the text.
///
/// ```
/// use samekey::{content_hash_json_text, Scheme};
/// let (canonical, hash) = content_hash_json_text(Scheme::V1, r#"{"b": 2, "a": 1}"#)?;
/// assert_eq!(canonical, r#"{"a":1,"b":2}"#);
/// assert!(hash.to_string().starts_with("sha256:"));
/// let err = content_hash_json_text(Scheme::V0, "{").unwrap_err();
/// assert_eq!(err.code(), "scheme_not_supported");
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn content_hash_json_text(scheme: Scheme, text: &str) -> Result<(String, ContentHash)> {
    scheme.require_hashing("content hashes")?;
    let canonical = canonicalize_json_text(text)?;
    let hash = content_hash(scheme, canonical.as_bytes())?;
    Ok((canonical, hash))
}

/// The content hash of JSON text that a host wrote from its own checked values
/// ([`canonicalize_json_text_from_doubles`]), the scheme checked first.
pub fn content_hash_json_text_from_doubles(
    scheme: Scheme,
    text: &str,
) -> Result<(String, ContentHash)> {
    scheme.require_hashing("content hashes")?;
    let canonical = canonicalize_json_text_from_doubles(text)?;
    let hash = content_hash(scheme, canonical.as_bytes())?;
    Ok((canonical, hash))
}

/// The content hash of the canonical form of `value`, with that form.
pub fn content_hash_json(scheme: Scheme, value: &Value) -> Result<(String, ContentHash)> {
    scheme.require_hashing("content hashes")?;
    let canonical = canonical_json(value)?;
    let hash = content_hash(scheme, canonical.as_bytes())?;
    Ok((canonical, hash))
}
