//! Deterministic ULIDs: derivation (one, many), key rings, verification, ULID text.

use std::ffi::c_char;

use samekey::timestamp::Millis;
use samekey::{Scheme, Ulid};
use samekey_wire as wire;

use crate::pointers::*;
use crate::status::{call, Failure, Outcome, SamekeyStatus};

/// A C `int64_t` of milliseconds; its range is checked in the core's order (spec §4.4).
fn time(ms: i64) -> Millis {
    Millis::from(ms)
}

pub(crate) fn id_of(ptr: *const u8) -> Outcome<Ulid> {
    let b: [u8; 16] = bytes(ptr, 16)?
        .try_into()
        .map_err(|_| Failure::Argument("an id is 16 bytes"))?;
    Ok(Ulid::from_bytes(b))
}

/// The scheme code (0, 1, 2) of "v0", "v1", "v2", checking a deriver's settings.
#[no_mangle]
pub extern "C" fn samekey_prepare_deriver(
    scheme: *const u8,
    scheme_len: usize,
    namespace: *const u8,
    namespace_len: usize,
    secret: *const u8,
    secret_len: usize,
    has_secret: bool,
    code: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let secret = opt_bytes(secret, secret_len, has_secret)?;
        set(
            code,
            wire::prepare_deriver(
                text(scheme, scheme_len)?,
                text(namespace, namespace_len)?,
                secret,
            )?,
        )
    })
}

/// Derives `rows` rows of `width` packed fields on up to `max_threads` threads (0: every
/// core), handing each id to `write` in order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn derive_rows(
    packed: *const u8,
    packed_len: usize,
    width: usize,
    times_ms: *const i64,
    rows: usize,
    max_threads: usize,
    mut write: impl FnMut(Ulid),
) -> Outcome {
    let checked = times(times_ms, rows)?;
    Ok(wire::derive_many_ms(
        bytes(packed, packed_len)?,
        width,
        checked,
        std::num::NonZeroUsize::new(max_threads),
        &mut write,
    )?)
}

/// The 16-byte id of a packed request at `time_ms`.
#[no_mangle]
pub extern "C" fn samekey_derive(
    packed: *const u8,
    packed_len: usize,
    time_ms: i64,
    id: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let ulid = wire::derive_ms(bytes(packed, packed_len)?, time(time_ms))?;
        out(id, 16)?.copy_from_slice(ulid.as_bytes());
        Ok(())
    })
}

/// The ids of `rows` rows of `width` packed fields, 16 bytes each into `ids`, on up to
/// `max_threads` threads (0: one per core) for batches of `PARALLEL_MIN_ROWS` rows or more.
#[no_mangle]
pub extern "C" fn samekey_derive_many(
    packed: *const u8,
    packed_len: usize,
    width: usize,
    times_ms: *const i64,
    rows: usize,
    max_threads: usize,
    ids: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let dst = out(ids, 16 * rows)?;
        let mut at = 0;
        derive_rows(
            packed,
            packed_len,
            width,
            times_ms,
            rows,
            max_threads,
            |id| {
                dst[at..at + 16].copy_from_slice(id.as_bytes());
                at += 16;
            },
        )
    })
}

/// As `samekey_derive_many`, writing the 26-character ULID texts back to back (no NULs)
/// into `texts` (26 × `rows` bytes): one call for the ids and their text.
#[no_mangle]
pub extern "C" fn samekey_derive_many_text(
    packed: *const u8,
    packed_len: usize,
    width: usize,
    times_ms: *const i64,
    rows: usize,
    max_threads: usize,
    texts: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let dst = out(texts.cast::<u8>(), 26 * rows)?;
        let mut at = 0;
        derive_rows(
            packed,
            packed_len,
            width,
            times_ms,
            rows,
            max_threads,
            |id| {
                dst[at..at + 26].copy_from_slice(&id.to_text_bytes());
                at += 26;
            },
        )
    })
}

/// The exact bytes hashed for a packed request's id; free with `samekey_bytes_free`.
#[no_mangle]
pub extern "C" fn samekey_ulid_message(
    packed: *const u8,
    packed_len: usize,
    message: *mut *mut u8,
    message_len: *mut usize,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        alloc_bytes(
            message,
            message_len,
            wire::ulid_message(bytes(packed, packed_len)?)?,
        )
    })
}

/// "scheme ULID scheme ULID ...": the id under every scheme of the request's ring.
#[no_mangle]
pub extern "C" fn samekey_candidates(
    packed: *const u8,
    packed_len: usize,
    time_ms: i64,
    result: *mut *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        alloc_string(
            result,
            wire::candidates_ms(bytes(packed, packed_len)?, time(time_ms))?,
        )
    })
}

/// The scheme ("v0".."v2", 3 bytes with the NUL) of the request's ring that derived `id`.
#[no_mangle]
pub extern "C" fn samekey_verify(
    packed: *const u8,
    packed_len: usize,
    id: *const u8,
    time_ms: i64,
    scheme: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let s = wire::verify_ms(bytes(packed, packed_len)?, &id_of(id)?, time(time_ms))?;
        write_text(scheme, 3, s)
    })
}

/// Scheme codes of the key ring of `accept` (`accept_len` scheme names, newest first:
/// the first is the primary), primary first, into `codes` (3 bytes); their count. An
/// empty list is `unknown_scheme`.
#[no_mangle]
pub extern "C" fn samekey_prepare_ring(
    accept: *const SamekeyText,
    accept_len: usize,
    codes: *mut u8,
    count: *mut usize,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let names = texts(accept, accept_len)?;
        let found = wire::prepare_ring(&names)?;
        out(codes, 3)?[..found.len()].copy_from_slice(&found);
        set(count, found.len())
    })
}

/// The ring's scheme of a key text.
#[no_mangle]
pub extern "C" fn samekey_ring_scheme_of_key(
    codes: *const u8,
    count: usize,
    key: *const u8,
    key_len: usize,
    scheme: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        write_text(
            scheme,
            3,
            wire::scheme_of_key(bytes(codes, count)?, text(key, key_len)?)?,
        )
    })
}

/// The revision key (at most 71 characters and a NUL) under the ring of `codes`, whose
/// scheme is the content hash's, which the ring must accept (spec §9.1); the parent is
/// present when `has_parent`.
#[no_mangle]
pub extern "C" fn samekey_ring_revision_key(
    codes: *const u8,
    count: usize,
    content_hash: *const u8,
    content_hash_len: usize,
    parent: *const u8,
    parent_len: usize,
    has_parent: bool,
    secret: *const u8,
    secret_len: usize,
    has_secret: bool,
    key: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let codes = bytes(codes, count)?;
        let content = text(content_hash, content_hash_len)?;
        let parent = opt_text(parent, parent_len, has_parent)?;
        let secret = opt_bytes(secret, secret_len, has_secret)?;
        write_text(
            key,
            72,
            &wire::ring_revision_key(codes, content, parent, secret)?,
        )
    })
}

/// ULID text (26 characters and a NUL) of a 16-byte id.
#[no_mangle]
pub extern "C" fn samekey_ulid_format(
    id: *const u8,
    text_out: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || write_text(text_out, 27, &id_of(id)?.to_string()))
}

/// UUID text (36 characters and a NUL) of a 16-byte id.
#[no_mangle]
pub extern "C" fn samekey_ulid_uuid(
    id: *const u8,
    text_out: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        write_text(text_out, 37, &id_of(id)?.to_uuid_string())
    })
}

/// Parses ULID text (either case) into 16 bytes.
#[no_mangle]
pub extern "C" fn samekey_ulid_parse(
    text_ptr: *const u8,
    text_len: usize,
    id: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let parsed: Ulid = text(text_ptr, text_len)?.parse()?;
        out(id, 16)?.copy_from_slice(parsed.as_bytes());
        Ok(())
    })
}

/// Milliseconds since the epoch of RFC 3339 text.
#[no_mangle]
pub extern "C" fn samekey_parse_rfc3339(
    text_ptr: *const u8,
    text_len: usize,
    ms: *mut i64,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        set(
            ms,
            samekey::parse_rfc3339(text(text_ptr, text_len)?)? as i64,
        )
    })
}

/// The scheme code of a scheme name, for building packed requests.
#[no_mangle]
pub extern "C" fn samekey_scheme_code(
    scheme: *const u8,
    scheme_len: usize,
    code: *mut u8,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        set(
            code,
            wire::scheme_code(text(scheme, scheme_len)?.parse::<Scheme>()?),
        )
    })
}

/// Whether `ms` milliseconds look like seconds given by mistake (spec §8.2): seconds of
/// 2001-2286 read as milliseconds fall in 1970. The id they derive is valid, so this is a
/// check a caller opts into, never an error.
#[no_mangle]
pub extern "C" fn samekey_likely_seconds(ms: i64) -> bool {
    u64::try_from(ms).is_ok_and(samekey::host::likely_seconds)
}
