//! The one way into the library from the JVM: [`entry`] runs an entry point's whole body
//! under `catch_unwind` and turns its failure (a core error, a broken contract, a panic)
//! into the Java exception the JVM side's `Jni.exception` makes, thrown before returning.
//! A panic unwinding into the JVM would abort the process (`extern "system"`).

use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};

use jni_sys::{jclass, jvalue, JNIEnv};

use super::env::Env;
use super::failure::Failure;
use super::hooks::{hook, Stage};

/// Runs an entry point's `body` with its typed environment; on a failure or a panic, the
/// JVM side's exception is pending when `fallback` is returned (the JVM ignores the
/// value then).
pub(super) fn entry<T>(
    env: *mut JNIEnv,
    class: jclass,
    fallback: T,
    body: impl FnOnce(&Env) -> Result<T, Failure>,
) -> T {
    // SAFETY: `env` is the JNIEnv the JVM passed to the entry point, on its thread.
    let env = unsafe { Env::new(env) };
    let failure = match catch_unwind(AssertUnwindSafe(|| {
        hook(Stage::Entry);
        body(&env)
    })) {
        Ok(Ok(value)) => return value,
        Ok(Err(failure)) => failure,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                .unwrap_or("no message");
            Failure::Code {
                code: "panic",
                message: format!("samekey panicked (a bug, please report it): {what}"),
            }
        }
    };
    // Nothing in throw() should panic; if something did, it must still not unwind.
    let _ = catch_unwind(AssertUnwindSafe(|| throw(&env, class, failure)));
    fallback
}

const EXCEPTION: &CStr = c"exception";
const EXCEPTION_SIG: &CStr = c"([B)Ljava/lang/Throwable;";

/// Throws `failure` as `Jni.exception(utf8 "code\nmessage")` makes it: the message is
/// UTF-8 the JVM side decodes (JNI's own strings are modified UTF-8).
fn throw(env: &Env, class: jclass, failure: Failure) {
    let Failure::Code { code, message } = failure else {
        return;
    };
    if env.pending() {
        return;
    }
    let text = format!("{code}\n{message}");
    // Each step that fails leaves its own exception (OutOfMemoryError,
    // NoSuchMethodError) pending, which the caller then sees.
    let Ok(bytes) = env.new_bytes_unhooked(text.as_bytes()) else {
        return;
    };
    let Ok(made) = env.call_static_object(class, EXCEPTION, EXCEPTION_SIG, &[jvalue { l: bytes }])
    else {
        return;
    };
    env.throw(made);
}
