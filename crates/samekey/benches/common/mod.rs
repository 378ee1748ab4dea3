//! The workload every ULID benchmark measures, and the floor it is compared with.

use std::hint::black_box;

use sha2::{Digest, Sha256};

/// A typical post: a 20-byte slug and a language.
pub const SLUG: &str = "my-first-post-title!";
pub const LANG: &str = "en";
pub const T: u64 = 1_714_564_800_000;
pub const SECRET: &[u8] = b"a 32-byte secret for keyed ids!!";

/// The floor: the plain recipe samekey replaces, one SHA-256 of `slug + ":" + lang`.
pub fn floor() -> [u8; 32] {
    Sha256::digest(floor_message()).into()
}

/// The same message's BLAKE3: v2's floor, as SHA-256's is v1's (a one-block BLAKE3 against
/// a SHA-256 in the CPU's SHA instructions is what a v2 id pays more).
#[allow(dead_code)] // one bench of those sharing this module
pub fn floor_blake3() -> [u8; 32] {
    blake3::hash(&floor_message()).into()
}

fn floor_message() -> Vec<u8> {
    let mut m = Vec::with_capacity(SLUG.len() + 1 + LANG.len());
    m.extend_from_slice(black_box(SLUG).as_bytes());
    m.push(b':');
    m.extend_from_slice(black_box(LANG).as_bytes());
    m
}
