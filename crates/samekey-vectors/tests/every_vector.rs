//! Every shared test vector through the core: the file in SAMEKEY_VECTORS, else the
//! committed test-vectors/samekey.json. The runner is the one `samekey vectors` uses.

use std::path::PathBuf;

use samekey_vectors as runner;

fn vector_file() -> PathBuf {
    match std::env::var_os("SAMEKEY_VECTORS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-vectors/samekey.json"),
    }
}

#[test]
fn every_vector_passes() {
    let path = vector_file();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc: serde_json::Value = serde_json::from_str(&text).expect("vector file is JSON");
    let outcomes = runner::run_document(&doc).expect("well-formed vector file");
    assert!(!outcomes.is_empty(), "{} holds no vectors", path.display());
    let failures: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.passed)
        .map(|o| format!("{}: {}", o.id, o.detail))
        .collect();
    println!("{}: {} vectors", path.display(), outcomes.len());
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        failures.len(),
        outcomes.len(),
        failures.join("\n")
    );
}

#[test]
fn the_committed_file_covers_every_error_code_it_can_carry() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-vectors/samekey.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let seen: std::collections::BTreeSet<&str> = doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["expect"]["error"].as_str())
        .collect();
    // These cannot be written into a JSON vector file (spec §10.3); unit tests cover them.
    let not_in_vectors = ["field_too_long", "io_error"];
    for code in samekey::Error::CODES {
        assert!(
            seen.contains(code) || not_in_vectors.contains(code),
            "no vector expects {code}"
        );
    }
    assert!(doc["vectors"].as_array().unwrap().len() >= 150);
}

#[test]
fn a_vector_that_cannot_run_fails_alone() {
    let hash = samekey::content_hash(samekey::Scheme::V1, b"")
        .unwrap()
        .to_string();
    let doc = serde_json::json!({
        "schema": "samekey-test-vectors/1",
        "vectors": [
            { "id": "bad-fields", "op": "ulid", "scheme": "v1", "namespace": "",
              "timestamp_ms": 0, "fields": 7, "expect": {} },
            { "id": "unknown-op", "op": "frobnicate", "expect": {} },
            { "op": "content", "scheme": "v1", "data_hex": "", "expect": {} },
            { "id": "fine", "op": "content", "scheme": "v1", "data_hex": "",
              "expect": { "hash": hash } },
        ],
    });
    let outcomes = runner::run_document(&doc).expect("a well-formed document");
    let got: Vec<(&str, bool)> = outcomes.iter().map(|o| (o.id.as_str(), o.passed)).collect();
    assert_eq!(
        got,
        [
            ("bad-fields", false),
            ("unknown-op", false),
            ("#2", false),
            ("fine", true)
        ]
    );
    assert!(
        outcomes[1].detail.contains("frobnicate"),
        "{}",
        outcomes[1].detail
    );
}
