//! Ids from a `bigint` of milliseconds since 1970, for tables that store times that way
//! (as Python's `time_ms=` and Node's `timeMs` take them). The usual conversion,
//! `to_timestamp(ms / 1000)`, divides integers and silently drops the milliseconds; these
//! take the column as it is.

use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::prelude::*;
use samekey::timestamp::Millis;

use crate::ids::{derive_at, elements};

/// A backend warns once, as Python's `warnings` does: a backfill of a seconds column
/// would otherwise print a warning per row.
static WARNED: AtomicBool = AtomicBool::new(false);

fn millis(ms: i64) -> Millis {
    if let Some(w) = u64::try_from(ms)
        .ok()
        .and_then(samekey::host::seconds_warning)
    {
        if !WARNED.swap(true, Ordering::Relaxed) {
            pgrx::warning!("samekey: {w}");
        }
    }
    Millis::new(i128::from(ms))
}

/// The id of `fields` at `ms` milliseconds since 1970 (spec §4), as ULID text: the id
/// `samekey_ulid` gives for the same instant.
#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_ms")]
fn ulid_ms_text(scheme: &str, ms: i64, namespace: &str, fields: Array<&str>) -> String {
    derive_at(
        scheme,
        millis(ms),
        namespace,
        &elements(fields.iter()),
        None,
    )
    .to_string()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_ms")]
fn ulid_ms_text_keyed(
    scheme: &str,
    ms: i64,
    namespace: &str,
    fields: Array<&str>,
    secret: &[u8],
) -> String {
    derive_at(
        scheme,
        millis(ms),
        namespace,
        &elements(fields.iter()),
        Some(secret),
    )
    .to_string()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_ms")]
fn ulid_ms_bytes(scheme: &str, ms: i64, namespace: &str, fields: Array<&[u8]>) -> String {
    derive_at(
        scheme,
        millis(ms),
        namespace,
        &elements(fields.iter()),
        None,
    )
    .to_string()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_ms")]
fn ulid_ms_bytes_keyed(
    scheme: &str,
    ms: i64,
    namespace: &str,
    fields: Array<&[u8]>,
    secret: &[u8],
) -> String {
    derive_at(
        scheme,
        millis(ms),
        namespace,
        &elements(fields.iter()),
        Some(secret),
    )
    .to_string()
}
