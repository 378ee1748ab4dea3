//! Many ids in one call: rows split over threads above a size where that pays, and on
//! x86-64 the final blocks of several rows compressed together (`tagged::Lanes`). The ids, and on
//! an error the error, are those of deriving row by row (spec §4).

use alloc::vec::Vec;
use core::num::NonZeroUsize;

use crate::error::{Error, Result};
#[cfg(all(feature = "std", target_arch = "x86_64"))]
use crate::tagged::{head, Lanes, Message, Midstate};
#[cfg(all(feature = "std", target_arch = "x86_64"))]
use crate::timestamp;
#[cfg(all(feature = "std", target_arch = "x86_64"))]
use crate::ulid::{assemble_head, Fields, Prefix};
use crate::ulid::{Ulid, UlidDeriver};

/// Batches of fewer rows than this run on the calling thread, and each thread of a larger
/// batch gets at least half this many: below it, starting a thread costs more than it
/// saves (`cargo bench -p samekey --bench batch_threads` shows the scaling).
pub const PARALLEL_MIN_ROWS: usize = 16_384;

/// The first failing row of a part of a batch, and its error.
type Failure = (usize, Error);

impl UlidDeriver {
    /// The ids of rows of `width` fields, appended to `out` in row order: row `i` is
    /// `fields[i * width..(i + 1) * width]` at `times_ms[i]`. The same ids, and the same
    /// error, as [`derive`](Self::derive) row by row: on an error, `out` holds the ids of
    /// the rows before the first failing row, and that row's error is returned.
    ///
    /// A batch of [`PARALLEL_MIN_ROWS`] rows or more is split over up to `max_threads`
    /// threads, and at most one per available core (`None`: one per core). Without the
    /// `std` feature, and in WebAssembly, it runs on the calling thread.
    ///
    /// ```
    /// use samekey::{Scheme, UlidDeriver};
    /// let deriver = UlidDeriver::new(Scheme::V2, "posts", None)?;
    /// let fields = ["hello", "en", "world", "de"];
    /// let mut ids = Vec::new();
    /// deriver.derive_batch(&[1_700_000_000_000, 1_700_000_000_001], &fields, 2, None, &mut ids)?;
    /// assert_eq!(ids[1], deriver.derive(1_700_000_000_001, &["world", "de"])?);
    /// # Ok::<(), samekey::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If `fields.len() != width * times_ms.len()`.
    pub fn derive_batch<F: AsRef<[u8]> + Sync>(
        &self,
        times_ms: &[u64],
        fields: &[F],
        width: usize,
        max_threads: Option<NonZeroUsize>,
        out: &mut Vec<Ulid>,
    ) -> Result<()> {
        assert!(
            fields.len() == width * times_ms.len(),
            "derive_batch: `width` fields for every time"
        );
        let start = out.len();
        out.resize(start + times_ms.len(), Ulid::from_bytes([0; 16]));
        let slots = &mut out[start..];
        let rows = Rows {
            times: times_ms,
            fields,
            width,
        };
        match self.fill_parallel(rows, slots, threads_for(times_ms.len(), max_threads)) {
            Ok(()) => Ok(()),
            Err((row, error)) => {
                out.truncate(start + row);
                Err(error)
            }
        }
    }

    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    fn fill_parallel<F: AsRef<[u8]> + Sync>(
        &self,
        rows: Rows<'_, F>,
        slots: &mut [Ulid],
        threads: usize,
    ) -> core::result::Result<(), Failure> {
        if threads <= 1 {
            return self.fill(rows, slots);
        }
        let per = rows.times.len().div_ceil(threads);
        let failures: Vec<Option<Failure>> = std::thread::scope(|scope| {
            let parts: Vec<_> = slots
                .chunks_mut(per)
                .enumerate()
                .map(|(i, part)| {
                    let rows = rows.part(i * per, part.len());
                    let first = i * per;
                    scope.spawn(move || self.fill(rows, part).err().map(|(r, e)| (first + r, e)))
                })
                .collect();
            parts
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        // Parts are in row order: the first failure found is the batch's first.
        match failures.into_iter().flatten().next() {
            Some(failure) => Err(failure),
            None => Ok(()),
        }
    }

    #[cfg(not(all(feature = "std", not(target_arch = "wasm32"))))]
    fn fill_parallel<F: AsRef<[u8]> + Sync>(
        &self,
        rows: Rows<'_, F>,
        slots: &mut [Ulid],
        _threads: usize,
    ) -> core::result::Result<(), Failure> {
        self.fill(rows, slots)
    }

    /// Fills `slots` on this thread, stopping at the first failing row.
    fn fill<F: AsRef<[u8]>>(
        &self,
        rows: Rows<'_, F>,
        slots: &mut [Ulid],
    ) -> core::result::Result<(), Failure> {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if let Prefix::Tagged { state, namespace } = &self.prefix {
            if let Some(lanes) = Lanes::new(state) {
                return fill_lanes(lanes, state, namespace.as_bytes(), rows, slots);
            }
        }
        rows.each(|i, t, row| {
            slots[i] = self.derive(t, row)?;
            Ok(())
        })
    }
}

/// [`UlidDeriver::fill`] through lanes: rows framed into lane buffers, compressed when
/// the lanes are full.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
fn fill_lanes<F: AsRef<[u8]>>(
    mut lanes: Lanes,
    state: &Midstate,
    namespace: &[u8],
    rows: Rows<'_, F>,
    slots: &mut [Ulid],
) -> core::result::Result<(), Failure> {
    let times = rows.times;
    let mut put = |i: usize, head: [u32; 3]| {
        // The time passed `check_ms` when the row was framed.
        slots[i] = assemble_head(times[i], head);
    };
    let result = rows.each(|i, t, row| {
        timestamp::check_ms(t)?;
        let message = Fields {
            namespace,
            fields: row,
        };
        message.frame(lanes.next())?;
        if lanes.keep(i) {
            if lanes.is_full() {
                lanes.drain(&mut put);
            }
            return Ok(());
        }
        // Too long for one block: hashed alone, from the lane's buffer.
        let digest = state.digest_framed(lanes.next_framed(), &message)?;
        put(i, head(&digest));
        Ok(())
    });
    // Rows kept before a failing one are still the batch's output.
    lanes.drain(&mut put);
    result
}

/// How many threads a batch of `rows` uses.
fn threads_for(rows: usize, max_threads: Option<NonZeroUsize>) -> usize {
    if rows < PARALLEL_MIN_ROWS {
        return 1;
    }
    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
    #[cfg(not(all(feature = "std", not(target_arch = "wasm32"))))]
    let cores = 1;
    let cap = max_threads.map_or(cores, NonZeroUsize::get);
    cap.min(cores).min(rows / (PARALLEL_MIN_ROWS / 2)).max(1)
}

/// The rows of a batch: a time and `width` fields each.
struct Rows<'a, F> {
    times: &'a [u64],
    fields: &'a [F],
    width: usize,
}

impl<F> Clone for Rows<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Rows<'_, F> {}

impl<'a, F> Rows<'a, F> {
    /// `len` rows from row `first`.
    #[cfg(all(feature = "std", not(target_arch = "wasm32")))]
    fn part(self, first: usize, len: usize) -> Self {
        Rows {
            times: &self.times[first..first + len],
            fields: &self.fields[first * self.width..(first + len) * self.width],
            width: self.width,
        }
    }

    /// Calls `f(row index, time, fields)` for each row until one fails.
    #[inline]
    fn each(
        self,
        mut f: impl FnMut(usize, u64, &'a [F]) -> Result<()>,
    ) -> core::result::Result<(), Failure> {
        for (i, &t) in self.times.iter().enumerate() {
            let row = &self.fields[i * self.width..(i + 1) * self.width];
            f(i, t, row).map_err(|e| (i, e))?;
        }
        Ok(())
    }
}
