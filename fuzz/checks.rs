//! What each fuzz target asserts about one input. Shared by the libFuzzer targets and by
//! the stable test that replays the saved corpora (crates/samekey/tests/fuzz_corpus.rs).

use samekey::{canonical_json, parse_rfc3339, ContentHash, RevisionKey, Ulid, Value};

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

pub fn ulid(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(id) = s.parse::<Ulid>() {
        assert!(s.eq_ignore_ascii_case(&id.to_string()));
        assert_eq!(id.to_string().parse::<Ulid>().unwrap(), id);
    }
}

pub fn content_hash(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(h) = s.parse::<ContentHash>() {
        assert_eq!(h.to_string(), s, "content hashes have one text form");
    }
}

pub fn revision_key(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(k) = s.parse::<RevisionKey>() {
        assert_eq!(k.to_string(), s, "revision keys have one text form");
    }
}

pub fn json(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let Ok(v) = Value::parse(s) else { return };
    let Ok(canonical) = canonical_json(&v) else {
        return;
    };
    // Canonical text is canonical again, except where a float prints as an integer
    // literal beyond 2^53-1 (spec §6.4), which the input rule then refuses.
    match Value::parse(&canonical) {
        Ok(again) => assert_eq!(canonical_json(&again).unwrap(), canonical),
        Err(e) => assert_eq!(e.code(), "number_out_of_range"),
    }
}

pub fn rfc3339(data: &[u8]) {
    let Some(s) = text(data) else { return };
    if let Ok(ms) = parse_rfc3339(s) {
        assert!(ms <= samekey::timestamp::MAX_MS);
        let formatted = samekey::format_rfc3339(ms).unwrap();
        assert_eq!(parse_rfc3339(&formatted).unwrap(), ms);
    }
}
