//! Revision keys, the key ring, the guards and RFC 3339.

use napi::bindgen_prelude::{Buffer, Uint8Array};
use napi_derive::napi;
use samekey::{ContentHash, Scheme};

use crate::convert;
use crate::errors::{CoreResult, Result};

fn content(text: &str) -> Result<ContentHash> {
    text.parse::<ContentHash>().js()
}

fn scheme_or(scheme: Option<String>, content: &ContentHash) -> Result<Scheme> {
    scheme.map_or(Ok(content.scheme()), |s| convert::scheme(&s))
}

/// The revision key of content on a parent (spec §7); the scheme defaults to the
/// content hash's own.
#[napi]
pub fn revision_key(
    content_hash: String,
    parent: Option<String>,
    scheme: Option<String>,
    secret: Option<Uint8Array>,
) -> Result<String> {
    let requested = scheme.map(|s| convert::scheme(&s)).transpose()?;
    let content = content(&content_hash)?;
    let scheme = requested.unwrap_or(content.scheme());
    samekey::derive_revision(
        scheme,
        parent.as_deref(),
        &content,
        convert::secret(&secret),
    )
    .map(|k| k.to_string())
    .js()
}

#[napi]
pub fn revision_message(
    content_hash: String,
    parent: Option<String>,
    scheme: Option<String>,
) -> Result<Buffer> {
    let content = content(&content_hash)?;
    let scheme = scheme_or(scheme, &content)?;
    Ok(
        samekey::revision_message(scheme, parent.as_deref(), &content)
            .js()?
            .into(),
    )
}

#[napi]
pub fn needs_write(stored: Option<String>, incoming: String) -> Result<bool> {
    let stored = stored.map(|s| content(&s)).transpose()?;
    Ok(samekey::needs_write(stored.as_ref(), &content(&incoming)?))
}

#[napi(js_name = "parseRfc3339")]
pub fn parse_rfc3339(text: String) -> Result<f64> {
    samekey::parse_rfc3339(&text).map(|t| t as f64).js()
}

#[napi(object)]
pub struct ParsedKey {
    pub kind: String,
    pub scheme: String,
    pub canonical: String,
}

#[napi]
pub fn parse_key(text: String) -> Result<ParsedKey> {
    let (kind, scheme, canonical) = if text.starts_with("rev:") {
        let key: samekey::RevisionKey = text.parse::<samekey::RevisionKey>().js()?;
        ("revision", key.scheme(), key.to_string())
    } else {
        let hash = content(&text)?;
        ("content", hash.scheme(), hash.to_string())
    };
    Ok(ParsedKey {
        kind: kind.into(),
        scheme: scheme.as_str().into(),
        canonical,
    })
}
