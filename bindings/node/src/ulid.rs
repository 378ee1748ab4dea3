//! `Ulid`, `UlidDeriver`, `deriveUlid`, `ulidMessage`.

use napi::bindgen_prelude::{Buffer, Float64Array, Uint8Array};
use napi_derive::napi;
use samekey::Error;

use crate::convert;
use crate::errors::{CoreResult, Result};

fn parse(text: &str) -> Result<samekey::Ulid> {
    text.parse::<samekey::Ulid>().js()
}

/// The canonical (uppercase) text of ULID text, or `invalid_ulid`.
#[napi]
pub fn ulid_canonical(text: String) -> Result<String> {
    Ok(parse(&text)?.to_string())
}

#[napi]
pub fn ulid_from_bytes(bytes: Uint8Array) -> Result<String> {
    let raw: [u8; 16] = bytes[..]
        .try_into()
        .map_err(|_| Error::InvalidUlid(format!("{} bytes (a ULID is 16)", bytes.len())))
        .js()?;
    Ok(samekey::Ulid::from_bytes(raw).to_string())
}

#[napi]
pub fn ulid_bytes(text: String) -> Result<Buffer> {
    Ok(parse(&text)?.as_bytes().to_vec().into())
}

#[napi]
pub fn ulid_uuid(text: String) -> Result<String> {
    Ok(parse(&text)?.to_uuid_string())
}

#[napi]
pub fn ulid_timestamp_ms(text: String) -> Result<f64> {
    Ok(parse(&text)?.timestamp_ms() as f64)
}

/// Checks a deriver's settings once (api.js then sends only the scheme's code).
#[napi]
pub fn prepare_deriver(
    scheme: String,
    namespace: String,
    secret: Option<Uint8Array>,
) -> Result<u32> {
    samekey_js_wire::prepare_deriver(&scheme, &namespace, convert::secret(&secret))
        .map(u32::from)
        .js()
}

/// Checks a key ring once; returns its scheme codes, primary first.
#[napi]
pub fn prepare_ring(primary: String, accepted: Vec<String>) -> Result<Buffer> {
    samekey_js_wire::prepare_ring(&primary, &accepted)
        .map(Buffer::from)
        .js()
}

// The packed functions below take the whole request in one buffer (samekey-js-wire) and
// are free functions: on napi each argument and each method call cost more than hashing.

#[napi]
pub fn derive_packed(packed: &[u8], time_ms: f64) -> Result<String> {
    samekey_js_wire::derive(packed, time_ms).js()
}

#[napi]
pub fn derive_many_packed(packed: &[u8], width: u32, times_ms: Float64Array) -> Result<String> {
    samekey_js_wire::derive_many(packed, width as usize, &times_ms).js()
}

#[napi]
pub fn ulid_message_packed(packed: &[u8]) -> Result<Buffer> {
    samekey_js_wire::ulid_message(packed).map(Buffer::from).js()
}

#[napi]
pub fn candidates_packed(packed: &[u8], time_ms: f64) -> Result<String> {
    samekey_js_wire::candidates(packed, time_ms).js()
}

#[napi]
pub fn verify_packed(packed: &[u8], ulid: String, time_ms: f64) -> Result<String> {
    samekey_js_wire::verify(packed, &ulid, time_ms)
        .map(String::from)
        .js()
}

#[napi]
pub fn ring_scheme_of_key(codes: &[u8], key: String) -> Result<String> {
    samekey_js_wire::scheme_of_key(codes, &key)
        .map(String::from)
        .js()
}

#[napi]
pub fn ring_revision_key(
    codes: &[u8],
    content_hash: String,
    parent: Option<String>,
    secret: Option<Uint8Array>,
) -> Result<String> {
    samekey_js_wire::ring_revision_key(
        codes,
        &content_hash,
        parent.as_deref(),
        convert::secret(&secret),
    )
    .js()
}
