//! A JSON object read once, for pipelines that key records (`samekey batch`): the
//! canonical text of its members but some (spec §6), and where each top-level member lies
//! in the text, with its string or number value. The same strict parser as everywhere.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::Result;
use crate::jcs::{Canonical, Top};
use crate::key_order::KeyOrder;

pub use crate::jcs::{RecordMember, TopValue};

/// A JSON object's top-level members, in the order of the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Record<'t> {
    /// The members, in order.
    pub members: Vec<RecordMember<'t>>,
    /// The offset of the object's closing `}`.
    pub close: usize,
}

impl<'t> Record<'t> {
    /// The value of the member `key`, if the record has one.
    pub fn get(&self, key: &str) -> Option<&TopValue<'t>> {
        self.members.iter().find(|m| m.key == key).map(|m| &m.value)
    }
}

/// Parses `text` strictly (spec §6.1), appends to `canonical` the canonical form of its
/// value without the top-level members named in `omit`, and returns the top-level
/// members when the value is an object (`None` for any other value).
///
/// ```
/// use samekey::record::{read_record, TopValue};
/// let text = r#"{"slug": "a\u0062", "n": 1.50, "_id": "x", "tags": [2, 1]}"#;
/// let mut canonical = String::new();
/// let record = read_record(text, &["_id"], &mut canonical)?.unwrap();
/// assert_eq!(canonical, r#"{"n":1.5,"slug":"ab","tags":[2,1]}"#);
/// assert_eq!(record.get("slug"), Some(&TopValue::String("ab".into())));
/// assert_eq!(record.get("n"), Some(&TopValue::Number(1.5)));
/// assert_eq!(&text[record.members[2].span.clone()], r#""_id": "x""#);
/// assert_eq!(record.close, text.len() - 1);
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn read_record<'t>(
    text: &'t str,
    omit: &'t [&'t str],
    canonical: &mut String,
) -> Result<Option<Record<'t>>> {
    RecordReader::new().read(text, omit, canonical)
}

/// Reads records one after another, as [`read_record`] does, faster when their
/// top-level keys come in the same order as the record before (as the lines of a JSONL
/// file mostly do): it remembers that order's canonical order instead of sorting again.
///
/// ```
/// use samekey::record::RecordReader;
/// let mut reader = RecordReader::new();
/// let mut canonical = String::new();
/// for line in [r#"{"b":1,"a":2}"#, r#"{"b":3,"a":4}"#, r#"{"a":5,"c":6}"#] {
///     canonical.clear();
///     reader.read(line, &[], &mut canonical)?;
/// }
/// assert_eq!(canonical, r#"{"a":5,"c":6}"#);
/// # Ok::<(), samekey::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct RecordReader {
    order: KeyOrder,
    text: String,
}

impl RecordReader {
    /// A reader that remembers nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// [`read_record`] of `text`.
    pub fn read<'t>(
        &mut self,
        text: &'t str,
        omit: &'t [&'t str],
        canonical: &mut String,
    ) -> Result<Option<Record<'t>>> {
        let mut top = Top {
            is_object: false,
            omit,
            // Twelve members (72 bytes each) stay within glibc's per-thread cache of
            // small blocks; a larger first allocation took its slower path every record.
            members: Vec::with_capacity(12),
            order: core::mem::take(&mut self.order),
            text: core::mem::take(&mut self.text),
        };
        let writer = Canonical::new(canonical, Some(&mut top));
        let parsed = crate::json::parse_into(text, false, writer);
        self.order = core::mem::take(&mut top.order);
        self.text = core::mem::take(&mut top.text);
        parsed?;
        if !top.is_object {
            return Ok(None);
        }
        // The parser allows only JSON whitespace after the value.
        let close = text.trim_end_matches([' ', '\t', '\n', '\r']).len() - 1;
        Ok(Some(Record {
            members: top.members,
            close,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jcs::canonicalize_json_text;

    #[test]
    fn canonical_text_is_that_of_the_record_without_the_omitted_members() {
        for (text, omit, expect) in [
            (r#"{"b":1,"a":2}"#, &[][..], r#"{"a":2,"b":1}"#),
            (r#"{"b":1,"a":2}"#, &["a"][..], r#"{"b":1}"#),
            (r#"{"a":2}"#, &["a"][..], r#"{}"#),
            (r#"{"a":{"a":1,"b":2},"b":3}"#, &["a"][..], r#"{"b":3}"#),
            (
                r#"{"x":{"a":1,"b":2}}"#,
                &["a"][..],
                r#"{"x":{"a":1,"b":2}}"#,
            ),
            (
                r#"{"z":[{"a":1}],"a":0}"#,
                &["a", "q"][..],
                r#"{"z":[{"a":1}]}"#,
            ),
        ] {
            let mut out = String::new();
            read_record(text, omit, &mut out).unwrap().unwrap();
            assert_eq!(out, expect, "{text} without {omit:?}");
            if omit.is_empty() {
                assert_eq!(out, canonicalize_json_text(text).unwrap());
            }
        }
    }

    #[test]
    fn members_are_found_with_their_spans_and_values() {
        let text = " {\"a\" : \"x\\ny\" , \"b\":[1,{\"c\":\"d\"}], \"c\": -0.0, \"d\":null } ";
        let mut out = String::new();
        let r = read_record(text, &[], &mut out).unwrap().unwrap();
        let keys: Vec<&str> = r.members.iter().map(|m| &*m.key).collect();
        assert_eq!(keys, ["a", "b", "c", "d"]);
        assert_eq!(&text[r.members[0].span.clone()], "\"a\" : \"x\\ny\"");
        assert_eq!(&text[r.members[1].span.clone()], "\"b\":[1,{\"c\":\"d\"}]");
        assert_eq!(r.get("a"), Some(&TopValue::String("x\ny".into())));
        assert_eq!(r.get("b"), Some(&TopValue::Other));
        assert_eq!(r.get("c"), Some(&TopValue::Number(0.0)));
        assert_eq!(r.get("d"), Some(&TopValue::Other));
        assert_eq!(&text[r.close..=r.close], "}");
    }

    #[test]
    fn a_reader_gives_what_each_record_read_alone_gives() {
        // Same layouts in a row, new layouts, duplicates, omitted members, other values:
        // the remembered order must never leak from one record into another.
        let lines = [
            r#"{"b":1,"a":2,"c":{"z":1,"y":2}}"#,
            r#"{"b":3,"a":4,"c":{"y":1,"z":2}}"#,
            r#"{"b":3,"a":4,"c":5,"_id":"x"}"#,
            r#"{"a":1,"b":2}"#,
            r#"{"a":1,"b":2}"#,
            r#"{"b":1,"a":2,"b":3}"#,
            r#"{"b":1,"a":2}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":1,"b":2}"#,
            r#"{}"#,
            r#"[{"b":1,"a":2}]"#,
            r#"{"_id":"x","b":1,"a":2}"#,
            r#"{"_id":"x","b":1,"a":2}"#,
            r#"{"b":1,"a":2}"#,
            r#"{"b":1,"a":2}"#,
            r#"{"long-key-number-1":1,"long-key-number-0":2}"#,
            r#"{"long-key-number-1":1,"long-key-number-2":2}"#,
        ];
        let mut reader = RecordReader::new();
        for omit in [&[][..], &["_id"][..]] {
            for text in lines {
                let (mut alone, mut again) = (String::new(), String::new());
                let want = read_record(text, omit, &mut alone).map_err(|e| e.code());
                let got = reader.read(text, omit, &mut again).map_err(|e| e.code());
                assert_eq!(got, want, "{text}");
                assert_eq!(again, alone, "{text}");
                if omit.is_empty() && want.is_ok() {
                    assert_eq!(alone, canonicalize_json_text(text).unwrap(), "{text}");
                }
            }
        }
    }

    #[test]
    fn other_values_are_not_records_and_errors_are_the_parsers() {
        let mut out = String::new();
        assert_eq!(read_record("[1]", &[], &mut out).unwrap(), None);
        assert_eq!(read_record("\"s\"", &[], &mut out).unwrap(), None);
        for (text, code) in [
            (r#"{"a":1,"a":2}"#, "duplicate_key"),
            (r#"{"a":1,"a":2}"#, "duplicate_key"),
            ("{\"a\":9007199254740992}", "number_out_of_range"),
            ("{\"a\":\"\\ud800\"}", "invalid_json"),
            ("{", "invalid_json"),
        ] {
            let err = read_record(text, &["a"], &mut out).unwrap_err();
            assert_eq!(err.code(), code, "{text}");
        }
    }
}
