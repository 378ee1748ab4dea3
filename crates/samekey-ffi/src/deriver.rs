//! A prepared deriver: scheme, namespace and secret checked, and the tag block hashed,
//! once (the core's `UlidDeriver`), so each id is the fields' hashing alone. A request
//! packed per call (`samekey_derive`) prepares them again every time.

use std::ffi::c_char;
use std::num::NonZeroUsize;

use samekey::timestamp::from_millis_i128;
use samekey::{Ulid, UlidDeriver};
use samekey_wire as wire;

use crate::pointers::*;
use crate::status::{call, Failure, Outcome, SamekeyStatus};

/// A deriver made by `samekey_deriver_new`; shared by any number of threads (it is
/// immutable), freed once with `samekey_deriver_free`.
pub struct SamekeyDeriver(UlidDeriver);

/// Fields packed as items (a u32 LE length, then the bytes), up to the buffer's end.
struct Items<'a>(&'a [u8]);

impl<'a> Iterator for Items<'a> {
    type Item = Outcome<&'a [u8]>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.0.is_empty() {
            return None;
        }
        let read = || {
            let (len, rest) = self
                .0
                .split_first_chunk::<4>()
                .ok_or(Failure::Argument("a field's length is cut"))?;
            let len = u32::from_le_bytes(*len) as usize;
            let field = rest.get(..len).ok_or(Failure::Argument("a field is cut"))?;
            Ok((field, &rest[len..]))
        };
        Some(read().map(|(field, rest)| {
            self.0 = rest;
            field
        }))
    }
}

fn deriver<'a>(d: *const SamekeyDeriver) -> Outcome<&'a UlidDeriver> {
    if d.is_null() {
        return Err(Failure::Argument("NULL deriver"));
    }
    // SAFETY: a deriver from samekey_deriver_new, not yet freed.
    Ok(unsafe { &(*d).0 })
}

/// A deriver of `scheme`, `namespace` and the secret (when `has_secret`), checked as
/// `samekey_prepare_deriver` checks them.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn samekey_deriver_new(
    scheme: *const u8,
    scheme_len: usize,
    namespace: *const u8,
    namespace_len: usize,
    secret: *const u8,
    secret_len: usize,
    has_secret: bool,
    deriver: *mut *mut SamekeyDeriver,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let secret = opt_bytes(secret, secret_len, has_secret)?;
        let scheme = text(scheme, scheme_len)?
            .parse()
            .map_err(wire::WireError::from)?;
        let made = UlidDeriver::new(scheme, text(namespace, namespace_len)?, secret)?;
        set(deriver, Box::into_raw(Box::new(SamekeyDeriver(made))))
    })
}

/// The 16-byte id of `fields` (packed items, `fields_len` bytes) at `time_ms`. Up to 16
/// fields are read without allocating.
#[no_mangle]
pub extern "C" fn samekey_deriver_derive(
    handle: *const SamekeyDeriver,
    fields: *const u8,
    fields_len: usize,
    time_ms: i64,
    id: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let d = deriver(handle)?;
        let t = from_millis_i128(i128::from(time_ms))?;
        let packed = bytes(fields, fields_len)?;
        let mut stack: [&[u8]; 16] = [&[]; 16];
        let mut count = 0;
        let mut heap = Vec::new();
        for field in Items(packed) {
            let field = field?;
            if count < stack.len() {
                stack[count] = field;
            } else {
                if heap.is_empty() {
                    heap.extend_from_slice(&stack);
                }
                heap.push(field);
            }
            count += 1;
        }
        let list = if count <= stack.len() {
            &stack[..count]
        } else {
            &heap[..]
        };
        let ulid = d.derive(t, list)?;
        out(id, 16)?.copy_from_slice(ulid.as_bytes());
        Ok(())
    })
}

/// The ids of `rows` rows of `width` fields (packed items, row after row) at `times_ms`,
/// 16 bytes each into `ids`, on up to `max_threads` threads (0: one per core) for batches
/// of `PARALLEL_MIN_ROWS` rows or more. Rows are read up to the first whose fields or
/// time cannot be; the rows before it are derived, then its error is returned.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn samekey_deriver_derive_many(
    handle: *const SamekeyDeriver,
    fields: *const u8,
    fields_len: usize,
    width: usize,
    times_ms: *const i64,
    rows: usize,
    max_threads: usize,
    ids: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let d = deriver(handle)?;
        if width == 0 {
            return Err(samekey::Error::NoFields.into());
        }
        let dst = out(ids, 16 * rows)?;
        let times = if rows == 0 {
            &[][..]
        } else if times_ms.is_null() {
            return Err(Failure::Argument("NULL times"));
        } else {
            // SAFETY: the caller provides `rows` times.
            unsafe { std::slice::from_raw_parts(times_ms, rows) }
        };
        let mut items = Items(bytes(fields, fields_len)?);
        let (mut ts, mut list) = (Vec::with_capacity(rows), Vec::with_capacity(rows * width));
        let mut unread: Outcome = Ok(());
        for &t in times {
            let start = list.len();
            let read = (0..width)
                .try_for_each(|_| {
                    list.push(
                        items
                            .next()
                            .unwrap_or(Err(Failure::Argument("fewer fields than rows × width")))?,
                    );
                    Ok(())
                })
                .and_then(|()| Ok(from_millis_i128(i128::from(t))?));
            match read {
                Ok(t) => ts.push(t),
                Err(e) => {
                    list.truncate(start);
                    unread = Err(e);
                    break;
                }
            }
        }
        let mut derived: Vec<Ulid> = Vec::with_capacity(ts.len());
        let result = d.derive_batch(
            &ts,
            &list,
            width,
            NonZeroUsize::new(max_threads),
            &mut derived,
        );
        for (slot, id) in dst.chunks_exact_mut(16).zip(&derived) {
            slot.copy_from_slice(id.as_bytes());
        }
        result?;
        unread
    })
}

/// Frees a deriver; NULL is allowed.
#[no_mangle]
pub extern "C" fn samekey_deriver_free(deriver: *mut SamekeyDeriver) {
    if !deriver.is_null() {
        // SAFETY: a deriver from samekey_deriver_new, freed once.
        drop(unsafe { Box::from_raw(deriver) });
    }
}
