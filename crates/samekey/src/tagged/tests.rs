//! The tagged path against the `sha2`, `hmac` and `blake3` crates on every tail length up
//! to several chunks, and our BLAKE3 compression against the official test vectors
//! (`tests/data/blake3_test_vectors.json`, from github.com/BLAKE3-team/BLAKE3).

use alloc::vec::Vec;

use hmac::{KeyInit, Mac};
use proptest::prelude::*;
use sha2::Digest;

use super::*;

fn reference(scheme: Scheme, purpose: Purpose, secret: Option<&[u8]>, tail: &[u8]) -> [u8; 32] {
    let tag = tag_block(scheme, purpose);
    match (scheme, secret) {
        (Scheme::V1, None) => sha2::Sha256::new()
            .chain_update(tag)
            .chain_update(tail)
            .finalize()
            .into(),
        (Scheme::V1, Some(k)) => {
            let mut mac = <hmac::Hmac<sha2::Sha256> as KeyInit>::new_from_slice(k).unwrap();
            mac.update(&tag);
            mac.update(tail);
            mac.finalize().into_bytes().into()
        }
        (_, key) => {
            let mut h = match key {
                Some(k) => ::blake3::Hasher::new_keyed(&::blake3::derive_key(V2_SECRET_CONTEXT, k)),
                None => ::blake3::Hasher::new(),
            };
            h.update(&tag).update(tail);
            *h.finalize().as_bytes()
        }
    }
}

/// A tail framed the way ids and revisions frame theirs, through the stack buffer.
struct Raw<'a>(&'a [u8]);

impl Message for Raw<'_> {
    fn frame<S: Sink>(&self, sink: &mut S) -> Result<()> {
        // Uneven writes, so that the stack buffer overflows mid-stream too.
        let (a, b) = self.0.split_at(self.0.len() / 3);
        sink.put(a);
        sink.put(b);
        Ok(())
    }
}

const SECRETS: [Option<&[u8]>; 4] = [None, Some(b"k"), Some(&[7; 64]), Some(&[9; 65])];

fn check_all(tail: &[u8]) {
    for scheme in [Scheme::V1, Scheme::V2] {
        for purpose in [Purpose::Ulid, Purpose::Revision] {
            for secret in SECRETS {
                let state = Midstate::new(scheme, purpose, secret).unwrap();
                let want = reference(scheme, purpose, secret, tail);
                let n = tail.len();
                assert_eq!(
                    state.hash(tail),
                    want,
                    "{scheme} {purpose:?} {secret:?} n = {n}"
                );
                let framed = state.digest(&Raw(tail)).unwrap();
                assert_eq!(
                    framed, want,
                    "framed {scheme} {purpose:?} {secret:?} n = {n}"
                );
            }
        }
    }
}

fn pattern(n: usize, seed: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 31 + seed * 7 + 11) as u8).collect()
}

#[test]
fn every_tail_length_to_three_chunks_equals_the_crates() {
    // Every block and chunk edge: 0..=3200 bytes after the 64-byte tag block.
    for n in 0..=3200 {
        check_all(&pattern(n, n));
    }
}

proptest! {
    #[test]
    fn random_tails_equal_the_crates(tail in proptest::collection::vec(any::<u8>(), 0..4200)) {
        check_all(&tail);
    }
}

#[test]
fn unkeyed_constants_are_the_crates_first_block() {
    let mut state = sha256::IV;
    compress256(&mut state, &[tag_block(Scheme::V1, Purpose::Ulid)]);
    assert!(matches!(V1_ULID, Midstate::Sha256(s) if s == state));
    let block = blake3::words(&tag_block(Scheme::V2, Purpose::Revision));
    let cv = blake3::compress(&blake3::IV, &block, 64, blake3::CHUNK_START);
    assert!(matches!(V2_REVISION, Midstate::Blake3 { cv: c, .. } if c == cv));
}

/// One chunk (at most 1024 bytes) hashed with our compression alone, from `key` words.
fn one_chunk(key: &[u32; 8], flags: u32, input: &[u8]) -> [u8; 32] {
    if input.len() <= 64 {
        let mut block = [0u8; 64];
        block[..input.len()].copy_from_slice(input);
        let all = flags | blake3::CHUNK_START | blake3::CHUNK_END | blake3::ROOT;
        return blake3::bytes(&blake3::compress(
            key,
            &blake3::words(&block),
            input.len() as u32,
            all,
        ));
    }
    let first: &[u8; 64] = input[..64].try_into().unwrap();
    let cv = blake3::compress(key, &blake3::words(first), 64, flags | blake3::CHUNK_START);
    blake3::finish(&cv, flags, &input[64..])
}

fn le_words(bytes: &[u8]) -> [u32; 8] {
    core::array::from_fn(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn our_compression_passes_the_official_blake3_vectors_within_one_chunk() {
    const DERIVE_KEY_CONTEXT: u32 = 32;
    const DERIVE_KEY_MATERIAL: u32 = 64;
    let file: serde_json::Value =
        serde_json::from_str(include_str!("../../tests/data/blake3_test_vectors.json")).unwrap();
    let key = le_words(file["key"].as_str().unwrap().as_bytes());
    let context = file["context_string"].as_str().unwrap().as_bytes();
    let context_key = le_words(&one_chunk(&blake3::IV, DERIVE_KEY_CONTEXT, context));
    let mut checked = 0;
    for case in file["cases"].as_array().unwrap() {
        let n = case["input_len"].as_u64().unwrap() as usize;
        if n > blake3::CHUNK_LEN {
            continue;
        }
        let input: Vec<u8> = (0..n).map(|i| (i % 251) as u8).collect();
        let want = |mode: &str| unhex(&case[mode].as_str().unwrap()[..64]);
        assert_eq!(
            one_chunk(&blake3::IV, 0, &input).to_vec(),
            want("hash"),
            "hash {n}"
        );
        let keyed = one_chunk(&key, blake3::KEYED_HASH, &input);
        assert_eq!(keyed.to_vec(), want("keyed_hash"), "keyed_hash {n}");
        let derived = one_chunk(&context_key, DERIVE_KEY_MATERIAL, &input);
        assert_eq!(derived.to_vec(), want("derive_key"), "derive_key {n}");
        checked += 1;
    }
    // 0..=8, 63..=65, 127..=129, 1023, 1024 in the official file.
    assert!(checked >= 15, "only {checked} one-chunk cases");
}

#[test]
fn a_short_buffer_holds_what_was_put_at_every_length_and_offset() {
    for offset in 0..40 {
        for n in 0..=40 {
            let (head, field) = (pattern(offset, 1), pattern(n, 2));
            let mut short = Short::new();
            short.put(&head);
            short.put(&field);
            assert_eq!(short.len, offset + n);
            let mut want = head.clone();
            want.extend_from_slice(&field);
            assert_eq!(
                &short.buf.as_flattened()[..offset + n],
                &want[..],
                "{offset} + {n}"
            );
            assert!(short.buf.as_flattened()[offset + n..]
                .iter()
                .all(|&b| b == 0));
        }
    }
}
