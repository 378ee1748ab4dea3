//! BLAKE3's compression of eight blocks at once in AVX2 registers, one lane per block,
//! the blocks transposed into lanes and the hashes back in registers. The crate's only
//! `unsafe`: intrinsics run only once [`Avx2::detect`] has seen the CPU feature, and
//! loads and stores touch whole 32-byte halves of blocks and hashes.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::blake3::{IV, SCHEDULE};

/// How many blocks [`Avx2::compress_lanes`] compresses at once: eight 32-bit lanes fill
/// one AVX2 register.
pub(crate) const LANES: usize = 8;

/// Proof that this CPU has AVX2.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(());

impl Avx2 {
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        std::is_x86_feature_detected!("avx2").then_some(Avx2(()))
    }

    /// The hashes of [`LANES`] final blocks from one chaining value: `blocks[l]` holds
    /// `len[l]` message bytes (zero-padded), compressed with `flags`. Safe: an `Avx2`
    /// exists only where the CPU has AVX2.
    #[inline]
    pub(crate) fn compress_lanes(
        self,
        cv: &[u32; 8],
        blocks: [&[u8; 64]; LANES],
        len: &[u32; LANES],
        flags: u32,
    ) -> [[u8; 32]; LANES] {
        const _: () = assert!(LANES == 8);
        // SAFETY: `self` proves AVX2 is present.
        unsafe { compress8(cv, blocks, len, flags) }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(bytes: &[u8]) -> __m256i {
    assert!(bytes.len() >= 32);
    // SAFETY: 32 readable bytes (checked); `loadu` needs no alignment.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Rows of 8 words in, columns out: `out[w]` holds word `w` of every row.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn transpose(r: [__m256i; 8]) -> [__m256i; 8] {
    let t = [
        _mm256_unpacklo_epi32(r[0], r[1]),
        _mm256_unpackhi_epi32(r[0], r[1]),
        _mm256_unpacklo_epi32(r[2], r[3]),
        _mm256_unpackhi_epi32(r[2], r[3]),
        _mm256_unpacklo_epi32(r[4], r[5]),
        _mm256_unpackhi_epi32(r[4], r[5]),
        _mm256_unpacklo_epi32(r[6], r[7]),
        _mm256_unpackhi_epi32(r[6], r[7]),
    ];
    let u = [
        _mm256_unpacklo_epi64(t[0], t[2]),
        _mm256_unpackhi_epi64(t[0], t[2]),
        _mm256_unpacklo_epi64(t[1], t[3]),
        _mm256_unpackhi_epi64(t[1], t[3]),
        _mm256_unpacklo_epi64(t[4], t[6]),
        _mm256_unpackhi_epi64(t[4], t[6]),
        _mm256_unpacklo_epi64(t[5], t[7]),
        _mm256_unpackhi_epi64(t[5], t[7]),
    ];
    [
        _mm256_permute2x128_si256::<0x20>(u[0], u[4]),
        _mm256_permute2x128_si256::<0x20>(u[1], u[5]),
        _mm256_permute2x128_si256::<0x20>(u[2], u[6]),
        _mm256_permute2x128_si256::<0x20>(u[3], u[7]),
        _mm256_permute2x128_si256::<0x31>(u[0], u[4]),
        _mm256_permute2x128_si256::<0x31>(u[1], u[5]),
        _mm256_permute2x128_si256::<0x31>(u[2], u[6]),
        _mm256_permute2x128_si256::<0x31>(u[3], u[7]),
    ]
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn rot16(x: __m256i) -> __m256i {
    let mask = _mm256_set_epi8(
        13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2, 13, 12, 15, 14, 9, 8, 11, 10, 5, 4,
        7, 6, 1, 0, 3, 2,
    );
    _mm256_shuffle_epi8(x, mask)
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn rot8(x: __m256i) -> __m256i {
    let mask = _mm256_set_epi8(
        12, 15, 14, 13, 8, 11, 10, 9, 4, 7, 6, 5, 0, 3, 2, 1, 12, 15, 14, 13, 8, 11, 10, 9, 4, 7,
        6, 5, 0, 3, 2, 1,
    );
    _mm256_shuffle_epi8(x, mask)
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn rot12(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<12>(x), _mm256_slli_epi32::<20>(x))
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn rot7(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<7>(x), _mm256_slli_epi32::<25>(x))
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn g(s: &mut [__m256i; 16], a: usize, b: usize, c: usize, d: usize, x: __m256i, y: __m256i) {
    unsafe {
        s[a] = _mm256_add_epi32(_mm256_add_epi32(s[a], s[b]), x);
        s[d] = rot16(_mm256_xor_si256(s[d], s[a]));
        s[c] = _mm256_add_epi32(s[c], s[d]);
        s[b] = rot12(_mm256_xor_si256(s[b], s[c]));
        s[a] = _mm256_add_epi32(_mm256_add_epi32(s[a], s[b]), y);
        s[d] = rot8(_mm256_xor_si256(s[d], s[a]));
        s[c] = _mm256_add_epi32(s[c], s[d]);
        s[b] = rot7(_mm256_xor_si256(s[b], s[c]));
    }
}

#[inline]
#[target_feature(enable = "avx2")]
unsafe fn round(s: &mut [__m256i; 16], m: &[__m256i; 16], r: usize) {
    let k = &SCHEDULE[r];
    unsafe {
        g(s, 0, 4, 8, 12, m[k[0]], m[k[1]]);
        g(s, 1, 5, 9, 13, m[k[2]], m[k[3]]);
        g(s, 2, 6, 10, 14, m[k[4]], m[k[5]]);
        g(s, 3, 7, 11, 15, m[k[6]], m[k[7]]);
        g(s, 0, 5, 10, 15, m[k[8]], m[k[9]]);
        g(s, 1, 6, 11, 12, m[k[10]], m[k[11]]);
        g(s, 2, 7, 8, 13, m[k[12]], m[k[13]]);
        g(s, 3, 4, 9, 14, m[k[14]], m[k[15]]);
    }
}

#[target_feature(enable = "avx2")]
unsafe fn compress8(
    cv: &[u32; 8],
    blocks: [&[u8; 64]; LANES],
    len: &[u32; LANES],
    flags: u32,
) -> [[u8; 32]; LANES] {
    unsafe {
        // Little-endian words, as BLAKE3 reads them: x86 loads them as they lie.
        // Written out, not `array::from_fn`: a closure does not inherit the target feature
        // and would keep each load out of line.
        let [b0, b1, b2, b3, b4, b5, b6, b7] = blocks;
        let [l0, l1, l2, l3, l4, l5, l6, l7] = transpose([
            load(&b0[..32]),
            load(&b1[..32]),
            load(&b2[..32]),
            load(&b3[..32]),
            load(&b4[..32]),
            load(&b5[..32]),
            load(&b6[..32]),
            load(&b7[..32]),
        ]);
        let [h0, h1, h2, h3, h4, h5, h6, h7] = transpose([
            load(&b0[32..]),
            load(&b1[32..]),
            load(&b2[32..]),
            load(&b3[32..]),
            load(&b4[32..]),
            load(&b5[32..]),
            load(&b6[32..]),
            load(&b7[32..]),
        ]);
        let m = [
            l0, l1, l2, l3, l4, l5, l6, l7, h0, h1, h2, h3, h4, h5, h6, h7,
        ];
        let set = |w: u32| _mm256_set1_epi32(w as i32);
        #[rustfmt::skip]
        let mut s = [
            set(cv[0]), set(cv[1]), set(cv[2]), set(cv[3]),
            set(cv[4]), set(cv[5]), set(cv[6]), set(cv[7]),
            set(IV[0]), set(IV[1]), set(IV[2]), set(IV[3]),
            _mm256_setzero_si256(), _mm256_setzero_si256(),
            _mm256_loadu_si256(len.as_ptr().cast()), set(flags),
        ];
        for r in 0..7 {
            round(&mut s, &m, r);
        }
        let x = |w: usize| _mm256_xor_si256(s[w], s[w + 8]);
        let rows = transpose([x(0), x(1), x(2), x(3), x(4), x(5), x(6), x(7)]);
        let mut out = [[0u8; 32]; LANES];
        for (hash, row) in out.iter_mut().zip(rows) {
            // SAFETY: 32 writable bytes; `storeu` needs no alignment. Little-endian words
            // are the hash's bytes.
            _mm256_storeu_si256(hash.as_mut_ptr().cast(), row);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::blake3::{bytes, compress, words, CHUNK_END, KEYED_HASH, ROOT};
    use super::*;

    #[test]
    fn lanes_equal_one_block_at_a_time() {
        let Some(avx2) = Avx2::detect() else {
            // Nothing to compare on this CPU; batches hash block by block there.
            eprintln!("skipped: no AVX2 on this CPU");
            return;
        };
        let mut x = 0x9e37_79b9u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let cv: [u32; 8] = core::array::from_fn(|_| next());
        let blocks: [[u8; 64]; LANES] =
            core::array::from_fn(|_| core::array::from_fn(|_| next() as u8));
        let len: [u32; LANES] = core::array::from_fn(|_| next() % 65);
        for flags in [0, CHUNK_END | ROOT, KEYED_HASH | CHUNK_END | ROOT] {
            let out = avx2.compress_lanes(&cv, blocks.each_ref(), &len, flags);
            for l in 0..LANES {
                let one = bytes(&compress(&cv, &words(&blocks[l]), len[l], flags));
                assert_eq!(out[l], one, "lane {l} flags {flags}");
            }
        }
    }
}
