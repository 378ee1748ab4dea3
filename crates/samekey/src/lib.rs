//! samekey: deterministic ULIDs, content hashes and revision keys that come out the same,
//! byte for byte, in every language that binds this crate.
//!
//! The normative rules are in `spec/samekey.md`; section numbers in this crate's docs
//! refer to it.
//!
//! ```
//! use samekey::{derive_ulid, parse_rfc3339, Scheme};
//! let t = parse_rfc3339("2024-05-01T12:00:00Z")?;
//! let id = derive_ulid(Scheme::V1, t, "posts", &["hello-world", "en"], None)?;
//! // A retried insert derives the same id, so an upsert by id cannot duplicate it.
//! assert_eq!(id, derive_ulid(Scheme::V1, t, "posts", &["hello-world", "en"], None)?);
//! # Ok::<(), samekey::Error>(())
//! ```
//!
//! # Cargo features
//!
//! - `std` (default): hashing a `Read` or a file ([`content_hash_reader`],
//!   [`content_hash_file`], with progress callbacks), `From<std::io::Error>` for
//!   [`Error`], and BLAKE3's runtime CPU detection. Without it the crate is `no_std` +
//!   `alloc`, as the WebAssembly build uses it.
//! - `serde`: `Serialize`/`Deserialize` for [`Ulid`], [`ContentHash`], [`RevisionKey`],
//!   [`Key`] and [`Scheme`], as their one canonical text.
#![cfg_attr(not(feature = "std"), no_std)]
// Denied, not forbidden: `tagged/avx2.rs` alone calls vector intrinsics.
#![deny(unsafe_code)]
#![warn(missing_debug_implementations)]
#![warn(missing_docs)]

extern crate alloc;

#[macro_use]
mod text_serde;

mod batch;
mod content;
#[cfg(feature = "std")]
mod content_file;
mod decimal;
mod error;
mod framing;
mod guard;
mod hex;
pub mod host;
mod jcs;
mod json;
mod key;
mod key_order;
mod keyring;
mod number;
pub mod record;
mod revision;
mod scheme;
mod tagged;
pub mod text;
pub mod timestamp;
mod ulid;

pub use batch::PARALLEL_MIN_ROWS;
pub use content::{content_hash, ContentHash, ContentHasher};
#[cfg(feature = "std")]
pub use content::{content_hash_reader, content_hash_reader_with_progress};
#[cfg(feature = "std")]
pub use content_file::{content_hash_file, content_hash_file_with_progress};
pub use error::{Error, ErrorCode, Result};
pub use guard::needs_write;
pub use jcs::{
    canonical_json, canonicalize_json_text, canonicalize_json_text_from_doubles, content_hash_json,
    content_hash_json_text, content_hash_json_text_from_doubles,
};
pub use json::{Value, MAX_DEPTH, MAX_SAFE_INTEGER};
pub use key::Key;
pub use keyring::KeyRing;
pub use revision::{derive_revision, revision_message, revision_scheme, RevisionKey};
pub use scheme::Scheme;
pub use timestamp::{format_rfc3339, parse_rfc3339};
pub use ulid::{check_ulid_inputs, derive_ulid, ulid_message, Ulid, UlidDeriver};

/// This crate's version; bindings report it so a host can refuse a mismatched library.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A few shared test vectors of every op (spec §10), generated with the full file, that
/// each binding's `selftest()` runs through its own API to check an installed package.
pub const SELFTEST_VECTORS: &str = include_str!("../selftest-vectors.json");

/// The README's examples, compiled and run as doctests so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// This crate's README example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct CrateReadmeDoctests;
