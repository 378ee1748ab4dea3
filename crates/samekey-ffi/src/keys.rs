//! Revision keys, the write guard, and key texts.

use std::ffi::c_char;

use samekey_wire as wire;

use crate::pointers::*;
use crate::status::{call, SamekeyStatus};

/// The revision key (at most 71 characters and a NUL); `scheme` NULL means the content
/// hash's own; the parent is present when `has_parent`.
#[no_mangle]
pub extern "C" fn samekey_revision_key(
    scheme: *const c_char,
    content_hash: *const c_char,
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
        let scheme = opt_c_str(scheme)?;
        let content = c_str(content_hash)?;
        let parent = opt_text(parent, parent_len, has_parent)?;
        let secret = opt_bytes(secret, secret_len, has_secret)?;
        write_text(
            key,
            72,
            &wire::revision_key(content, parent, scheme, secret)?,
        )
    })
}

/// The exact bytes hashed for a revision key; free with `samekey_bytes_free`.
#[no_mangle]
pub extern "C" fn samekey_revision_message(
    scheme: *const c_char,
    content_hash: *const c_char,
    parent: *const u8,
    parent_len: usize,
    has_parent: bool,
    message: *mut *mut u8,
    message_len: *mut usize,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let m = wire::revision_message(
            c_str(content_hash)?,
            opt_text(parent, parent_len, has_parent)?,
            opt_c_str(scheme)?,
        )?;
        alloc_bytes(message, message_len, m)
    })
}

/// Whether `incoming` must be written over `stored` (NULL: nothing stored).
#[no_mangle]
pub extern "C" fn samekey_needs_write(
    stored: *const c_char,
    incoming: *const c_char,
    result: *mut bool,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        set(
            result,
            wire::needs_write(opt_c_str(stored)?, c_str(incoming)?)?,
        )
    })
}

/// "kind scheme canonical" of a content hash or revision key; free the result.
#[no_mangle]
pub extern "C" fn samekey_parse_key(
    key: *const c_char,
    result: *mut *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        alloc_string(result, wire::parse_key(c_str(key)?)?)
    })
}
