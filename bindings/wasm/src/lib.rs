//! The WebAssembly backend of the `samekey-wasm` npm package: the same exports, names and
//! argument types as the napi backend (bindings/node/src/lib.rs), each one call into
//! `samekey-wire`, so that one JS API layer (bindings/node/api.js) serves both.
//! Errors cross as `code: message` strings, which the JS layer turns into `SamekeyError`.

use samekey_wire as wire;
use wasm_bindgen::prelude::*;

type Result<T> = core::result::Result<T, String>;

fn js<T>(r: wire::Result<T>) -> Result<T> {
    r.map_err(|e| match e {
        wire::WireError::Core(e) => format!("{}: {e}", e.code()),
        wire::WireError::Malformed(m) => format!("TypeError: malformed packed request: {m}"),
    })
}

#[wasm_bindgen(js_name = coreVersion)]
pub fn core_version() -> String {
    samekey::VERSION.into()
}

#[wasm_bindgen(js_name = selftestVectors)]
pub fn selftest_vectors() -> String {
    samekey::SELFTEST_VECTORS.into()
}

#[wasm_bindgen(js_name = errorCodes)]
pub fn error_codes() -> String {
    wire::error_codes()
}

#[wasm_bindgen(js_name = likelySeconds)]
pub fn likely_seconds(ms: f64) -> bool {
    wire::likely_seconds(ms)
}

#[wasm_bindgen(js_name = jsonLimits)]
pub fn json_limits() -> Vec<f64> {
    wire::json_limits().to_vec()
}

#[wasm_bindgen(js_name = prepareDeriver)]
pub fn prepare_deriver(scheme: &str, namespace: &str, secret: Option<Vec<u8>>) -> Result<u32> {
    js(wire::prepare_deriver(scheme, namespace, secret.as_deref()).map(u32::from))
}

#[wasm_bindgen(js_name = prepareRing)]
pub fn prepare_ring(accept: Vec<String>) -> Result<Vec<u8>> {
    js(wire::prepare_ring(&accept))
}

/// The request buffer that `deriveShared` reads, at a fixed address in linear memory: a
/// call without arguments skips wasm-bindgen's allocate-copy-free of a byte argument,
/// and the id's text left in the buffer skips allocating and decoding a returned string
/// (measured: ~150 ns of an id's ~870 in Node 20).
struct Shared(core::cell::UnsafeCell<[u8; SHARED_SIZE]>);

const SHARED_SIZE: usize = 1 << 16;

// SAFETY: wasm32-unknown-unknown (built without atomics) runs this module on one thread.
unsafe impl Sync for Shared {}

static SHARED: Shared = Shared(core::cell::UnsafeCell::new([0; SHARED_SIZE]));

#[wasm_bindgen(js_name = sharedScratchAddress)]
pub fn shared_scratch_address() -> u32 {
    SHARED.0.get() as usize as u32
}

#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// `derivePacked` of the request in the shared buffer, followed there by its time as a
/// little-endian f64; the id's 26-byte text is left at the start of the buffer.
#[wasm_bindgen(js_name = deriveShared)]
pub fn derive_shared() -> Result<()> {
    // SAFETY: one thread, and JavaScript, the only other user of the buffer, is paused
    // during the call.
    let buf = unsafe { &mut *SHARED.0.get() };
    let text = js(wire::derive_ascii_trailing_js_ms(buf))?;
    buf[..text.len()].copy_from_slice(&text);
    Ok(())
}

#[wasm_bindgen(js_name = derivePacked)]
pub fn derive_packed(packed: &[u8], time_ms: f64) -> Result<String> {
    js(wire::derive_string_js_ms(packed, time_ms))
}

#[wasm_bindgen(js_name = deriveManyPacked)]
pub fn derive_many_packed(packed: &[u8], width: u32, times_ms: &[f64]) -> Result<String> {
    // No threads in WebAssembly: the core runs the batch on this thread.
    js(wire::derive_many_js_ms(
        packed,
        width as usize,
        times_ms,
        None,
    ))
}

#[wasm_bindgen(js_name = ulidMessagePacked)]
pub fn ulid_message_packed(packed: &[u8]) -> Result<Vec<u8>> {
    js(wire::ulid_message(packed))
}

#[wasm_bindgen(js_name = candidatesPacked)]
pub fn candidates_packed(packed: &[u8], time_ms: f64) -> Result<String> {
    js(wire::candidates_js_ms(packed, time_ms))
}

#[wasm_bindgen(js_name = verifyPacked)]
pub fn verify_packed(packed: &[u8], ulid: &str, time_ms: f64) -> Result<String> {
    js(wire::verify_js_ms(packed, ulid, time_ms).map(String::from))
}

#[wasm_bindgen(js_name = ringSchemeOfKey)]
pub fn ring_scheme_of_key(codes: &[u8], key: &str) -> Result<String> {
    js(wire::scheme_of_key(codes, key).map(String::from))
}

#[wasm_bindgen(js_name = ringRevisionKey)]
pub fn ring_revision_key(
    codes: &[u8],
    content_hash: &str,
    parent: Option<String>,
    secret: Option<Vec<u8>>,
) -> Result<String> {
    js(wire::ring_revision_key(
        codes,
        content_hash,
        parent.as_deref(),
        secret.as_deref(),
    ))
}

#[wasm_bindgen(js_name = ulidCanonical)]
pub fn ulid_canonical(text: &str) -> Result<String> {
    js(wire::ulid_canonical(text))
}

#[wasm_bindgen(js_name = ulidFromBytes)]
pub fn ulid_from_bytes(bytes: &[u8]) -> Result<String> {
    js(wire::ulid_from_bytes(bytes))
}

#[wasm_bindgen(js_name = ulidUuid)]
pub fn ulid_uuid(text: &str) -> Result<String> {
    js(wire::ulid_uuid(text))
}

#[wasm_bindgen(js_name = ulidTimestampMs)]
pub fn ulid_timestamp_ms(text: &str) -> Result<f64> {
    js(wire::ulid_timestamp_ms(text))
}

#[wasm_bindgen(js_name = contentHash)]
pub fn content_hash(data: &[u8], scheme: &str) -> Result<String> {
    js(wire::content_hash(data, scheme))
}

#[wasm_bindgen(js_name = canonicalJsonValue)]
pub fn canonical_json_value(json: &str) -> Result<String> {
    js(wire::canonical_json_value(json))
}

#[wasm_bindgen(js_name = canonicalJsonText)]
pub fn canonical_json_text(json: &str) -> Result<String> {
    js(wire::canonical_json_text(json))
}

#[wasm_bindgen(js_name = contentHashJsonValue)]
pub fn content_hash_json_value(json: &str, scheme: &str) -> Result<String> {
    js(wire::content_hash_json_value(json, scheme))
}

#[wasm_bindgen(js_name = contentHashJsonText)]
pub fn content_hash_json_text(json: &str, scheme: &str) -> Result<String> {
    js(wire::content_hash_json_text(json, scheme))
}

#[wasm_bindgen(js_name = revisionKey)]
pub fn revision_key(
    content_hash: &str,
    parent: Option<String>,
    scheme: Option<String>,
    secret: Option<Vec<u8>>,
) -> Result<String> {
    js(wire::revision_key(
        content_hash,
        parent.as_deref(),
        scheme.as_deref(),
        secret.as_deref(),
    ))
}

#[wasm_bindgen(js_name = revisionMessage)]
pub fn revision_message(
    content_hash: &str,
    parent: Option<String>,
    scheme: Option<String>,
) -> Result<Vec<u8>> {
    js(wire::revision_message(
        content_hash,
        parent.as_deref(),
        scheme.as_deref(),
    ))
}

#[wasm_bindgen(js_name = needsWrite)]
pub fn needs_write(stored: Option<String>, incoming: &str) -> Result<bool> {
    js(wire::needs_write(stored.as_deref(), incoming))
}

#[wasm_bindgen(js_name = parseRfc3339)]
pub fn parse_rfc3339(text: &str) -> Result<f64> {
    js(wire::parse_rfc3339(text))
}

#[wasm_bindgen(js_name = rfc3339UncheckedMs)]
pub fn rfc3339_unchecked_ms(text: &str) -> Result<f64> {
    js(wire::rfc3339_unchecked_ms(text))
}

#[wasm_bindgen(js_name = parseKey)]
pub fn parse_key(text: &str) -> Result<String> {
    js(wire::parse_key(text))
}

/// An incremental content hash (fed in chunks, for large inputs).
#[wasm_bindgen]
pub struct ContentHasher {
    inner: samekey::ContentHasher,
}

#[wasm_bindgen]
impl ContentHasher {
    #[wasm_bindgen(constructor)]
    pub fn new(scheme: &str) -> Result<ContentHasher> {
        Ok(ContentHasher {
            inner: js(wire::hasher(scheme))?,
        })
    }

    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    pub fn finalize(&self) -> String {
        self.inner.clone().finalize().to_string()
    }
}
