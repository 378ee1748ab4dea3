//! Arguments from C and results to it: pointers checked for NULL, text checked for
//! UTF-8, caller buffers filled, library allocations handed out and freed.
//!
//! Every text argument is a pointer and a length, never a NUL-terminated string: text may
//! hold U+0000 (spec §2.2), and a C string would cut it there, so that `"v1\0"` would read
//! as the scheme `v1` and `"rev:v1:<hex>\0junk"` as a valid key.

use std::ffi::{c_char, CString};
use std::ptr;

use crate::status::{Failure, Outcome};

/// `ptr`/`len` as a slice; NULL is allowed only with `len == 0`.
pub(crate) fn bytes<'a>(ptr: *const u8, len: usize) -> Outcome<&'a [u8]> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(Failure::Argument("NULL pointer with a length"))
        };
    }
    // SAFETY: the caller guarantees `len` readable bytes at `ptr` for the call.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// The caller's `rows` times in milliseconds (NULL allowed for none), each converted
/// when it is read: a batch stops at its first row whose time is out of range.
pub(crate) fn times<'a>(
    ptr: *const i64,
    rows: usize,
) -> Outcome<impl Iterator<Item = samekey::Result<u64>> + 'a> {
    let times: &[i64] = if rows == 0 {
        &[]
    } else if ptr.is_null() {
        return Err(Failure::Argument("NULL times"));
    } else {
        // SAFETY: the caller provides `rows` times.
        unsafe { std::slice::from_raw_parts(ptr, rows) }
    };
    Ok(times
        .iter()
        .map(|&t| samekey::timestamp::from_millis_i128(i128::from(t))))
}

pub(crate) fn text<'a>(ptr: *const u8, len: usize) -> Outcome<&'a str> {
    Ok(samekey::text::from_utf8(bytes(ptr, len)?)?)
}

/// A text in a list of texts (a key ring's scheme names): its bytes and their count.
#[repr(C)]
pub struct SamekeyText {
    pub ptr: *const u8,
    pub len: usize,
}

/// `count` texts at `ptr`; NULL is allowed only with `count == 0`.
pub(crate) fn texts<'a>(ptr: *const SamekeyText, count: usize) -> Outcome<Vec<&'a str>> {
    if ptr.is_null() {
        return if count == 0 {
            Ok(Vec::new())
        } else {
            Err(Failure::Argument("NULL pointer with a length"))
        };
    }
    // SAFETY: the caller provides `count` texts at `ptr`, each `len` readable bytes.
    let list = unsafe { std::slice::from_raw_parts(ptr, count) };
    list.iter().map(|t| text(t.ptr, t.len)).collect()
}

pub(crate) fn out<'a, T>(ptr: *mut T, n: usize) -> Outcome<&'a mut [T]> {
    if ptr.is_null() {
        return Err(Failure::Argument("NULL output buffer"));
    }
    // SAFETY: the caller provides `n` writable elements at `ptr`.
    Ok(unsafe { std::slice::from_raw_parts_mut(ptr, n) })
}

/// Writes `s` and a NUL into a caller buffer of `cap` bytes.
pub(crate) fn write_text(dst: *mut c_char, cap: usize, s: &str) -> Outcome {
    let buf = out(dst.cast::<u8>(), cap)?;
    if s.len() >= cap {
        return Err(Failure::Argument("output buffer too small"));
    }
    buf[..s.len()].copy_from_slice(s.as_bytes());
    buf[s.len()] = 0;
    Ok(())
}

pub(crate) fn set<T>(dst: *mut T, value: T) -> Outcome {
    out(dst, 1)?[0] = value;
    Ok(())
}

pub(crate) fn alloc_string(dst: *mut *mut c_char, s: String) -> Outcome {
    let c = CString::new(s).map_err(|_| Failure::Argument("text with a NUL byte"))?;
    set(dst, c.into_raw())
}

/// Frees a string this library returned. NULL is allowed.
#[no_mangle]
pub extern "C" fn samekey_string_free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: `s` came from CString::into_raw in this library.
        drop(unsafe { CString::from_raw(s) });
    }
}

/// Frees bytes this library returned. NULL is allowed.
#[no_mangle]
pub extern "C" fn samekey_bytes_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: `ptr`/`len` came from a boxed slice of this library.
        drop(unsafe { Box::from_raw(ptr::slice_from_raw_parts_mut(ptr, len)) });
    }
}

pub(crate) fn alloc_bytes(dst: *mut *mut u8, dst_len: *mut usize, v: Vec<u8>) -> Outcome {
    out(dst, 1)?;
    out(dst_len, 1)?;
    let boxed = v.into_boxed_slice();
    set(dst_len, boxed.len())?;
    set(dst, Box::into_raw(boxed).cast::<u8>())
}

/// Bytes that are present when `present` (an optional secret: absent is not empty).
pub(crate) fn opt_bytes<'a>(
    ptr: *const u8,
    len: usize,
    present: bool,
) -> Outcome<Option<&'a [u8]>> {
    if present {
        Ok(Some(bytes(ptr, len)?))
    } else {
        Ok(None)
    }
}

pub(crate) fn opt_text<'a>(ptr: *const u8, len: usize, present: bool) -> Outcome<Option<&'a str>> {
    if present {
        Ok(Some(text(ptr, len)?))
    } else {
        Ok(None)
    }
}
