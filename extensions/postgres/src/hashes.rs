//! Content hashes of bytes, text and JSON (spec §5, §6), and revision keys (§7).

use pgrx::prelude::*;
use pgrx::{JsonB, PgSqlErrorCode};

use crate::errors::{refuse, OrRaise};

/// The content hash of bytes, e.g. `sha256:…` under v1.
#[pg_extern(immutable, parallel_safe, name = "samekey_content_hash")]
fn content_hash_bytes(scheme: &str, data: &[u8]) -> String {
    samekey::host::content_hash(scheme, data)
        .or_raise()
        .to_string()
}

/// The content hash of text: its UTF-8 bytes.
#[pg_extern(immutable, parallel_safe, name = "samekey_content_hash")]
fn content_hash_text(scheme: &str, data: &str) -> String {
    content_hash_bytes(scheme, data.as_bytes())
}

/// The content hash of JSON text's canonical form (spec §6): the same hash as the
/// application's for the same document, whatever its key order or spacing.
#[pg_extern(immutable, parallel_safe, name = "samekey_content_hash_json")]
fn content_hash_json_text(scheme: &str, json: &str) -> String {
    samekey::host::content_hash_json_text(scheme, json)
        .or_raise()
        .1
        .to_string()
}

/// jsonb is refused: it has already dropped duplicate keys (keeping the last) and
/// rewritten numbers, so its hash could differ from the one the application computed
/// from the document it sent. `value::text` hashes jsonb's own text, on purpose.
#[pg_extern(immutable, parallel_safe, name = "samekey_content_hash_json")]
fn content_hash_jsonb(_scheme: &str, _json: JsonB) -> String {
    refuse_jsonb("samekey_content_hash_json")
}

fn refuse_jsonb(function: &str) -> ! {
    refuse(
        PgSqlErrorCode::ERRCODE_DATATYPE_MISMATCH,
        format!(
            "{function} takes json or text, not jsonb: jsonb drops duplicate keys and rewrites \
             numbers, so its hash may differ from the application's; pass the original JSON \
             text (a json or text column), or write value::text to hash jsonb's text on purpose"
        ),
    )
}

// A `json` value is its text as it was written (PostgreSQL only checked its syntax):
// duplicate keys and numbers reach the core as they were sent, which refuses what spec §6
// refuses. pgrx has no `json` argument that keeps the text, so these are SQL wrappers,
// which the planner inlines. From 14 on, a SQL-standard body binds the text function at
// CREATE time (a schema left off search_path later cannot break it); 13 has only the
// string body, resolved when the wrapper is planned.
#[cfg(not(feature = "pg13"))]
extension_sql!(
    r#"
CREATE FUNCTION samekey_content_hash_json("scheme" text, "json" json) RETURNS text
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
    RETURN samekey_content_hash_json("scheme", "json"::text);
CREATE FUNCTION samekey_canonical_json("json" json) RETURNS text
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
    RETURN samekey_canonical_json("json"::text);
"#,
    name = "json_wrappers",
    finalize,
);

#[cfg(feature = "pg13")]
extension_sql!(
    r#"
CREATE FUNCTION samekey_content_hash_json("scheme" text, "json" json) RETURNS text
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
    AS 'SELECT samekey_content_hash_json($1, $2::text)';
CREATE FUNCTION samekey_canonical_json("json" json) RETURNS text
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE sql
    AS 'SELECT samekey_canonical_json($1::text)';
"#,
    name = "json_wrappers",
    finalize,
);

/// The canonical text of JSON (spec §6.1), the bytes a JSON content hash hashes.
#[pg_extern(immutable, parallel_safe, name = "samekey_canonical_json")]
fn canonical_json_text(json: &str) -> String {
    samekey::canonicalize_json_text(json).or_raise()
}

#[pg_extern(immutable, parallel_safe, name = "samekey_canonical_json")]
fn canonical_jsonb(_json: JsonB) -> String {
    refuse_jsonb("samekey_canonical_json")
}

/// The revision key of `content_hash` on `parent` (NULL: a root revision), spec §7:
/// the same content on the same parent is the same revision. `scheme` NULL is the
/// content hash's scheme; a NULL `content_hash` gives NULL.
#[pg_extern(immutable, parallel_safe, name = "samekey_revision_key")]
fn revision_key(
    scheme: Option<&str>,
    parent: Option<&str>,
    content_hash: Option<&str>,
) -> Option<String> {
    let (scheme, content) = samekey::host::revision_inputs(content_hash?, scheme).or_raise();
    Some(
        samekey::derive_revision(scheme, parent, &content, None)
            .or_raise()
            .to_string(),
    )
}

/// A keyed revision key. A NULL secret gives NULL, never an unkeyed key.
#[pg_extern(immutable, parallel_safe, name = "samekey_revision_key")]
fn revision_key_keyed(
    scheme: Option<&str>,
    parent: Option<&str>,
    content_hash: Option<&str>,
    secret: Option<&[u8]>,
) -> Option<String> {
    let (scheme, content) = samekey::host::revision_inputs(content_hash?, scheme).or_raise();
    Some(
        samekey::derive_revision(scheme, parent, &content, Some(secret?))
            .or_raise()
            .to_string(),
    )
}

/// The exact bytes hashed for a revision key, for comparing implementations.
#[pg_extern(immutable, parallel_safe, name = "samekey_revision_message")]
fn revision_message(
    scheme: Option<&str>,
    parent: Option<&str>,
    content_hash: Option<&str>,
) -> Option<Vec<u8>> {
    let (scheme, content) = samekey::host::revision_inputs(content_hash?, scheme).or_raise();
    Some(samekey::revision_message(scheme, parent, &content).or_raise())
}
