//! BLAKE3's compression function (BLAKE3 specification §2.2), one block at a time (eight
//! at once: `avx2.rs`). Ours because a tagged message (`block(tag) ||
//! tail`) wants to resume from the chaining value after its first block, the same for
//! every id, and the `blake3` crate cannot resume mid-chunk. Only the first chunk is ever
//! compressed here (chunk counter 0); longer messages go to the crate. Tested against the
//! crate on random inputs and against the official test vectors (`tests/blake3_path.rs`).

/// The IV: SHA-256's initial hash value (BLAKE3 §2.2).
pub(crate) const IV: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

pub(crate) const CHUNK_START: u32 = 1;
pub(crate) const CHUNK_END: u32 = 2;
pub(crate) const ROOT: u32 = 8;
pub(crate) const KEYED_HASH: u32 = 16;
pub(crate) const CHUNK_LEN: usize = 1024;

/// Message word order per round: the permutation of §2.2 applied round after round.
pub(crate) const SCHEDULE: [[usize; 16]; 7] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8],
    [3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1],
    [10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6],
    [12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4],
    [9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7],
    [11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13],
];

/// The (a, b, c, d) state words of the eight G calls of a round: columns, then diagonals.
const G: [[usize; 4]; 8] = [
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [1, 6, 11, 12],
    [2, 7, 8, 13],
    [3, 4, 9, 14],
];

/// The 16 little-endian message words of a block.
#[inline(always)]
pub(crate) const fn words(block: &[u8; 64]) -> [u32; 16] {
    let mut m = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        let b = [
            block[4 * i],
            block[4 * i + 1],
            block[4 * i + 2],
            block[4 * i + 3],
        ];
        m[i] = u32::from_le_bytes(b);
        i += 1;
    }
    m
}

/// The first 8 output words of compressing `block` (`block_len` bytes of it are message)
/// from `cv` in the first chunk: the next chaining value or, with `ROOT`, the hash.
/// A `const fn` (state by value, index loops) for the unkeyed midstates, which are
/// constants; [`compress`] is the same function written for speed.
pub(crate) const fn compress_const(
    cv: &[u32; 8],
    m: &[u32; 16],
    block_len: u32,
    flags: u32,
) -> [u32; 8] {
    let mut s = start(cv, block_len, flags);
    let mut r = 0;
    while r < 7 {
        let mut i = 0;
        while i < 8 {
            let [a, b, c, d] = G[i];
            let (x, y) = (m[SCHEDULE[r][2 * i]], m[SCHEDULE[r][2 * i + 1]]);
            s = g(s, a, b, c, d, x, y);
            i += 1;
        }
        r += 1;
    }
    let mut out = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = s[i] ^ s[i + 8];
        i += 1;
    }
    out
}

#[inline(always)]
const fn start(cv: &[u32; 8], block_len: u32, flags: u32) -> [u32; 16] {
    [
        cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7], IV[0], IV[1], IV[2], IV[3], 0, 0,
        block_len, flags,
    ]
}

/// The G function on state words a, b, c, d with message words x, y; by value, which a
/// `const fn` of Rust 1.82 needs (no `&mut`) and which costs nothing once inlined.
#[inline(always)]
const fn g(mut s: [u32; 16], a: usize, b: usize, c: usize, d: usize, x: u32, y: u32) -> [u32; 16] {
    s[a] = s[a].wrapping_add(s[b]).wrapping_add(x);
    s[d] = (s[d] ^ s[a]).rotate_right(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_right(12);
    s[a] = s[a].wrapping_add(s[b]).wrapping_add(y);
    s[d] = (s[d] ^ s[a]).rotate_right(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_right(7);
    s
}

#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
fn round(s: &mut [u32; 16], m: &[u32; 16], r: usize) {
    // Written out, not a loop over `G`: literal indices keep the state in registers.
    let k = &SCHEDULE[r];
    *s = g(*s, 0, 4, 8, 12, m[k[0]], m[k[1]]);
    *s = g(*s, 1, 5, 9, 13, m[k[2]], m[k[3]]);
    *s = g(*s, 2, 6, 10, 14, m[k[4]], m[k[5]]);
    *s = g(*s, 3, 7, 11, 15, m[k[6]], m[k[7]]);
    *s = g(*s, 0, 5, 10, 15, m[k[8]], m[k[9]]);
    *s = g(*s, 1, 6, 11, 12, m[k[10]], m[k[11]]);
    *s = g(*s, 2, 7, 8, 13, m[k[12]], m[k[13]]);
    *s = g(*s, 3, 4, 9, 14, m[k[14]], m[k[15]]);
}

/// [`compress_const`], unrolled: the state stays in registers.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)]
pub(crate) fn compress(cv: &[u32; 8], m: &[u32; 16], block_len: u32, flags: u32) -> [u32; 8] {
    let mut s = start(cv, block_len, flags);
    round(&mut s, m, 0);
    round(&mut s, m, 1);
    round(&mut s, m, 2);
    round(&mut s, m, 3);
    round(&mut s, m, 4);
    round(&mut s, m, 5);
    round(&mut s, m, 6);
    core::array::from_fn(|i| s[i] ^ s[i + 8])
}

/// WebAssembly: the compact loop, within the download budget.
#[cfg(target_arch = "wasm32")]
pub(crate) fn compress(cv: &[u32; 8], m: &[u32; 16], block_len: u32, flags: u32) -> [u32; 8] {
    compress_const(cv, m, block_len, flags)
}

/// The 32 little-endian bytes of eight output words.
#[inline(always)]
pub(crate) fn bytes(words: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (chunk, w) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    out
}

/// The hash of `prefix || tail` where compressing `prefix` (whole blocks, the chunk's
/// first) left `cv`, for `1 <= tail.len()` and a message within the first chunk; `flags`
/// is 0 or [`KEYED_HASH`].
pub(crate) fn finish(cv: &[u32; 8], flags: u32, tail: &[u8]) -> [u8; 32] {
    debug_assert!(!tail.is_empty());
    let mut cv = *cv;
    let mut rest = tail;
    while let Some((block, more)) = rest
        .split_first_chunk::<64>()
        .filter(|(_, m)| !m.is_empty())
    {
        cv = compress(&cv, &words(block), 64, flags);
        rest = more;
    }
    let mut last = [0u8; 64];
    last[..rest.len()].copy_from_slice(rest);
    let hash = compress(
        &cv,
        &words(&last),
        rest.len() as u32,
        flags | CHUNK_END | ROOT,
    );
    bytes(&hash)
}
