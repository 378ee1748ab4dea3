//! The final blocks of many short messages compressed together: eight v2 blocks at once in
//! AVX2 lanes, or four v1 blocks interleaved with SHA-NI. A batch of ids then costs a
//! fraction of one compression each (the same bytes as one by one).

use super::avx2::{Avx2, LANES};
use super::sha_ni::ShaNi;
use super::{blake3, sha256, Midstate, Short};

/// The first three big-endian words of a hash: the 80 bits an id keeps, and a few after.
#[inline]
pub(crate) fn head(hash: &[u8; 32]) -> [u32; 3] {
    core::array::from_fn(|i| {
        u32::from_be_bytes([
            hash[4 * i],
            hash[4 * i + 1],
            hash[4 * i + 2],
            hash[4 * i + 3],
        ])
    })
}

/// How many SHA-256 compressions run interleaved.
const SHA_STREAMS: usize = 4;

/// What the kept blocks are compressed with.
enum Kind {
    Blake3 {
        avx2: Avx2,
        cv: [u32; 8],
        flags: u32,
    },
    Sha {
        ni: ShaNi,
        /// The state after the tag block (and HMAC's inner padded key), and the bytes it
        /// has compressed.
        state: [u32; 8],
        prefix_len: u64,
        /// HMAC's outer state after its padded key, for keyed v1.
        outer: Option<[u32; 8]>,
    },
}

/// Up to [`LANES`] one-block messages waiting to be compressed, each with its owner (the
/// caller's row). Messages are framed straight into their lane's buffer and read as words
/// only when the lanes are compressed: reading words right after the byte writes of
/// framing stalls the CPU (a store it cannot forward), which cost more than hashing.
pub(crate) struct Lanes {
    kind: Kind,
    width: usize,
    buffers: [Short; LANES],
    owner: [usize; LANES],
    count: usize,
}

impl Lanes {
    /// Lanes for a state, if this CPU has a many-block path for its hash.
    pub(crate) fn new(state: &Midstate) -> Option<Self> {
        let (kind, width) = match state {
            Midstate::Blake3 { cv, key, .. } => {
                let flags = Midstate::blake3_flags(key) | blake3::CHUNK_END | blake3::ROOT;
                let avx2 = Avx2::detect()?;
                (
                    Kind::Blake3 {
                        avx2,
                        cv: *cv,
                        flags,
                    },
                    LANES,
                )
            }
            Midstate::Sha256(state) => (Self::sha(*state, 64, None)?, SHA_STREAMS),
            Midstate::Hmac { inner, outer } => (Self::sha(*inner, 128, Some(*outer))?, SHA_STREAMS),
        };
        Some(Lanes {
            kind,
            width,
            buffers: core::array::from_fn(|_| Short::new()),
            owner: [0; LANES],
            count: 0,
        })
    }

    fn sha(state: [u32; 8], prefix_len: u64, outer: Option<[u32; 8]>) -> Option<Kind> {
        let ni = ShaNi::detect()?;
        Some(Kind::Sha {
            ni,
            state,
            prefix_len,
            outer,
        })
    }

    /// The next lane's buffer, emptied, to frame a message into.
    #[inline]
    pub(crate) fn next(&mut self) -> &mut Short {
        let short = &mut self.buffers[self.count];
        *short = Short::new();
        short
    }

    /// The buffer [`next`](Self::next) handed out, as it was framed.
    #[inline]
    pub(crate) fn next_framed(&mut self) -> &mut Short {
        &mut self.buffers[self.count]
    }

    /// Keeps the message framed into [`next`](Self::next)'s buffer if it fits one block
    /// (BLAKE3: 1 to 64 bytes after the tag; SHA-256: 55, with its padding); `false`
    /// leaves it there to be hashed alone.
    #[inline]
    pub(crate) fn keep(&mut self, owner: usize) -> bool {
        let short = &self.buffers[self.count];
        let fits = match self.kind {
            Kind::Blake3 { .. } => (1..=64).contains(&short.len),
            Kind::Sha { .. } => short.len + 9 <= 64,
        };
        if short.overflow || !fits {
            return false;
        }
        self.owner[self.count] = owner;
        self.count += 1;
        true
    }

    pub(crate) fn is_full(&self) -> bool {
        self.count == self.width
    }

    /// Compresses the kept messages and hands the [`head`] of each hash to `done` with its
    /// owner, in the order they were kept; the lanes are then empty. Each goes to `done` as
    /// its lane is read, with no array of every lane's hash between (copying one cost a v1
    /// id in a batch a tenth of its time).
    pub(crate) fn drain(&mut self, mut done: impl FnMut(usize, [u32; 3])) {
        let count = core::mem::take(&mut self.count);
        if count == 0 {
            return;
        }
        // Unused lanes compress the last kept block again; their hashes are dropped.
        let last = count - 1;
        let owners = &self.owner[..count];
        match &self.kind {
            Kind::Blake3 { avx2, cv, flags } => {
                let blocks = core::array::from_fn(|l| &self.buffers[l.min(last)].buf[0]);
                let len = core::array::from_fn(|l| self.buffers[l.min(last)].len as u32);
                let hashes = avx2.compress_lanes(cv, blocks, &len, *flags);
                for (&owner, hash) in owners.iter().zip(&hashes) {
                    done(owner, head(hash));
                }
            }
            Kind::Sha {
                ni,
                state,
                prefix_len,
                outer,
            } => {
                for short in &mut self.buffers[..count] {
                    sha256::pad_in_place(&mut short.buf[0], *prefix_len, short.len);
                }
                let blocks: [&[u8; 64]; SHA_STREAMS] =
                    core::array::from_fn(|l| &self.buffers[l.min(last)].buf[0]);
                let mut states = ni.compress(state, blocks);
                if let Some(outer) = outer {
                    let blocks = states.map(|s| {
                        let mut block = [0u8; 64];
                        block[..32].copy_from_slice(&sha256::bytes(&s));
                        sha256::pad_in_place(&mut block, 64, 32);
                        block
                    });
                    states = ni.compress(outer, blocks.each_ref());
                }
                for (&owner, state) in owners.iter().zip(&states) {
                    done(owner, [state[0], state[1], state[2]]);
                }
            }
        }
    }
}
