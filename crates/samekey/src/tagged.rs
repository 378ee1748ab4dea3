//! Tagged hashing (spec §2.4) from the state after `block(tag)`. That first block is the
//! same for every message of a scheme, purpose and secret, so it is compressed once (at
//! compile time when unkeyed, when a deriver is made when keyed) and a message costs only
//! its own blocks: one SHA-256 or BLAKE3 compression for a typical id, two for keyed v1
//! (HMAC's inner and outer hashes, their padded-key blocks compressed in advance too).
//! A short message is framed on the stack ([`Short`]); a longer one into a `Vec`.

// The many-block paths: AVX2 and SHA-NI kernels, detected at run time, and the lanes
// that feed them. Elsewhere (NEON, WebAssembly) blocks go one by one, as fast as single
// ids, and the code stays out of the download.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod avx2;
mod blake3;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod lanes;
mod sha256;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
mod sha_ni;

use alloc::vec::Vec;

use sha2::block_api::compress256;
use sha2::Digest;

use crate::error::{Error, Result};
use crate::framing::Sink;
use crate::scheme::{tag_block, Purpose, Scheme, V2_SECRET_CONTEXT};

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub(crate) use self::lanes::{head, Lanes};

/// The hash state after `block(tag)` of one scheme, purpose and secret.
#[derive(Clone)]
pub(crate) enum Midstate {
    /// Unkeyed v1.
    Sha256([u32; 8]),
    /// Keyed v1, HMAC-SHA-256: the inner hash after `key ^ ipad` and `block(tag)`, the
    /// outer hash after `key ^ opad`.
    Hmac { inner: [u32; 8], outer: [u32; 8] },
    /// v2: the chaining value after `block(tag)`, and the derived key when keyed (the
    /// `blake3` crate hashes a message longer than one chunk from its start).
    Blake3 {
        cv: [u32; 8],
        key: Option<[u8; 32]>,
        purpose: Purpose,
    },
}

const fn sha256_tagged(purpose: Purpose) -> Midstate {
    Midstate::Sha256(sha256::compress_const(
        sha256::IV,
        &tag_block(Scheme::V1, purpose),
    ))
}

const fn blake3_tagged(key: &[u32; 8], flags: u32, purpose: Purpose) -> [u32; 8] {
    let block = blake3::words(&tag_block(Scheme::V2, purpose));
    blake3::compress_const(key, &block, 64, flags | blake3::CHUNK_START)
}

static V1_ULID: Midstate = sha256_tagged(Purpose::Ulid);
static V1_REVISION: Midstate = sha256_tagged(Purpose::Revision);
static V2_ULID: Midstate = Midstate::Blake3 {
    cv: blake3_tagged(&blake3::IV, 0, Purpose::Ulid),
    key: None,
    purpose: Purpose::Ulid,
};
static V2_REVISION: Midstate = Midstate::Blake3 {
    cv: blake3_tagged(&blake3::IV, 0, Purpose::Revision),
    key: None,
    purpose: Purpose::Revision,
};

/// A message that frames itself into a [`Sink`]; framed twice at most (stack, then heap).
pub(crate) trait Message {
    fn frame<S: Sink>(&self, sink: &mut S) -> Result<()>;
}

impl Midstate {
    /// The state of `scheme` (v1 or v2) and `purpose` after `block(tag)`, keyed when
    /// `secret` is given: `scheme_not_supported` for v0, `empty_secret` for `Some(b"")`.
    pub(crate) fn new(scheme: Scheme, purpose: Purpose, secret: Option<&[u8]>) -> Result<Self> {
        Ok(match (scheme, secret) {
            (Scheme::V0, _) => {
                return Err(Error::SchemeNotSupported {
                    scheme: "v0",
                    operation: "tagged hashing",
                })
            }
            (_, Some([])) => return Err(Error::EmptySecret),
            (_, None) => Self::unkeyed(scheme, purpose).clone(),
            (Scheme::V1, Some(secret)) => Self::hmac(secret, purpose),
            (Scheme::V2, Some(secret)) => {
                let key = ::blake3::derive_key(V2_SECRET_CONTEXT, secret);
                let words = core::array::from_fn(|i| {
                    u32::from_le_bytes([key[4 * i], key[4 * i + 1], key[4 * i + 2], key[4 * i + 3]])
                });
                Midstate::Blake3 {
                    cv: blake3_tagged(&words, blake3::KEYED_HASH, purpose),
                    key: Some(key),
                    purpose,
                }
            }
        })
    }

    /// The unkeyed state of a hashing scheme (v0 is refused before this is asked).
    #[inline]
    pub(crate) fn unkeyed(scheme: Scheme, purpose: Purpose) -> &'static Self {
        match (scheme, purpose) {
            (Scheme::V2, Purpose::Ulid) => &V2_ULID,
            (Scheme::V2, Purpose::Revision) => &V2_REVISION,
            (_, Purpose::Ulid) => &V1_ULID,
            (_, Purpose::Revision) => &V1_REVISION,
        }
    }

    /// HMAC (RFC 2104): a key longer than a block is hashed first, then zero-padded.
    fn hmac(secret: &[u8], purpose: Purpose) -> Self {
        let mut key = [0u8; 64];
        if secret.len() > 64 {
            key[..32].copy_from_slice(&sha2::Sha256::digest(secret));
        } else {
            key[..secret.len()].copy_from_slice(secret);
        }
        let pad = |byte: u8| key.map(|k| k ^ byte);
        let (mut inner, mut outer) = (sha256::IV, sha256::IV);
        compress256(&mut inner, &[pad(0x36), tag_block(Scheme::V1, purpose)]);
        compress256(&mut outer, &[pad(0x5c)]);
        Midstate::Hmac { inner, outer }
    }

    fn blake3_flags(key: &Option<[u8; 32]>) -> u32 {
        match key {
            Some(_) => blake3::KEYED_HASH,
            None => 0,
        }
    }

    /// The hash of `block(tag) || message`; a framing error comes before any hashing.
    #[inline]
    pub(crate) fn digest(&self, message: &impl Message) -> Result<[u8; 32]> {
        let mut short = Short::new();
        message.frame(&mut short)?;
        self.digest_framed(&mut short, message)
    }

    /// [`digest`](Self::digest) of a message already framed into `short`.
    #[inline]
    pub(crate) fn digest_framed(
        &self,
        short: &mut Short,
        message: &impl Message,
    ) -> Result<[u8; 32]> {
        if let Some(digest) = self.finish_short(short) {
            return Ok(digest);
        }
        let mut long = Vec::new();
        message.frame(&mut long)?;
        Ok(self.hash(&long))
    }

    /// The hash of `block(tag) || tail`, for a tail of any length.
    pub(crate) fn hash(&self, tail: &[u8]) -> [u8; 32] {
        match self {
            Midstate::Sha256(state) => sha256::finish(*state, 64, tail),
            Midstate::Hmac { inner, outer } => {
                sha256::finish(*outer, 64, &sha256::finish(*inner, 128, tail))
            }
            Midstate::Blake3 { cv, key, purpose } => {
                if !tail.is_empty() && 64 + tail.len() <= blake3::CHUNK_LEN {
                    return blake3::finish(cv, Self::blake3_flags(key), tail);
                }
                let mut h = match key {
                    Some(key) => ::blake3::Hasher::new_keyed(key),
                    None => ::blake3::Hasher::new(),
                };
                h.update(&tag_block(Scheme::V2, *purpose));
                h.update(tail);
                *h.finalize().as_bytes()
            }
        }
    }

    /// The hash of what `short` holds, padded where it lies; `None` if it overflowed. Not
    /// inlined into the generic framing in the size-optimized WebAssembly build: there it
    /// made the framing's small copies calls (+150 ns per v1 id in Node).
    #[cfg_attr(target_arch = "wasm32", inline(never))]
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn finish_short(&self, short: &mut Short) -> Option<[u8; 32]> {
        if short.overflow {
            return None;
        }
        let len = short.len;
        Some(match self {
            Midstate::Sha256(state) => sha256::finish_in_place(*state, 64, &mut short.buf, len),
            Midstate::Hmac { inner, outer } => {
                let inner = sha256::finish_in_place(*inner, 128, &mut short.buf, len);
                let mut buf = [[0u8; 64]; 2];
                buf[0][..32].copy_from_slice(&inner);
                sha256::finish_in_place(*outer, 64, &mut buf, 32)
            }
            Midstate::Blake3 { cv, key, .. } if len > 0 => {
                Self::finish_short_blake3(cv, key, short)
            }
            Midstate::Blake3 { .. } => self.hash(&[]),
        })
    }

    /// [`finish_short`](Self::finish_short) for BLAKE3. Out of line: inlined there, its
    /// compressions made every prepared SHA-256 id slower (`ulid_vs_floor`, three runs
    /// each: v1 prepared 76-77 -> 66-71 ns, keyed v1 prepared 120-124 -> 111-119; v2 the same).
    /// WebAssembly keeps the inlined form: it fits the browser build's size budget.
    #[cfg_attr(not(target_arch = "wasm32"), inline(never))]
    #[cfg_attr(target_arch = "wasm32", inline(always))]
    fn finish_short_blake3(cv: &[u32; 8], key: &Option<[u8; 32]>, short: &Short) -> [u8; 32] {
        let len = short.len;
        let flags = Self::blake3_flags(key);
        let last = flags | blake3::CHUNK_END | blake3::ROOT;
        // Bytes past `len` are still the zeros of `Short::new`: BLAKE3's padding.
        let first = blake3::words(&short.buf[0]);
        let hash = if len <= 64 {
            blake3::compress(cv, &first, len as u32, last)
        } else {
            let cv = blake3::compress(cv, &first, 64, flags);
            let second = blake3::words(&short.buf[1]);
            blake3::compress(&cv, &second, (len - 64) as u32, last)
        };
        blake3::bytes(&hash)
    }
}

/// A sink for a short message: its bytes stay in two stack blocks. A message that does not
/// fit is noted, not truncated, and hashed from a `Vec` instead, which keeps the rare long
/// case out of this type and each `put` a plain copy.
pub(crate) struct Short {
    buf: [[u8; 64]; 2],
    len: usize,
    overflow: bool,
}

/// Two blocks hold 119 message bytes and SHA-256's 9 bytes of padding.
const ROOM: usize = 128 - 9;

impl Short {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Short {
            buf: [[0; 64]; 2],
            len: 0,
            overflow: false,
        }
    }
}

impl Sink for Short {
    #[cfg(target_arch = "wasm32")]
    #[inline(always)]
    fn put4(&mut self, bytes: [u8; 4]) {
        let end = self.len + 4;
        let to = self.buf.as_flattened_mut()[self.len..].first_chunk_mut::<4>();
        match to {
            // A 4-byte store, not a copy: the size-optimized WebAssembly build calls a
            // function for each `copy_from_slice` it does not inline.
            Some(to) if end <= ROOM => {
                *to = bytes;
                self.len = end;
            }
            _ => self.overflow = true,
        }
    }

    // Inlined so that the 4-byte length prefixes become single stores, not memcpy calls.
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if end <= ROOM {
            let to = &mut self.buf.as_flattened_mut()[self.len..end];
            // Natively fixed-size moves for an id's short fields: a `memcpy` call costs
            // more. WebAssembly copies with one `memory.copy` instruction.
            if cfg!(not(target_arch = "wasm32")) && bytes.len() <= 32 {
                copy_short(to, bytes);
            } else {
                to.copy_from_slice(bytes);
            }
            self.len = end;
        } else {
            self.overflow = true;
        }
    }
}

/// `to.copy_from_slice(from)` for up to 32 bytes as two overlapping moves of a fixed
/// size (a byte loop, LLVM turns back into a `memcpy` call: 2 ns of a v1 id in a batch).
#[inline(always)]
fn copy_short(to: &mut [u8], from: &[u8]) {
    let n = from.len();
    debug_assert!(n == to.len() && n <= 32);
    #[inline(always)]
    fn two<const K: usize>(to: &mut [u8], from: &[u8]) {
        let n = from.len();
        to[..K].copy_from_slice(&from[..K]);
        to[n - K..].copy_from_slice(&from[n - K..]);
    }
    match n {
        16.. => two::<16>(to, from),
        8.. => two::<8>(to, from),
        4.. => two::<4>(to, from),
        2.. => two::<2>(to, from),
        1 => to[0] = from[0],
        _ => {}
    }
}

#[cfg(test)]
mod tests;
