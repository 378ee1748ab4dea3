//! What each fuzz target asserts about one input. Shared by the libFuzzer targets and by
//! the stable test that replays the saved corpora (crates/samekey/tests/fuzz_corpus.rs).

use samekey::record::{read_record, RecordReader, TopValue};
use samekey::{
    canonical_json, parse_rfc3339, ContentHash, RevisionKey, Scheme, Ulid, UlidDeriver, Value,
};

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

/// `samekey batch`'s record reader against the tree parser: the same texts refused with the
/// same codes; for an object, the canonical text of its value without the omitted
/// top-level members, each member's span from its key to the end of its value, and its
/// value; a reader that remembers the previous record's key order reads it the same again.
/// The input's first line names the members to omit (comma separated); the rest is the
/// record.
pub fn record(data: &[u8]) {
    let Some(s) = text(data) else { return };
    let (omit_line, record) = s.split_once('\n').unwrap_or(("", s));
    let omit: Vec<&str> = omit_line.split(',').filter(|k| !k.is_empty()).collect();
    let mut canonical = String::new();
    let read = read_record(record, &omit, &mut canonical);
    let value = match Value::parse(record) {
        Ok(value) => value,
        Err(e) => {
            let code = read.expect_err("the record reader took a text the parser refuses");
            assert_eq!(code.code(), e.code(), "{record:?}");
            return;
        }
    };
    let read = read.expect("the record reader refused a text the parser takes");
    let Value::Object(members) = &value else {
        assert!(read.is_none(), "a record of a value that is no object");
        assert_eq!(canonical, canonical_json(&value).unwrap());
        return;
    };
    let record_members = read.expect("an object is a record");
    let kept: Vec<(String, Value)> = members
        .iter()
        .filter(|(k, _)| !omit.contains(&k.as_str()))
        .cloned()
        .collect();
    assert_eq!(canonical, canonical_json(&Value::Object(kept)).unwrap());
    assert_eq!(record_members.members.len(), members.len());
    assert_eq!(&record[record_members.close..=record_members.close], "}");
    for (m, (key, v)) in record_members.members.iter().zip(members) {
        assert_eq!(m.key, key.as_str());
        let alone = Value::parse(&format!("{{{}}}", &record[m.span.clone()])).unwrap();
        assert_eq!(
            alone,
            Value::Object(vec![(key.clone(), v.clone())]),
            "span of {key:?}"
        );
        match (&m.value, v) {
            (TopValue::String(a), Value::String(b)) => assert_eq!(a, b),
            (TopValue::Number(a), Value::Number(b)) => assert_eq!(a.to_bits(), b.to_bits()),
            (
                TopValue::Other,
                Value::Null | Value::Bool(_) | Value::Array(_) | Value::Object(_),
            ) => {}
            (a, b) => panic!("member {key:?}: {a:?} for {b:?}"),
        }
    }
    let mut reader = RecordReader::new();
    for _ in 0..2 {
        let mut again = String::new();
        let again_members = reader.read(record, &omit, &mut again).unwrap().unwrap();
        assert_eq!(again, canonical);
        assert_eq!(again_members, record_members);
    }
}

/// A batch of ids (the SIMD lanes where the CPU has them) against the same rows derived
/// one at a time: equal ids, and a batch that fails stops at the first row that fails
/// alone, with its code. The first byte picks the scheme, a secret, a namespace and the
/// fields per row (1 to 4); then each row is a time byte (0xFE: a time beyond the range,
/// so that a row fails) and its fields, each ended by 0xFF.
pub fn batch(data: &[u8]) {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let scheme = [Scheme::V1, Scheme::V2, Scheme::V0][usize::from(head % 3)];
    let secret: Option<&[u8]> = (head & 0x04 != 0 && scheme != Scheme::V0).then_some(b"k");
    let namespace = if head & 0x08 != 0 && scheme != Scheme::V0 {
        "ns"
    } else {
        ""
    };
    let width = usize::from(head >> 6) + 1;
    let Ok(deriver) = UlidDeriver::new(scheme, namespace, secret) else {
        return;
    };
    let mut times = Vec::new();
    let mut fields: Vec<&[u8]> = Vec::new();
    let mut parts = rest.split(|&b| b == 0xFF);
    'rows: while let Some(first) = parts.next() {
        let Some((&t, field)) = first.split_first() else {
            break;
        };
        let mut row = vec![field];
        for _ in 1..width {
            let Some(f) = parts.next() else { break 'rows };
            row.push(f);
        }
        times.push(if t == 0xFE {
            u64::MAX
        } else {
            u64::from(t) * 1_000_003
        });
        fields.extend(row);
    }
    let mut ids = Vec::new();
    let batch = deriver.derive_batch(&times, &fields, width, None, &mut ids);
    let mut one_by_one = Vec::new();
    let mut first_error = None;
    for (i, t) in times.iter().enumerate() {
        match deriver.derive(*t, &fields[i * width..(i + 1) * width]) {
            Ok(id) => one_by_one.push(id),
            Err(e) => {
                first_error = Some(e.code());
                break;
            }
        }
    }
    assert_eq!(ids, one_by_one, "{} rows of {width}", times.len());
    assert_eq!(batch.err().map(|e| e.code()), first_error);
}
