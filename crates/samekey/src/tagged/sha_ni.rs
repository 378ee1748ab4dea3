//! SHA-256 compressions interleaved with the SHA-NI instructions: one block each, from one
//! state. A compression is a chain of dependent rounds; independent chains keep the unit
//! busy while each waits on its previous round (four measured fastest: 46 ns per v1 id in
//! a batch, against 61 for two, 51 for eight and 73 one by one). Adapted from the `sha2` crate's
//! `x86_sha.rs` (one stream). Intrinsics run only once [`ShaNi::detect`] has seen the
//! CPU features; loads and stores touch whole 16-byte quarters of blocks and states.
#![allow(unsafe_code)]

use core::arch::x86_64::*;

use super::sha256::K;

/// Proof that this CPU has SHA-NI and SSE4.1.
#[derive(Clone, Copy)]
pub(crate) struct ShaNi(());

impl ShaNi {
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        let has = std::is_x86_feature_detected!("sha")
            && std::is_x86_feature_detected!("sse4.1")
            && std::is_x86_feature_detected!("ssse3");
        has.then_some(ShaNi(()))
    }

    /// `state` compressed with each of `blocks`, separately.
    #[inline]
    pub(crate) fn compress<const N: usize>(
        self,
        state: &[u32; 8],
        blocks: [&[u8; 64]; N],
    ) -> [[u32; 8]; N] {
        // SAFETY: `self` proves the features are present.
        unsafe { compress_n(state, blocks) }
    }
}

#[inline]
#[target_feature(enable = "sha,sse4.1,ssse3")]
unsafe fn rounds4<const N: usize>(r: usize, s: &mut [[__m128i; 2]; N], rest: [__m128i; N]) {
    let rk = _mm_set_epi32(
        K[4 * r + 3] as i32,
        K[4 * r + 2] as i32,
        K[4 * r + 1] as i32,
        K[4 * r] as i32,
    );
    let mut t = [rk; N];
    for j in 0..N {
        t[j] = _mm_add_epi32(rest[j], rk);
        s[j][1] = _mm_sha256rnds2_epu32(s[j][1], s[j][0], t[j]);
    }
    for j in 0..N {
        s[j][0] = _mm_sha256rnds2_epu32(s[j][0], s[j][1], _mm_shuffle_epi32(t[j], 0x0E));
    }
}

#[inline]
#[target_feature(enable = "sha,sse4.1,ssse3")]
unsafe fn schedule<const N: usize>(w: &mut [[__m128i; 4]; N], i: usize) -> [__m128i; N] {
    let mut out = [w[0][i]; N];
    for j in 0..N {
        let t1 = _mm_sha256msg1_epu32(w[j][i], w[j][(i + 1) % 4]);
        let t2 = _mm_alignr_epi8(w[j][(i + 3) % 4], w[j][(i + 2) % 4], 4);
        w[j][i] = _mm_sha256msg2_epu32(_mm_add_epi32(t1, t2), w[j][(i + 3) % 4]);
        out[j] = w[j][i];
    }
    out
}

#[inline]
#[target_feature(enable = "sha,sse4.1,ssse3")]
unsafe fn load_block(block: &[u8; 64]) -> [__m128i; 4] {
    let mask = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);
    let at = |i: usize| {
        // SAFETY: 16 bytes at 16 * i < 64; `loadu` needs no alignment.
        let w = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) };
        _mm_shuffle_epi8(w, mask)
    };
    [at(0), at(1), at(2), at(3)]
}

#[target_feature(enable = "sha,sse4.1,ssse3")]
unsafe fn compress_n<const N: usize>(state: &[u32; 8], blocks: [&[u8; 64]; N]) -> [[u32; 8]; N] {
    unsafe {
        // SAFETY: 32 readable bytes.
        let dcba = _mm_loadu_si128(state.as_ptr().cast());
        let hgfe = _mm_loadu_si128(state.as_ptr().add(4).cast());
        let cdab = _mm_shuffle_epi32(dcba, 0xB1);
        let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
        let abef = _mm_alignr_epi8(cdab, efgh, 8);
        let cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
        let mut s = [[abef, cdgh]; N];
        let mut w = [[abef; 4]; N];
        for (w, block) in w.iter_mut().zip(blocks) {
            *w = load_block(block);
        }
        // Round groups 0..4 use the message words as loaded; then each group schedules
        // the next words first. Every stream takes each group in step.
        for i in 0..4 {
            let mut rest = [abef; N];
            for (rest, w) in rest.iter_mut().zip(&w) {
                *rest = w[i];
            }
            rounds4(i, &mut s, rest);
        }
        for r in (4..16).step_by(4) {
            for i in 0..4 {
                let rest = schedule(&mut w, i);
                rounds4(r + i, &mut s, rest);
            }
        }
        let mut out = [[0u32; 8]; N];
        for (out, [abef2, cdgh2]) in out.iter_mut().zip(s) {
            let abef2 = _mm_add_epi32(abef2, abef);
            let cdgh2 = _mm_add_epi32(cdgh2, cdgh);
            let feba = _mm_shuffle_epi32(abef2, 0x1B);
            let dchg = _mm_shuffle_epi32(cdgh2, 0xB1);
            let dcba = _mm_blend_epi16(feba, dchg, 0xF0);
            let hgef = _mm_alignr_epi8(dchg, feba, 8);
            // SAFETY: 32 writable bytes.
            _mm_storeu_si128(out.as_mut_ptr().cast(), dcba);
            _mm_storeu_si128(out.as_mut_ptr().add(4).cast(), hgef);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equals_the_sha2_crates_compression() {
        let Some(ni) = ShaNi::detect() else {
            // Nothing to compare on this CPU; batches use the fallback, which other tests cover.
            eprintln!("skipped: no SHA-NI on this CPU");
            return;
        };
        let state = super::super::sha256::IV.map(|w| w.rotate_left(7) ^ 0x5a5a_5a5a);
        let blocks: [[u8; 64]; 4] =
            core::array::from_fn(|j| core::array::from_fn(|i| (i * 7 + j * 31) as u8));
        let got = ni.compress(&state, blocks.each_ref());
        for (block, got) in blocks.iter().zip(got) {
            let mut want = state;
            sha2::block_api::compress256(&mut want, core::slice::from_ref(block));
            assert_eq!(got, want);
        }
    }
}
