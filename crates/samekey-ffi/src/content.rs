//! Content hashes: of bytes, incrementally, and of canonical JSON.

use std::ffi::c_char;

use samekey::ContentHasher;
use samekey_wire as wire;

use crate::pointers::*;
use crate::status::{call, Failure, SamekeyStatus};

/// The content hash text (at most 71 characters and a NUL) of `data`.
#[no_mangle]
pub extern "C" fn samekey_content_hash(
    scheme: *const u8,
    scheme_len: usize,
    data: *const u8,
    len: usize,
    hash: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        write_text(
            hash,
            72,
            &wire::content_hash(bytes(data, len)?, text(scheme, scheme_len)?)?,
        )
    })
}

/// An incremental content hash; create, update, finalize (as often as wanted), free.
pub struct SamekeyHasher(ContentHasher);

#[no_mangle]
pub extern "C" fn samekey_hasher_new(
    scheme: *const u8,
    scheme_len: usize,
    hasher: *mut *mut SamekeyHasher,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        set(
            hasher,
            Box::into_raw(Box::new(SamekeyHasher(wire::hasher(text(
                scheme, scheme_len,
            )?)?))),
        )
    })
}

#[no_mangle]
pub extern "C" fn samekey_hasher_update(
    hasher: *mut SamekeyHasher,
    data: *const u8,
    len: usize,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let h = out(hasher, 1)?;
        h[0].0.update(bytes(data, len)?);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn samekey_hasher_finalize(
    hasher: *const SamekeyHasher,
    hash: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        if hasher.is_null() {
            return Err(Failure::Argument("NULL hasher"));
        }
        // SAFETY: a hasher from samekey_hasher_new, not yet freed.
        let h = unsafe { &*hasher };
        write_text(hash, 72, &h.0.clone().finalize().to_string())
    })
}

#[no_mangle]
pub extern "C" fn samekey_hasher_free(hasher: *mut SamekeyHasher) {
    if !hasher.is_null() {
        // SAFETY: a hasher from samekey_hasher_new, freed once.
        drop(unsafe { Box::from_raw(hasher) });
    }
}

/// Canonical JSON of JSON text; `from_doubles` for text whose numbers were all doubles
/// (spec §6.2). Free the result with `samekey_string_free`.
#[no_mangle]
pub extern "C" fn samekey_canonical_json(
    json: *const u8,
    len: usize,
    from_doubles: bool,
    canonical: *mut *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let t = text(json, len)?;
        let c = if from_doubles {
            wire::canonical_json_value(t)?
        } else {
            wire::canonical_json_text(t)?
        };
        alloc_string(canonical, c)
    })
}

/// The content hash of JSON text's canonical form.
#[no_mangle]
pub extern "C" fn samekey_content_hash_json(
    scheme: *const u8,
    scheme_len: usize,
    json: *const u8,
    len: usize,
    from_doubles: bool,
    hash: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let (t, s) = (text(json, len)?, text(scheme, scheme_len)?);
        let h = if from_doubles {
            wire::content_hash_json_value(t, s)?
        } else {
            wire::content_hash_json_text(t, s)?
        };
        write_text(hash, 72, &h)
    })
}
