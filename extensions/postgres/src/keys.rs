//! Key rings (spec §9.1): ids and revision keys of every accepted scheme during a
//! migration, verify (§9.2), which scheme a key belongs to, and needs_write (§9.3).

use pgrx::prelude::*;
use samekey::{ContentHash, Key, KeyRing, Scheme, Ulid};

use crate::errors::OrRaise;
use crate::ids::elements;
use crate::time;

/// A ring from scheme names, primary first; checked before anything else (§9.1).
fn ring(accepted: Array<&str>) -> KeyRing {
    samekey::host::ring(&elements(accepted.iter())).or_raise()
}

/// The schemes a ring accepts, primary first, then newest to oldest (a name given twice
/// counts once): the ring as samekey reads `accepted`, checked as every ring function
/// checks it.
#[pg_extern(immutable, parallel_safe)]
fn samekey_ring_schemes(accepted: Array<&str>) -> Vec<&'static str> {
    ring(accepted)
        .accepted()
        .iter()
        .map(|s| s.as_str())
        .collect()
}

/// The candidate ids of the inputs under every accepted scheme, primary first; the
/// time converted before, and range-checked with, the primary's checks (§4.4).
fn candidates<F: AsRef<[u8]>>(
    ring: &KeyRing,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: &[F],
    secret: Option<&[u8]>,
) -> Vec<(Scheme, Ulid)> {
    let t = time::millis(t).or_raise();
    let t = t.check_for(ring.primary(), namespace, secret).or_raise();
    ring.candidate_ulids(t, namespace, fields, secret)
        .or_raise()
}

fn verify<F: AsRef<[u8]>>(
    accepted: Array<&str>,
    id: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: &[F],
    secret: Option<&[u8]>,
) -> &'static str {
    let ring = ring(accepted);
    let id: Ulid = id.parse().or_raise();
    let t = time::millis(t).or_raise();
    let t = t.check_for(ring.primary(), namespace, secret).or_raise();
    ring.verify_ulid(&id, t, namespace, fields, secret)
        .or_raise()
        .as_str()
}

/// The scheme under which `id` is the id of these inputs, or `error[identity_mismatch]`
/// (SQLSTATE 23514): an identity field changed, and the row would be orphaned under a
/// new id. For triggers and CHECKs that refuse a changed identity.
#[pg_extern(immutable, parallel_safe, name = "samekey_verify")]
fn verify_text(
    accepted: Array<&str>,
    id: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
) -> &'static str {
    verify(accepted, id, t, namespace, &elements(fields.iter()), None)
}

#[pg_extern(immutable, parallel_safe, name = "samekey_verify")]
fn verify_text_keyed(
    accepted: Array<&str>,
    id: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
    secret: &[u8],
) -> &'static str {
    verify(
        accepted,
        id,
        t,
        namespace,
        &elements(fields.iter()),
        Some(secret),
    )
}

#[pg_extern(immutable, parallel_safe, name = "samekey_verify")]
fn verify_bytes(
    accepted: Array<&str>,
    id: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
) -> &'static str {
    verify(accepted, id, t, namespace, &elements(fields.iter()), None)
}

#[pg_extern(immutable, parallel_safe, name = "samekey_verify")]
fn verify_bytes_keyed(
    accepted: Array<&str>,
    id: &str,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
    secret: &[u8],
) -> &'static str {
    verify(
        accepted,
        id,
        t,
        namespace,
        &elements(fields.iter()),
        Some(secret),
    )
}

// Written out in each signature: pg_extern reads the result type's tokens, not an alias.
fn rows(
    found: Vec<(Scheme, Ulid)>,
) -> TableIterator<'static, (name!(scheme, &'static str), name!(ulid, String))> {
    TableIterator::new(
        found
            .into_iter()
            .map(|(s, id)| (s.as_str(), id.to_string())),
    )
}

/// The ids of the inputs under every accepted scheme, primary first, then newest to
/// oldest: during a migration a row is looked up by all of them
/// (`WHERE id IN (SELECT ulid FROM samekey_candidates(...))`).
#[pg_extern(immutable, parallel_safe, name = "samekey_candidates")]
fn candidates_text(
    accepted: Array<&str>,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
) -> TableIterator<'static, (name!(scheme, &'static str), name!(ulid, String))> {
    let ring = ring(accepted);
    rows(candidates(
        &ring,
        t,
        namespace,
        &elements(fields.iter()),
        None,
    ))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_candidates")]
fn candidates_text_keyed(
    accepted: Array<&str>,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&str>,
    secret: &[u8],
) -> TableIterator<'static, (name!(scheme, &'static str), name!(ulid, String))> {
    let ring = ring(accepted);
    rows(candidates(
        &ring,
        t,
        namespace,
        &elements(fields.iter()),
        Some(secret),
    ))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_candidates")]
fn candidates_bytes(
    accepted: Array<&str>,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
) -> TableIterator<'static, (name!(scheme, &'static str), name!(ulid, String))> {
    let ring = ring(accepted);
    rows(candidates(
        &ring,
        t,
        namespace,
        &elements(fields.iter()),
        None,
    ))
}

#[pg_extern(immutable, parallel_safe, name = "samekey_candidates")]
fn candidates_bytes_keyed(
    accepted: Array<&str>,
    t: TimestampWithTimeZone,
    namespace: &str,
    fields: Array<&[u8]>,
    secret: &[u8],
) -> TableIterator<'static, (name!(scheme, &'static str), name!(ulid, String))> {
    let ring = ring(accepted);
    rows(candidates(
        &ring,
        t,
        namespace,
        &elements(fields.iter()),
        Some(secret),
    ))
}

fn ring_revision(
    accepted: Array<&str>,
    parent: Option<&str>,
    content_hash: &str,
    secret: Option<&[u8]>,
) -> String {
    let ring = ring(accepted);
    let content: ContentHash = content_hash.parse().or_raise();
    ring.derive_revision(parent, &content, secret)
        .or_raise()
        .to_string()
}

/// The revision key under the content hash's scheme, which the ring must accept
/// (`scheme_not_accepted`); `parent` NULL is a root revision.
#[pg_extern(immutable, parallel_safe, name = "samekey_ring_revision_key")]
fn ring_revision_key(
    accepted: Option<Array<&str>>,
    parent: Option<&str>,
    content_hash: Option<&str>,
) -> Option<String> {
    Some(ring_revision(accepted?, parent, content_hash?, None))
}

/// A keyed one; a NULL secret gives NULL, never an unkeyed key.
#[pg_extern(immutable, parallel_safe, name = "samekey_ring_revision_key")]
fn ring_revision_key_keyed(
    accepted: Option<Array<&str>>,
    parent: Option<&str>,
    content_hash: Option<&str>,
    secret: Option<&[u8]>,
) -> Option<String> {
    Some(ring_revision(
        accepted?,
        parent,
        content_hash?,
        Some(secret?),
    ))
}

/// The scheme of a content hash or revision key text, which the ring must accept.
#[pg_extern(immutable, parallel_safe)]
fn samekey_key_scheme(accepted: Array<&str>, key: &str) -> &'static str {
    ring(accepted).scheme_of_key(key).or_raise().as_str()
}

/// A content hash or revision key text parsed: its kind (`content` or `revision`), its
/// scheme and its canonical text.
#[pg_extern(immutable, parallel_safe)]
fn samekey_key_parse(
    key: &str,
) -> TableIterator<
    'static,
    (
        name!(kind, &'static str),
        name!(scheme, &'static str),
        name!(canonical, String),
    ),
> {
    let key: Key = key.parse().or_raise();
    TableIterator::once((key.kind(), key.scheme().as_str(), key.to_string()))
}

/// Whether content must be written: true when nothing is stored (`stored` NULL) or the
/// stored hash differs from the incoming one. Both are parsed, incoming first, so a typo
/// is `invalid_key`, never a change (spec §9.3). A NULL `incoming` gives NULL.
#[pg_extern(immutable, parallel_safe)]
fn samekey_needs_write(stored: Option<&str>, incoming: Option<&str>) -> Option<bool> {
    Some(samekey::host::needs_write(stored, incoming?).or_raise())
}
