//! The native half of the `samekey` npm package. It converts types only; every rule is in
//! the core crate, and index.js adds the JS-side conveniences and `SamekeyError`.

// napi-derive registers the exports only outside cfg(test), so clippy's test build of
// this crate (`--all-targets`) would see every export as unused.
#![cfg_attr(test, allow(dead_code))]

mod content;
mod convert;
mod errors;
mod keyring;
mod ulid;

use napi_derive::napi;

/// The core's version; index.js exports it as `version()`.
#[napi]
pub fn core_version() -> String {
    samekey::VERSION.to_string()
}

/// The embedded subset of the shared vectors that `selftest()` runs.
#[napi]
pub fn selftest_vectors() -> String {
    samekey::SELFTEST_VECTORS.to_string()
}

#[napi]
pub fn error_codes() -> Vec<String> {
    samekey::Error::CODES
        .iter()
        .map(|c| c.to_string())
        .collect()
}
