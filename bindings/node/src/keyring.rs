//! Revision keys, the key ring, the guards and RFC 3339.

use napi::bindgen_prelude::{Buffer, Uint8Array};
use napi_derive::napi;
use samekey::{ContentHash, KeyRing as CoreRing, Scheme};

use crate::convert::{self, Field};
use crate::errors::{CoreResult, Result};

fn content(text: &str) -> Result<ContentHash> {
    text.parse().js()
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
        let key: samekey::RevisionKey = text.parse().js()?;
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

#[napi(object)]
pub struct Candidate {
    pub scheme: String,
    pub ulid: String,
}

/// Derives under a primary scheme and recognises the accepted ones (spec §9).
#[napi]
pub struct KeyRing {
    inner: CoreRing,
}

#[napi]
impl KeyRing {
    #[napi(constructor)]
    pub fn new(primary: String, accepted: Vec<String>) -> Result<Self> {
        let primary = convert::scheme(&primary)?;
        let accepted: Vec<Scheme> = accepted
            .iter()
            .map(|s| convert::scheme(s))
            .collect::<Result<_>>()?;
        Ok(KeyRing {
            inner: CoreRing::new(primary, &accepted).js()?,
        })
    }

    #[napi(getter)]
    pub fn primary(&self) -> String {
        self.inner.primary().as_str().into()
    }

    #[napi(getter)]
    pub fn accepted(&self) -> Vec<String> {
        self.inner
            .accepted()
            .iter()
            .map(|s| s.as_str().into())
            .collect()
    }

    #[napi]
    pub fn derive_ulid(
        &self,
        fields: Vec<Field>,
        time_ms: f64,
        namespace: String,
        secret: Option<Uint8Array>,
    ) -> Result<String> {
        let t = convert::time(time_ms)?;
        let id = self
            .inner
            .derive_ulid(
                t,
                &namespace,
                &convert::fields(&fields),
                convert::secret(&secret),
            )
            .js()?;
        Ok(id.to_string())
    }

    #[napi]
    pub fn candidate_ulids(
        &self,
        fields: Vec<Field>,
        time_ms: f64,
        namespace: String,
        secret: Option<Uint8Array>,
    ) -> Result<Vec<Candidate>> {
        let t = convert::time(time_ms)?;
        let found = self
            .inner
            .candidate_ulids(
                t,
                &namespace,
                &convert::fields(&fields),
                convert::secret(&secret),
            )
            .js()?;
        Ok(found
            .into_iter()
            .map(|(s, id)| Candidate {
                scheme: s.as_str().into(),
                ulid: id.to_string(),
            })
            .collect())
    }

    #[napi]
    pub fn verify_ulid(
        &self,
        ulid: String,
        fields: Vec<Field>,
        time_ms: f64,
        namespace: String,
        secret: Option<Uint8Array>,
    ) -> Result<String> {
        let id: samekey::Ulid = ulid.parse().js()?;
        let t = convert::time(time_ms)?;
        let scheme = self
            .inner
            .verify_ulid(
                &id,
                t,
                &namespace,
                &convert::fields(&fields),
                convert::secret(&secret),
            )
            .js()?;
        Ok(scheme.as_str().into())
    }

    #[napi]
    pub fn content_hash(
        &self,
        data: napi::bindgen_prelude::Either<String, Uint8Array>,
    ) -> Result<String> {
        self.inner
            .content_hash(convert::field_bytes(&data))
            .map(|h| h.to_string())
            .js()
    }

    #[napi]
    pub fn revision_key(
        &self,
        content_hash: String,
        parent: Option<String>,
        secret: Option<Uint8Array>,
    ) -> Result<String> {
        let content = content(&content_hash)?;
        self.inner
            .derive_revision(parent.as_deref(), &content, convert::secret(&secret))
            .map(|k| k.to_string())
            .js()
    }

    #[napi]
    pub fn scheme_of_key(&self, key: String) -> Result<String> {
        self.inner
            .scheme_of_key(&key)
            .map(|s| s.as_str().into())
            .js()
    }
}
