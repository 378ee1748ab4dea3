//! Unkeyed v1 hashing of tagged messages in as few SHA-256 compressions as the message
//! needs. The tag block's compressed state is computed once; the rest of a typical
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

fn midstate(purpose: Purpose) -> [u32; 8] {
    let compute = || {
        let mut state = IV;
        compress256(&mut state, &[tag_block(Scheme::V1, purpose)]);
        state
    };
    #[cfg(feature = "std")]
    {
        use std::sync::OnceLock;
        static ULID: OnceLock<[u32; 8]> = OnceLock::new();
        static REVISION: OnceLock<[u32; 8]> = OnceLock::new();
        match purpose {
            Purpose::Ulid => *ULID.get_or_init(compute),
            Purpose::Revision => *REVISION.get_or_init(compute),
        }
    }
    #[cfg(not(feature = "std"))]
    compute()
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

impl Sink for Sha256 {
    fn put(&mut self, bytes: &[u8]) {
        Digest::update(self, bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
