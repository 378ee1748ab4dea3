//! A prepared deriver: scheme, namespace and secret checked, and the tag block hashed,
//! once (the core's `UlidDeriver`), so each id is the fields' hashing alone. A request
//! packed per call (`samekey_derive`) prepares them again every time.

use std::ffi::c_char;
use std::num::NonZeroUsize;

use samekey::timestamp::from_millis_i128;
use samekey::UlidDeriver;
use samekey_wire::{self as wire, Request};

use crate::pointers::*;
use crate::status::{call, Failure, Outcome, SamekeyStatus};

/// A deriver made by `samekey_deriver_new`; shared by any number of threads (it is
/// immutable), freed once with `samekey_deriver_free`.
pub struct SamekeyDeriver(UlidDeriver);

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

/// The 16-byte id of `count` fields at `time_ms`, packed as items (a u32 LE length, then
/// the bytes) in `fields_len` bytes. A few fields are read without allocating.
#[no_mangle]
pub extern "C" fn samekey_deriver_derive(
    handle: *const SamekeyDeriver,
    fields: *const u8,
    fields_len: usize,
    count: usize,
    time_ms: i64,
    id: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let d = deriver(handle)?;
        let t = from_millis_i128(i128::from(time_ms))?;
        let mut items = Request::items(bytes(fields, fields_len)?, count);
        let ulid = items.with_fields(|_, fields| Ok(d.derive(t, fields)?))?;
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
        let dst = out(ids, 16 * rows)?;
        let times = times(times_ms, rows)?;
        let mut items = Request::items(bytes(fields, fields_len)?, rows * width);
        let mut slots = dst.chunks_exact_mut(16);
        wire::derive_rows_with(
            d,
            &mut items,
            width,
            times,
            NonZeroUsize::new(max_threads),
            |id| {
                if let Some(slot) = slots.next() {
                    slot.copy_from_slice(id.as_bytes());
                }
            },
        )?;
        Ok(())
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
