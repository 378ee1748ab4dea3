//! The napi backend of the `samekey` npm package: each export is one call into
//! `samekey-wire`, which both JS backends share; api.js shapes the API, and every rule
//! is in the core crate.

// napi-derive registers the exports only outside cfg(test), so clippy's test build of
// this crate (`--all-targets`) would see every export as unused.
#![cfg_attr(test, allow(dead_code))]

mod batch_buffers;
mod errors;
mod shared_scratch;

use std::num::NonZeroUsize;

use napi::bindgen_prelude::{
    AsyncTask, Buffer, BufferSlice, Float64Array, Latin1String, Uint32Array, Uint8Array,
};
use napi::JsString;
use napi::{Env, Task};
use napi_derive::napi;
use samekey_wire as wire;

use errors::{CoreResult, Result};

fn bytes(b: &Option<Uint8Array>) -> Option<&[u8]> {
    b.as_ref().map(|b| &b[..])
}

#[napi]
pub fn core_version() -> String {
    samekey::VERSION.into()
}

#[napi]
pub fn selftest_vectors() -> String {
    samekey::SELFTEST_VECTORS.into()
}

#[napi]
pub fn error_codes() -> String {
    wire::error_codes()
}

#[napi]
pub fn likely_seconds(ms: f64) -> bool {
    wire::likely_seconds(ms)
}

#[napi]
pub fn json_limits() -> Vec<f64> {
    wire::json_limits().to_vec()
}

#[napi]
pub fn prepare_deriver(
    scheme: String,
    namespace: String,
    secret: Option<Uint8Array>,
) -> Result<u32> {
    wire::prepare_deriver(&scheme, &namespace, bytes(&secret))
        .map(u32::from)
        .js()
}

#[napi]
pub fn prepare_ring(accept: Vec<String>) -> Result<Buffer> {
    wire::prepare_ring(&accept).map(Buffer::from).js()
}

// Free functions taking one packed buffer: on napi each argument and each method call
// cost more than the hashing itself.

/// The thread's request buffer, which `deriveShared` reads.
#[napi(ts_return_type = "Uint8Array")]
pub fn shared_scratch(env: &Env) -> Result<napi::bindgen_prelude::Unknown<'_>> {
    let value = shared_scratch::get(env)?;
    // SAFETY: `value` is a live value of this environment's current scope.
    Ok(unsafe { napi::bindgen_prelude::Unknown::from_raw_unchecked(env.raw(), value) })
}

/// `derivePacked` of the request in the shared buffer, followed there by its time as a
/// little-endian f64. No arguments: see `shared_scratch.rs`.
#[napi]
pub fn derive_shared() -> Result<Latin1String> {
    shared_scratch::with(|buf| {
        let text = wire::derive_ascii_trailing_js_ms(buf).js()?;
        Ok(Latin1String::from(
            String::from_utf8_lossy(&text).into_owned(),
        ))
    })
}

#[napi]
pub fn derive_packed<'env>(env: &'env Env, packed: &[u8], time_ms: f64) -> Result<JsString<'env>> {
    let text = wire::derive_ascii_js_ms(packed, time_ms).js()?;
    env.create_string_latin1(text)
        .map_err(|e| errors::type_error(format!("id: {e}")))
}

/// Node's batches stay on the calling thread: the JavaScript side (strings in and out)
/// costs most of an id, and the chunks threads need are big strings that V8 handles
/// slowly. Measured on 200,000 rows (2 cores): v2 285 ns per id in 2,048-row chunks on
/// one thread, 302 ns in 65,536-row chunks on two; v1 365 vs 441.
const ONE_THREAD: Option<NonZeroUsize> = NonZeroUsize::new(1);

// ULID text is ASCII: handing it over as Latin-1 spares the engine a UTF-8 decode.
#[napi]
pub fn derive_many_packed(
    packed: &[u8],
    width: u32,
    times_ms: Float64Array,
) -> Result<Latin1String> {
    wire::derive_many_js_ms(packed, width as usize, &times_ms, ONE_THREAD)
        .map(Latin1String::from)
        .js()
}

/// `deriveManyPacked` for string columns: one joined string and each field's length in
/// UTF-16 units, read by the engine without a per-character JavaScript loop.
#[napi]
pub fn derive_many_utf16<'env>(
    env: &'env Env,
    settings: &[u8],
    width: u32,
    times_ms: Float64Array,
    text: JsString,
    lengths: Uint32Array,
) -> Result<JsString<'env>> {
    batch_buffers::with_utf16(env, &text, |units, out| {
        wire::derive_many_utf16_js_ms(
            settings,
            width as usize,
            &times_ms,
            units,
            &lengths,
            ONE_THREAD,
            out,
        )
        .js()
    })
}

#[napi]
pub fn ulid_message_packed<'env>(env: &'env Env, packed: &[u8]) -> Result<BufferSlice<'env>> {
    copied(env, &wire::ulid_message(packed).js()?)
}

#[napi]
pub fn candidates_packed(packed: &[u8], time_ms: f64) -> Result<String> {
    wire::candidates_js_ms(packed, time_ms).js()
}

#[napi]
pub fn verify_packed(packed: &[u8], ulid: String, time_ms: f64) -> Result<String> {
    wire::verify_js_ms(packed, &ulid, time_ms)
        .map(String::from)
        .js()
}

#[napi]
pub fn ring_scheme_of_key(codes: &[u8], key: String) -> Result<String> {
    wire::scheme_of_key(codes, &key).map(String::from).js()
}

#[napi]
pub fn ring_revision_key(
    codes: &[u8],
    content_hash: String,
    parent: Option<String>,
    secret: Option<Uint8Array>,
) -> Result<String> {
    wire::ring_revision_key(codes, &content_hash, parent.as_deref(), bytes(&secret)).js()
}

#[napi]
pub fn ulid_canonical(text: String) -> Result<String> {
    wire::ulid_canonical(&text).js()
}

#[napi]
pub fn ulid_from_bytes(bytes: &[u8]) -> Result<String> {
    wire::ulid_from_bytes(bytes).js()
}

/// A small result as a new Buffer holding a copy: `Buffer::from(Vec)` makes an external
/// buffer with a finalizer, which cost an id's 16 bytes 2.5 µs a call, the copy half that
/// (`just bench-matrix`; the bytes of an id are now decoded in JavaScript).
fn copied<'env>(env: &'env Env, data: &[u8]) -> Result<BufferSlice<'env>> {
    BufferSlice::copy_from(env, data)
        .map_err(|e| errors::type_error(format!("a result's buffer: {e}")))
}

#[napi]
pub fn ulid_uuid(text: String) -> Result<String> {
    wire::ulid_uuid(&text).js()
}

#[napi]
pub fn ulid_timestamp_ms(text: String) -> Result<f64> {
    wire::ulid_timestamp_ms(&text).js()
}

#[napi]
pub fn content_hash(data: &[u8], scheme: String) -> Result<String> {
    wire::content_hash(data, &scheme).js()
}

#[napi]
pub fn canonical_json_value(json: String) -> Result<String> {
    wire::canonical_json_value(&json).js()
}

#[napi]
pub fn canonical_json_text(json: String) -> Result<String> {
    wire::canonical_json_text(&json).js()
}

#[napi]
pub fn content_hash_json_value(json: String, scheme: String) -> Result<String> {
    wire::content_hash_json_value(&json, &scheme).js()
}

#[napi]
pub fn content_hash_json_text(json: String, scheme: String) -> Result<String> {
    wire::content_hash_json_text(&json, &scheme).js()
}

#[napi]
pub fn revision_key(
    content_hash: String,
    parent: Option<String>,
    scheme: Option<String>,
    secret: Option<Uint8Array>,
) -> Result<String> {
    wire::revision_key(
        &content_hash,
        parent.as_deref(),
        scheme.as_deref(),
        bytes(&secret),
    )
    .js()
}

#[napi]
pub fn revision_message<'env>(
    env: &'env Env,
    content_hash: String,
    parent: Option<String>,
    scheme: Option<String>,
) -> Result<BufferSlice<'env>> {
    let message =
        wire::revision_message(&content_hash, parent.as_deref(), scheme.as_deref()).js()?;
    copied(env, &message)
}

#[napi]
pub fn needs_write(stored: Option<String>, incoming: String) -> Result<bool> {
    wire::needs_write(stored.as_deref(), &incoming).js()
}

#[napi(js_name = "parseRfc3339")]
pub fn parse_rfc3339(text: String) -> Result<f64> {
    wire::parse_rfc3339(&text).js()
}

#[napi(js_name = "rfc3339UncheckedMs")]
pub fn rfc3339_unchecked_ms(text: String) -> Result<f64> {
    wire::rfc3339_unchecked_ms(&text).js()
}

#[napi]
pub fn parse_key(text: String) -> Result<String> {
    wire::parse_key(&text).js()
}

/// An incremental content hash.
#[napi]
pub struct ContentHasher {
    inner: samekey::ContentHasher,
}

#[napi]
impl ContentHasher {
    #[napi(constructor)]
    pub fn new(scheme: String) -> Result<Self> {
        Ok(ContentHasher {
            inner: wire::hasher(&scheme).js()?,
        })
    }

    #[napi]
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    #[napi]
    pub fn finalize(&self) -> String {
        self.inner.clone().finalize().to_string()
    }
}

/// Hashes a file on the libuv thread pool, in constant memory.
pub struct HashFile {
    scheme: samekey::Scheme,
    path: String,
}

impl Task for HashFile {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        samekey::content_hash_file(self.scheme, std::path::Path::new(&self.path))
            .map(|h| h.to_string())
            // A task error has no custom code; api.js reads it back from the prefix.
            .map_err(|e| napi::Error::from_reason(format!("{}: {e}", e.code())))
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// The content hash of the file at `path`, computed off the main thread.
#[napi]
pub fn content_hash_file(path: String, scheme: String) -> Result<AsyncTask<HashFile>> {
    let scheme = scheme.parse::<samekey::Scheme>().js()?;
    Ok(AsyncTask::new(HashFile { scheme, path }))
}
