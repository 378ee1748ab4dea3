//! Native objects the JVM holds as a `long`: a `Box` made into a raw pointer when the JVM
//! side makes the object, freed once by its Cleaner (derivers, key rings).

use jni_sys::jlong;

use super::failure::{argument, Failure};

/// `value` on the heap, as the handle the JVM side keeps.
pub(super) fn make<T>(value: T) -> jlong {
    Box::into_raw(Box::new(value)) as jlong
}

/// Frees a handle of [`make`] (0: nothing).
///
/// SAFETY: `handle` is 0 or a live handle of [`make`] for a `T`, freed once.
pub(super) unsafe fn free<T>(handle: jlong) -> Result<(), Failure> {
    if handle != 0 {
        drop(Box::from_raw(handle as *mut T));
    }
    Ok(())
}

/// The object behind a handle; `gone` names it when the handle is 0.
///
/// SAFETY: `handle` is 0 or a live handle of [`make`] for a `T`.
pub(super) unsafe fn get<'a, T>(handle: jlong, gone: &str) -> Result<&'a T, Failure> {
    (handle as *const T).as_ref().ok_or_else(|| argument(gone))
}
