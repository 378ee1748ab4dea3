//! Revision keys, the write guard, and key texts.

use std::ffi::c_char;

use samekey_wire as wire;

use crate::pointers::*;
use crate::status::{call, SamekeyStatus};

/// The revision key (at most 71 characters and a NUL); without `has_scheme` the scheme is
/// the content hash's own; the parent is present when `has_parent`.
#[no_mangle]
pub extern "C" fn samekey_revision_key(
    scheme: *const u8,
    scheme_len: usize,
    has_scheme: bool,
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
        let scheme = opt_text(scheme, scheme_len, has_scheme)?;
        let content = text(content_hash, content_hash_len)?;
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
    scheme: *const u8,
    scheme_len: usize,
    has_scheme: bool,
    content_hash: *const u8,
    content_hash_len: usize,
    parent: *const u8,
    parent_len: usize,
    has_parent: bool,
    message: *mut *mut u8,
    message_len: *mut usize,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let m = wire::revision_message(
            text(content_hash, content_hash_len)?,
            opt_text(parent, parent_len, has_parent)?,
            opt_text(scheme, scheme_len, has_scheme)?,
        )?;
        alloc_bytes(message, message_len, m)
    })
}

/// Whether `incoming` must be written over `stored` (without `has_stored`: nothing stored).
#[no_mangle]
pub extern "C" fn samekey_needs_write(
    stored: *const u8,
    stored_len: usize,
    has_stored: bool,
    incoming: *const u8,
    incoming_len: usize,
    result: *mut bool,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        set(
            result,
            wire::needs_write(
                opt_text(stored, stored_len, has_stored)?,
                text(incoming, incoming_len)?,
            )?,
        )
    })
}

/// A content hash or revision key, parsed into the caller's buffers: its kind
/// ("content" or "revision", at most 8 characters and a NUL), its scheme ("v0".."v2", 2
/// and a NUL) and its canonical text (at most 71 and a NUL). What `samekey_parse_key`
/// answers as one string to split and free, without the allocation or the split.
#[no_mangle]
pub extern "C" fn samekey_parse_key_into(
    key: *const u8,
    key_len: usize,
    kind: *mut c_char,
    scheme: *mut c_char,
    canonical: *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        let parsed: samekey::Key = text(key, key_len)?.parse()?;
        write_text(kind, 9, parsed.kind())?;
        write_text(scheme, 3, parsed.scheme().as_str())?;
        write_text(canonical, 72, &parsed.to_string())
    })
}

/// "kind scheme canonical" of a content hash or revision key; free the result.
#[no_mangle]
pub extern "C" fn samekey_parse_key(
    key: *const u8,
    key_len: usize,
    result: *mut *mut c_char,
    error: *mut *mut c_char,
) -> SamekeyStatus {
    call(error, || {
        alloc_string(result, wire::parse_key(text(key, key_len)?)?)
    })
}
