//! The final blocks of many short v2 messages compressed together, [`LANES`] at a time:
//! a batch of ids costs a fraction of one compression each (the same bytes as one by one).

use super::blake3::{self, LANES};
use super::{Midstate, Short};

/// Up to [`LANES`] one-block v2 messages waiting to be compressed, each with its owner
/// (the caller's row). Messages are framed straight into their lane's buffer and read as
/// words only when the lanes are compressed: reading words right after the byte writes
/// of framing stalls the CPU (a store it cannot forward), which cost more than hashing.
pub(crate) struct Lanes {
    cv: [u32; 8],
    flags: u32,
    buffers: [Short; LANES],
    owner: [usize; LANES],
    count: usize,
}

impl Lanes {
    /// Lanes for a v2 state; `None` for SHA-256, which has no such path.
    pub(crate) fn new(state: &Midstate) -> Option<Self> {
        let Midstate::Blake3 { cv, key, .. } = state else {
            return None;
        };
        Some(Lanes {
            cv: *cv,
            flags: Midstate::blake3_flags(key) | blake3::CHUNK_END | blake3::ROOT,
            buffers: core::array::from_fn(|_| Short::new()),
            owner: [0; LANES],
            count: 0,
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

    /// Keeps the message framed into [`next`](Self::next)'s buffer if it is one block (1
    /// to 64 bytes after the tag); `false` leaves it there to be hashed alone.
    #[inline]
    pub(crate) fn keep(&mut self, owner: usize) -> bool {
        let short = &self.buffers[self.count];
        if short.overflow || short.len == 0 || short.len > 64 {
            return false;
        }
        self.owner[self.count] = owner;
        self.count += 1;
        true
    }

    pub(crate) fn is_full(&self) -> bool {
        self.count == LANES
    }

    /// Compresses the kept messages and hands each hash to `done` with its owner, in the
    /// order they were kept; the lanes are then empty.
    pub(crate) fn drain(&mut self, mut done: impl FnMut(usize, [u8; 32])) {
        if self.count == 0 {
            return;
        }
        // Unused lanes compress the last kept block again; their hashes are dropped.
        let last = self.count - 1;
        let blocks = core::array::from_fn(|l| &self.buffers[l.min(last)].buf[0]);
        let len = core::array::from_fn(|l| self.buffers[l.min(last)].len as u32);
        let hashes = blake3::compress_lanes(&self.cv, blocks, &len, self.flags);
        for (&owner, hash) in self.owner[..self.count].iter().zip(hashes) {
            done(owner, hash);
        }
        self.count = 0;
    }
}
