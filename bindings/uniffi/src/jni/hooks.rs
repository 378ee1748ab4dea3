//! The tests' levers inside the entry points: a panic armed at a stage (`Jni.panicAt`) and
//! arrays read by copies of a section (`Jni.copySections`). Below both `entry` and `env`,
//! which consult them.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a test may make an entry point panic (`Jni.panicAt`), to prove every stage of
/// every kind of entry point is inside `entry::entry`.
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
