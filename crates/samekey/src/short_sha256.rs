//! Unkeyed v1 hashing of tagged messages in as few SHA-256 compressions as the message
//! needs. The tag block's compressed state is a compile-time constant; the rest of a typical
//! message (an id's namespace and fields, well under 55 bytes) is collected on the stack
//! and finished with one call to the compression function. That is what keeps a v1 id
//! as cheap as the bare `sha256(slug + ":" + lang)` it replaces (spec §2.4).

use sha2::block_api::compress256;
use sha2::{Digest, Sha256};

use crate::framing::Sink;
use crate::scheme::{tag_block, Purpose, Scheme};

/// SHA-256 initial hash value (FIPS 180-4 §5.3.3).
const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Two blocks: room for up to 119 message bytes after the tag, plus padding.
const ROOM: usize = 128 - 9;

/// SHA-256 round constants (FIPS 180-4 §4.2.2).
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// One SHA-256 compression (FIPS 180-4 §6.2.2) evaluated by the compiler: the state after
/// each v1 tag block is then a constant, on every target and without `std`'s `OnceLock`
/// (a WebAssembly build without it used to compress the tag block again for every id).
const fn compress_const(mut state: [u32; 8], block: &[u8; 64]) -> [u32; 8] {
    let mut w = [0u32; 64];
    let mut i = 0;
    while i < 16 {
        let b = [
            block[4 * i],
            block[4 * i + 1],
            block[4 * i + 2],
            block[4 * i + 3],
        ];
        w[i] = u32::from_be_bytes(b);
        i += 1;
    }
    while i < 64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16]
            .wrapping_add(s0)
            .wrapping_add(w[i - 7])
            .wrapping_add(s1);
        i += 1;
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = state;
    i = 0;
    while i < 64 {
        let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let ch = (e & f) ^ (!e & g);
        let t1 = h
            .wrapping_add(s1)
            .wrapping_add(ch)
            .wrapping_add(K[i])
            .wrapping_add(w[i]);
        let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let maj = (a & b) ^ (a & c) ^ (b & c);
        (h, g, f, e) = (g, f, e, d.wrapping_add(t1));
        (d, c, b, a) = (c, b, a, t1.wrapping_add(s0.wrapping_add(maj)));
        i += 1;
    }
    let worked = [a, b, c, d, e, f, g, h];
    i = 0;
    while i < 8 {
        state[i] = state[i].wrapping_add(worked[i]);
        i += 1;
    }
    state
}

const ULID_MIDSTATE: [u32; 8] = compress_const(IV, &tag_block(Scheme::V1, Purpose::Ulid));
const REVISION_MIDSTATE: [u32; 8] = compress_const(IV, &tag_block(Scheme::V1, Purpose::Revision));

fn midstate(purpose: Purpose) -> [u32; 8] {
    match purpose {
        Purpose::Ulid => ULID_MIDSTATE,
        Purpose::Revision => REVISION_MIDSTATE,
    }
}

/// A sink for a short message after `block(tag)`: bytes stay in two stack blocks. A message
/// that does not fit is noted, not truncated, and [`finish`](ShortSha256::finish) then
/// returns `None` so that the caller hashes it the ordinary way. Keeping the rare long
/// case out of this type keeps it small and each `put` a plain copy.
pub(crate) struct ShortSha256 {
    buf: [[u8; 64]; 2],
    len: usize,
    overflow: bool,
}

impl ShortSha256 {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        ShortSha256 {
            buf: [[0; 64]; 2],
            len: 0,
            overflow: false,
        }
    }

    /// `SHA-256(block(tag) || message)`, or `None` if the message was too long to keep.
    #[inline]
    pub(crate) fn finish(&mut self, purpose: Purpose) -> Option<[u8; 32]> {
        if self.overflow {
            return None;
        }
        let bit_len = ((64 + self.len) as u64) * 8;
        let blocks = if self.len + 9 <= 64 { 1 } else { 2 };
        // Bytes past `len` are still the zeros of `new`, as padding wants them.
        let flat = self.buf.as_flattened_mut();
        flat[self.len] = 0x80;
        flat[blocks * 64 - 8..blocks * 64].copy_from_slice(&bit_len.to_be_bytes());
        let mut state = midstate(purpose);
        compress256(&mut state, &self.buf[..blocks]);
        let mut out = [0u8; 32];
        for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        Some(out)
    }
}

impl Sink for ShortSha256 {
    // Inlined so that the 4-byte length prefixes become single stores, not memcpy calls.
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if end <= ROOM {
            self.buf.as_flattened_mut()[self.len..end].copy_from_slice(bytes);
            self.len = end;
        } else {
            self.overflow = true;
        }
    }
}

/// `SHA-256(block(tag) || message)` for a message that [`ShortSha256`] could not keep.
pub(crate) fn long(purpose: Purpose, write: impl FnOnce(&mut Sha256)) -> [u8; 32] {
    let mut h = Sha256::new();
    Digest::update(&mut h, tag_block(Scheme::V1, purpose));
    write(&mut h);
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_constant_midstates_are_the_sha2_crates_compression_of_the_tag_blocks() {
        for purpose in [Purpose::Ulid, Purpose::Revision] {
            let mut state = IV;
            compress256(&mut state, &[tag_block(Scheme::V1, purpose)]);
            assert_eq!(midstate(purpose), state);
        }
    }

    #[test]
    fn equals_plain_sha256_for_every_length_around_the_block_edges() {
        for n in 0..300usize {
            let tail: alloc::vec::Vec<u8> = (0..n).map(|i| (i * 31 + 7) as u8).collect();
            let mut short = ShortSha256::new();
            // Split the writes unevenly so that overflowing happens mid-stream too.
            let (a, b) = tail.split_at(n / 3);
            short.put(a);
            short.put(b);
            let mut plain = Sha256::new();
            Digest::update(&mut plain, tag_block(Scheme::V1, Purpose::Ulid));
            Digest::update(&mut plain, &tail);
            let plain = <[u8; 32]>::from(plain.finalize());
            match short.finish(Purpose::Ulid) {
                Some(digest) => assert_eq!(digest, plain, "n = {n}"),
                None => assert!(n > ROOM, "n = {n} fits but was not kept"),
            }
            let long = long(Purpose::Ulid, |h| {
                h.put(a);
                h.put(b);
            });
            assert_eq!(long, plain, "n = {n}");
        }
    }
}
