//! Content hashes (bytes, text, files off the main thread) and canonical JSON.

use napi::bindgen_prelude::{AsyncTask, Either, Uint8Array};
use napi::{Env, Task};
use napi_derive::napi;
use samekey::{ContentHasher as CoreHasher, Scheme};

use crate::convert;
use crate::errors::{CoreResult, Result};

fn bytes(data: &Either<String, Uint8Array>) -> &[u8] {
    convert::field_bytes(data)
}

/// The content hash (spec §5) of a string (its UTF-8) or bytes.
#[napi]
pub fn content_hash(data: Either<String, Uint8Array>, scheme: String) -> Result<String> {
    let scheme = convert::scheme(&scheme)?;
    samekey::content_hash(scheme, bytes(&data))
        .map(|h| h.to_string())
        .js()
}

/// Hashes a file on the libuv thread pool, in constant memory.
pub struct HashFile {
    scheme: Scheme,
    path: String,
}

impl Task for HashFile {
    type Output = String;
    type JsValue = String;

    fn compute(&mut self) -> napi::Result<String> {
        samekey::content_hash_file(self.scheme, std::path::Path::new(&self.path))
            .map(|h| h.to_string())
            // A task error has no custom code; index.js reads it back from the prefix.
            .map_err(|e| napi::Error::from_reason(format!("{}: {e}", e.code())))
    }

    fn resolve(&mut self, _env: Env, output: String) -> napi::Result<String> {
        Ok(output)
    }
}

/// The content hash of the file at `path`, computed off the main thread.
#[napi]
pub fn content_hash_file(path: String, scheme: String) -> Result<AsyncTask<HashFile>> {
    let scheme = convert::scheme(&scheme)?;
    Ok(AsyncTask::new(HashFile { scheme, path }))
}

/// An incremental content hash.
#[napi]
pub struct ContentHasher {
    inner: CoreHasher,
}

#[napi]
impl ContentHasher {
    #[napi(constructor)]
    pub fn new(scheme: String) -> Result<Self> {
        Ok(ContentHasher {
            inner: CoreHasher::new(convert::scheme(&scheme)?).js()?,
        })
    }

    #[napi]
    pub fn update(&mut self, data: Either<String, Uint8Array>) {
        self.inner.update(bytes(&data));
    }

    /// The hash of everything fed so far; feeding may continue.
    #[napi]
    pub fn finalize(&self) -> String {
        self.inner.clone().finalize().to_string()
    }
}

#[napi]
pub fn canonical_json(value: serde_json::Value) -> Result<String> {
    samekey::canonical_json(&convert::json(&value, 0)?).js()
}

#[napi]
pub fn canonical_json_text(text: String) -> Result<String> {
    samekey::canonicalize_json_text(&text).js()
}

#[napi]
pub fn content_hash_json(value: serde_json::Value, scheme: String) -> Result<String> {
    let scheme = convert::scheme(&scheme)?;
    let value = convert::json(&value, 0)?;
    samekey::content_hash_json(scheme, &value)
        .map(|(_, h)| h.to_string())
        .js()
}

#[napi]
pub fn content_hash_json_text(text: String, scheme: String) -> Result<String> {
    let scheme = convert::scheme(&scheme)?;
    let value = samekey::Value::parse(&text).js()?;
    samekey::content_hash_json(scheme, &value)
        .map(|(_, h)| h.to_string())
        .js()
}
