//! The one way into the library from the JVM: [`entry`] runs an entry point's whole body
//! under `catch_unwind` and turns its failure (a core error, a broken contract, a panic)
//! into the Java exception the JVM side's `Jni.exception` makes, thrown before returning.
//! A panic unwinding into the JVM would abort the process (`extern "system"`).

use std::cell::Cell;
use std::ffi::CStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

use jni_sys::{jclass, jvalue, JNIEnv};

use super::env::Env;

/// Why an entry point failed.
pub(super) enum Failure {
    /// A code of the core's vocabulary (`samekey::Error::code`), "invalid_argument" for
    /// arguments that break the call's contract (a bug of the JVM side), or "panic".
    Code { code: &'static str, message: String },
    /// A JNI call left a Java exception pending (an OutOfMemoryError): it is what the
    /// caller sees.
    Pending,
}

impl From<samekey::Error> for Failure {
    fn from(e: samekey::Error) -> Self {
        Failure::Code {
            code: e.code(),
            message: e.to_string(),
        }
    }
}

impl From<samekey_wire::WireError> for Failure {
    fn from(e: samekey_wire::WireError) -> Self {
        match e {
            samekey_wire::WireError::Core(e) => e.into(),
            samekey_wire::WireError::Malformed(what) => argument(what),
        }
    }
}

/// A broken contract between the JVM side and this library.
pub(super) fn argument(message: &str) -> Failure {
    Failure::Code {
        code: "invalid_argument",
        message: message.into(),
    }
}

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

/// Where a test may make an entry point panic (`Jni.panicAt`), to prove every stage of
/// every kind of entry point is inside [`entry`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// An entry point's first step.
    Entry = 1,
    /// Converting an argument.
    Arguments = 2,
    /// Inside a pinned array's critical section.
    Pinned = 3,
    /// Writing a result back.
    Results = 4,
}

/// Set once any thread arms a panic: the one load the hot path pays.
static ARMED: AtomicBool = AtomicBool::new(false);

thread_local! {
    static PANIC_AT: Cell<i32> = const { Cell::new(0) };
}

/// Arms a panic at `stage` (1-4) for this thread's next pass through it; 0 disarms.
pub(super) fn arm(stage: i32) {
    ARMED.store(true, Ordering::Relaxed);
    PANIC_AT.with(|at| at.set(stage));
}

/// Set by a test (`Jni.copySections`): arrays are read as a JVM that copies for a
/// critical section has them read, so that path runs on HotSpot too.
static COPY_SECTIONS: AtomicBool = AtomicBool::new(false);

pub(super) fn set_copy_sections(on: bool) {
    COPY_SECTIONS.store(on, Ordering::Relaxed);
}

pub(super) fn copy_sections() -> bool {
    COPY_SECTIONS.load(Ordering::Relaxed)
}

/// Panics if a test armed `stage` on this thread (once).
#[inline]
pub(super) fn hook(stage: Stage) {
    if ARMED.load(Ordering::Relaxed) {
        PANIC_AT.with(|at| {
            if at.get() == stage as i32 {
                at.set(0);
                panic!("the test hook's panic at stage {}", stage as i32);
            }
        });
    }
}
