//! Deterministic ULIDs (spec §4): derivation as text or `uuid`, the hashed message, and
//! ULID text parsed and formatted.

use pgrx::prelude::*;
use pgrx::{PgSqlErrorCode, Uuid};
use samekey::timestamp::Millis;
use samekey::{Scheme, Ulid};

use crate::errors::{refuse, OrRaise};
use crate::time;

/// The elements of a `fields` array; a NULL element is refused (an id of "no value"
/// would collide with other rows), naming its 1-based position as SQL counts.
pub(crate) fn elements<T>(fields: impl Iterator<Item = Option<T>>) -> Vec<T> {
    fields
        .enumerate()
        .map(|(i, f)| {
            f.unwrap_or_else(|| {
                refuse(
                    PgSqlErrorCode::ERRCODE_NULL_VALUE_NOT_ALLOWED,
                    format!(
                        "samekey: fields[{}] is NULL: an identity field needs a value",
                        i + 1
                    ),
                )
            })
        })
        .collect()
}

/// The id, with the checks in every binding's order: the host's conversions (the time),
/// the scheme's name, then the scheme, secret and namespace before the time's range
/// (spec §4.4).
pub(crate) fn derive<F: AsRef<[u8]>>(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: &[F],
    secret: Option<&[u8]>,
) -> Ulid {
    derive_at(
        scheme,
        time::millis(t).or_raise(),
        namespace,
        fields,
        secret,
    )
}

/// [`derive`] from the time's milliseconds, already converted.
pub(crate) fn derive_at<F: AsRef<[u8]>>(
    scheme: &str,
    t: Millis,
    namespace: &str,
    fields: &[F],
    secret: Option<&[u8]>,
) -> Ulid {
    let scheme: Scheme = scheme.parse().or_raise();
    let t = t.check_for(scheme, namespace, secret).or_raise();
    samekey::derive_ulid(scheme, t, namespace, fields, secret).or_raise()
}

fn uuid(id: Ulid) -> Uuid {
    Uuid::from_bytes(id.to_bytes())
}

/// The id of `fields` at `t` (spec §4), as ULID text.
#[pg_extern(immutable, parallel_safe, name = "samekey_ulid")]
fn ulid_text(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
) -> String {
    derive(scheme, t, namespace, &elements(fields.iter()), None).to_string()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid")]
fn ulid_text_keyed(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
    secret: &[u8],
) -> String {
    derive(scheme, t, namespace, &elements(fields.iter()), Some(secret)).to_string()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid")]
fn ulid_bytes(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
) -> String {
    derive(scheme, t, namespace, &elements(fields.iter()), None).to_string()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid")]
fn ulid_bytes_keyed(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
    secret: &[u8],
) -> String {
    derive(scheme, t, namespace, &elements(fields.iter()), Some(secret)).to_string()
}

/// The same id as a `uuid` (its 16 bytes, which sort as the ULID text does).
#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_uuid")]
fn uuid_text(scheme: &str, t: TimestampWithTimeZone, namespace: &str, fields: Array<&str>) -> Uuid {
    uuid(derive(scheme, t, namespace, &elements(fields.iter()), None))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_uuid")]
fn uuid_text_keyed(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
    secret: &[u8],
) -> Uuid {
    uuid(derive(
        scheme,
        t,
        namespace,
        &elements(fields.iter()),
        Some(secret),
    ))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_uuid")]
fn uuid_bytes(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
) -> Uuid {
    uuid(derive(scheme, t, namespace, &elements(fields.iter()), None))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_uuid")]
fn uuid_bytes_keyed(
    scheme: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
    secret: &[u8],
) -> Uuid {
    uuid(derive(
        scheme,
        t,
        namespace,
        &elements(fields.iter()),
        Some(secret),
    ))
}

fn message<F: AsRef<[u8]>>(scheme: &str, namespace: &str, fields: &[F]) -> Vec<u8> {
    let scheme: Scheme = scheme.parse().or_raise();
    samekey::ulid_message(scheme, namespace, fields).or_raise()
}

/// The exact bytes hashed for an id (keyed or not), to compare with another
/// implementation when ids differ.
#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_message")]
fn message_text(scheme: &str, namespace: &str, fields: Array<&str>) -> Vec<u8> {
    message(scheme, namespace, &elements(fields.iter()))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_ulid_message")]
fn message_bytes(scheme: &str, namespace: &str, fields: Array<&[u8]>) -> Vec<u8> {
    message(scheme, namespace, &elements(fields.iter()))
}

pub(crate) fn parse(text: &str) -> Ulid {
    text.parse().or_raise()
}

/// ULID text (any case, Crockford's aliases as spec §4.6 allows) as a `uuid`.
#[pg_extern(immutable, parallel_safe)]
fn samekey_ulid_parse(id: &str) -> Uuid {
    uuid(parse(id))
}

/// The canonical ULID text of a `uuid` holding an id.
#[pg_extern(immutable, parallel_safe)]
fn samekey_ulid_text(id: Uuid) -> String {
    Ulid::from_bytes(*id.as_bytes()).to_string()
}

/// The milliseconds since 1970 that an id holds.
#[pg_extern(immutable, parallel_safe)]
fn samekey_ulid_timestamp_ms(id: &str) -> i64 {
    i64::try_from(parse(id).timestamp_ms()).expect("48 bits")
}
