//! SHA-256 (FIPS 180-4) from a state that has already compressed whole blocks: the tag
//! block, or HMAC's padded key and then the tag block. The `sha2` crate's block function
//! (SHA-NI where the CPU has it) does the work; a `const` compression makes the unkeyed
//! states after each tag block compile-time constants.

use sha2::block_api::compress256;

/// SHA-256 initial hash value (FIPS 180-4 §5.3.3).
pub(crate) const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// SHA-256 round constants (FIPS 180-4 §4.2.2).
pub(crate) const K: [u32; 64] = [
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
pub(crate) const fn compress_const(mut state: [u32; 8], block: &[u8; 64]) -> [u32; 8] {
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

/// The big-endian bytes of a state: the digest, once the message is padded.
#[inline(always)]
pub(crate) fn bytes(state: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Pads a one-block message in `block` (its first `len <= 55` bytes, zeros after them)
/// that follows `prefix_len` compressed bytes.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn pad_in_place(block: &mut [u8; 64], prefix_len: u64, len: usize) {
    block[len] = 0x80;
    block[56..].copy_from_slice(&((prefix_len + len as u64) * 8).to_be_bytes());
}

/// Pads a message in `buf` (its first `len` bytes, zeros after them) and compresses it
/// from `state`, which had compressed `prefix_len` bytes: 1 or 2 blocks, `len <= 119`.
#[inline(always)]
pub(crate) fn finish_in_place(
    mut state: [u32; 8],
    prefix_len: u64,
    buf: &mut [[u8; 64]; 2],
    len: usize,
) -> [u8; 32] {
    let bit_len = (prefix_len + len as u64) * 8;
    let blocks = if len + 9 <= 64 { 1 } else { 2 };
    let flat = buf.as_flattened_mut();
    flat[len] = 0x80;
    flat[blocks * 64 - 8..blocks * 64].copy_from_slice(&bit_len.to_be_bytes());
    compress256(&mut state, &buf[..blocks]);
    bytes(&state)
}

/// The digest of `prefix || tail` for a tail of any length, from `state` after `prefix`
/// (`prefix_len` bytes, whole blocks).
pub(crate) fn finish(mut state: [u32; 8], prefix_len: u64, tail: &[u8]) -> [u8; 32] {
    let mut rest = tail;
    while let Some((block, more)) = rest.split_first_chunk::<64>() {
        compress256(&mut state, core::slice::from_ref(block));
        rest = more;
    }
    let whole = tail.len() - rest.len();
    let mut buf = [[0u8; 64]; 2];
    buf.as_flattened_mut()[..rest.len()].copy_from_slice(rest);
    finish_in_place(state, prefix_len + whole as u64, &mut buf, rest.len())
}
