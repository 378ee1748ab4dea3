//! What a registration means, before any database: the payload's stored bytes, and the
//! revision key it has under each scheme of the key ring (the primary first).

use samekey::{canonicalize_json_text, derive_revision, KeyRing, RevisionKey};

use crate::error::ApiError;

pub const JSON: &str = "application/json";
pub const OCTET_STREAM: &str = "application/octet-stream";

/// The registration a request asks for.
#[derive(Debug)]
pub struct Registration {
    /// What is stored: the JCS form of a JSON payload, or the raw bytes.
    pub data: Vec<u8>,
    pub media_type: &'static str,
    pub parent: Option<String>,
    /// (scheme, content hash, revision key) under every accepted scheme, primary first.
    pub candidates: Vec<Candidate>,
}

#[derive(Debug)]
pub struct Candidate {
    pub scheme: String,
    pub content_hash: String,
    pub key: String,
}

/// `application/json` (any parameters, e.g. charset=utf-8) or `application/octet-stream`.
pub fn media_type(content_type: Option<&str>) -> Option<&'static str> {
    let essence = content_type?.split(';').next()?.trim();
    if essence.eq_ignore_ascii_case(JSON) {
        Some(JSON)
    } else if essence.eq_ignore_ascii_case(OCTET_STREAM) {
        Some(OCTET_STREAM)
    } else {
        None
    }
}

/// A parent must be a revision key of an accepted scheme.
pub fn parse_parent(ring: &KeyRing, parent: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(parent) = parent else {
        return Ok(None);
    };
    let key: RevisionKey = parent.parse().map_err(ApiError::core)?;
    ring.scheme_of_key(parent).map_err(ApiError::core)?;
    Ok(Some(key.to_string()))
}

pub fn registration(
    ring: &KeyRing,
    media_type: &'static str,
    body: &[u8],
    parent: Option<String>,
) -> Result<Registration, ApiError> {
    let data = if media_type == JSON {
        let text = samekey::text::from_utf8(body).map_err(ApiError::core)?;
        canonicalize_json_text(text)
            .map_err(ApiError::core)?
            .into_bytes()
    } else {
        body.to_vec()
    };
    let mut candidates = Vec::new();
    for hash in ring.content_hashes(&data).map_err(ApiError::core)? {
        let key = derive_revision(hash.scheme(), parent.as_deref(), &hash, None)
            .map_err(ApiError::core)?;
        candidates.push(Candidate {
            scheme: hash.scheme().to_string(),
            content_hash: hash.to_string(),
            key: key.to_string(),
        });
    }
    Ok(Registration {
        data,
        media_type,
        parent,
        candidates,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use samekey::Scheme;

    #[test]
    fn json_is_stored_canonical_and_keyed_under_every_scheme_primary_first() {
        let ring = KeyRing::new(Scheme::V2, &[Scheme::V1]).unwrap();
        let r = registration(&ring, JSON, br#"{"b": 1.0, "a": [true]}"#, None).unwrap();
        assert_eq!(r.data, br#"{"a":[true],"b":1}"#);
        let schemes: Vec<_> = r.candidates.iter().map(|c| c.scheme.as_str()).collect();
        assert_eq!(schemes, ["v2", "v1"]);
        let again = registration(&ring, JSON, br#"{"a":[true],"b":1}"#, None).unwrap();
        assert_eq!(r.candidates[0].key, again.candidates[0].key);
        let child = registration(
            &ring,
            JSON,
            br#"{"a":[true],"b":1}"#,
            Some(r.candidates[0].key.clone()),
        )
        .unwrap();
        assert_ne!(child.candidates[0].key, r.candidates[0].key);
    }

    #[test]
    fn bad_inputs_carry_the_core_codes() {
        let ring = KeyRing::new(Scheme::V1, &[]).unwrap();
        assert_eq!(
            registration(&ring, JSON, b"{\"a\":", None)
                .unwrap_err()
                .code,
            "invalid_json"
        );
        assert_eq!(
            registration(&ring, JSON, b"\xff", None).unwrap_err().code,
            "invalid_string"
        );
        assert_eq!(
            parse_parent(&ring, Some("rev:v1:zz")).unwrap_err().code,
            "invalid_key"
        );
        assert_eq!(
            media_type(Some("application/json; charset=utf-8")),
            Some(JSON)
        );
        assert_eq!(media_type(Some("text/plain")), None);
        assert_eq!(media_type(None), None);
    }
}
