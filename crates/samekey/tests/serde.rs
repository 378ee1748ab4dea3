//! Value types serialize as their one canonical text form (feature `serde`).
#![cfg(feature = "serde")]

use samekey::{content_hash, derive_revision, derive_ulid, ContentHash, RevisionKey, Scheme, Ulid};

#[test]
fn values_round_trip_as_their_text() {
    let id = derive_ulid(Scheme::V1, 1, "", &["a"], None).unwrap();
    let h = content_hash(Scheme::V2, b"x").unwrap();
    let k = derive_revision(Scheme::V2, None, &h, None).unwrap();
    let json = serde_json::to_string(&(id, h, k, Scheme::V2)).unwrap();
    assert_eq!(json, format!("[\"{id}\",\"{h}\",\"{k}\",\"v2\"]"));
    let back: (Ulid, ContentHash, RevisionKey, Scheme) = serde_json::from_str(&json).unwrap();
    assert_eq!(back, (id, h, k, Scheme::V2));
    let bad = serde_json::from_str::<Ulid>("\"8ZZZZZZZZZZZZZZZZZZZZZZZZZ\"").unwrap_err();
    assert!(bad.to_string().contains("invalid ULID"));
}
