//! Library side of the `samekey` command, shared with its tests.

pub mod batch;
