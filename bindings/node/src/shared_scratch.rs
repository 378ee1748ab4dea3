//! One request buffer per thread, lent to JavaScript, which single-id calls read without
//! taking arguments: napi-rs gives a call with no arguments a shortcut that saves about
//! 100 ns of the ~250 ns a `derivePacked(buffer, time)` call costs (measured with
//! `bench/bench.mjs`). Every copy of `api.js` on a thread gets the same buffer, so two
//! module instances (test runners load modules more than once) cannot read each other's
//! stale requests: each packs and calls with nothing in between, on the one thread.

use std::cell::Cell;
use std::ptr;

use napi::{sys, Env};

use crate::errors::{type_error, Result};

/// Large enough for any typical request; a larger one goes through `derivePacked`.
const SIZE: usize = 1 << 16;

#[derive(Clone, Copy)]
struct Lent {
    reference: sys::napi_ref,
    data: *const u8,
}

thread_local! {
    static LENT: Cell<Option<Lent>> = const { Cell::new(None) };
}

fn check(status: sys::napi_status, what: &str) -> Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(type_error(format!(
            "shared scratch: {what} failed ({status})"
        )))
    }
}

/// The thread's buffer as a `Uint8Array`, created on first use and then kept alive by a
/// strong reference for the life of the thread.
pub fn get(env: &Env) -> Result<sys::napi_value> {
    let env = env.raw();
    let mut value = ptr::null_mut();
    if let Some(lent) = LENT.get() {
        // SAFETY: `reference` was created on this thread's environment and never deleted.
        check(
            unsafe { sys::napi_get_reference_value(env, lent.reference, &mut value) },
            "napi_get_reference_value",
        )?;
        return Ok(value);
    }
    let (mut data, mut buffer) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: plain napi calls with out-pointers to locals.
    unsafe {
        check(
            sys::napi_create_arraybuffer(env, SIZE, &mut data, &mut buffer),
            "napi_create_arraybuffer",
        )?;
        check(
            sys::napi_create_typedarray(
                env,
                sys::TypedarrayType::uint8_array,
                SIZE,
                buffer,
                0,
                &mut value,
            ),
            "napi_create_typedarray",
        )?;
        let mut reference = ptr::null_mut();
        check(
            sys::napi_create_reference(env, value, 1, &mut reference),
            "napi_create_reference",
        )?;
        LENT.set(Some(Lent {
            reference,
            data: data.cast_const().cast(),
        }));
    }
    Ok(value)
}

/// The thread's buffer as bytes, for the duration of one call from JavaScript.
pub fn with<R>(f: impl FnOnce(&[u8]) -> Result<R>) -> Result<R> {
    let lent = LENT
        .get()
        .ok_or_else(|| type_error("sharedScratch() was not called on this thread".into()))?;
    // SAFETY: the ArrayBuffer is non-resizable, never handed to code that could detach
    // it, and kept alive by `reference`, so its backing store stays at `data` with
    // `SIZE` bytes; JavaScript on this thread is paused while we read it.
    let bytes = unsafe { std::slice::from_raw_parts(lent.data, SIZE) };
    f(bytes)
}
