//! Replays every saved fuzz input (fuzz/corpus/<target>/*) through the fuzz targets'
//! checks on the stable toolchain, so a crash once found stays fixed.

#[path = "../../../fuzz/checks.rs"]
mod checks;

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/corpus")
        .join(target);
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        check(&std::fs::read(&path).unwrap());
        n += 1;
    }
    assert!(n > 0, "empty corpus {}", dir.display());
}

#[test]
fn ulid_corpus() {
    replay("ulid", checks::ulid);
}

#[test]
fn content_hash_corpus() {
    replay("content_hash", checks::content_hash);
}

#[test]
fn revision_key_corpus() {
    replay("revision_key", checks::revision_key);
}

#[test]
fn json_corpus() {
    replay("json", checks::json);
}

#[test]
fn rfc3339_corpus() {
    replay("rfc3339", checks::rfc3339);
}

#[test]
fn record_corpus() {
    replay("record", checks::record);
}

#[test]
fn batch_corpus() {
    replay("batch", checks::batch);
}
