//! Buffers kept between batch calls. `deriveMany` sends up to 2048 rows a call, some
//! 100 KB of text; allocating, zeroing and copying that afresh on every call (napi-rs's
//! `into_utf16`, a returned `String`) measured ~20 ns a key of ~155. Each thread keeps
//! one input and one output buffer up to `KEEP` bytes and allocates only beyond that.

use std::cell::RefCell;

use napi::{sys, Env, JsString, JsValue};

use crate::errors::{type_error, Result};

const KEEP: usize = 16 << 20;

#[derive(Default)]
struct Kept {
    units: Vec<u16>,
    out: Vec<u8>,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::default();
}

/// Calls `f` with the UTF-16 code units of `text` and an empty output buffer, and returns
/// the output as a Latin-1 JavaScript string (the ids' text is ASCII).
pub fn with_utf16<'env>(
    env: &'env Env,
    text: &JsString,
    f: impl FnOnce(&[u16], &mut Vec<u8>) -> Result<()>,
) -> Result<JsString<'env>> {
    let len = text
        .utf16_len()
        .map_err(|e| type_error(format!("text: {e}")))?;
    KEPT.with(|cell| {
        let mut fresh = Kept::default();
        let mut kept = cell.try_borrow_mut();
        let bufs = match kept.as_deref_mut() {
            Ok(k) if 2 * len <= KEEP => k,
            // Too large to keep, or (never in practice) re-entered from `f`.
            _ => &mut fresh,
        };
        // The engine writes a terminating NUL after the text.
        if bufs.units.len() < len + 1 {
            bufs.units.resize(len + 1, 0);
        }
        let mut written = 0;
        // SAFETY: the buffer holds `len + 1` units, the size passed.
        let status = unsafe {
            sys::napi_get_value_string_utf16(
                env.raw(),
                text.raw(),
                bufs.units.as_mut_ptr(),
                len + 1,
                &mut written,
            )
        };
        if status != sys::Status::napi_ok {
            return Err(type_error(format!("text: napi status {status}")));
        }
        bufs.out.clear();
        let done = f(&bufs.units[..written], &mut bufs.out);
        let made = done.and_then(|()| {
            env.create_string_latin1(&bufs.out)
                .map_err(|e| type_error(format!("ids: {e}")))
        });
        if bufs.out.capacity() > KEEP {
            bufs.out = Vec::new();
        }
        made
    })
}
