//! A column of Java text as UTF-8: the JVM side copies each `String`'s UTF-16 code units
//! with `String.getChars` (the JDK widens a compact string's bytes in a vector loop) and
//! leaves checking and encoding to this module, where a whole column's part is checked for
//! ASCII at once; checking each character in Java cost a 20-character value 8 ns.

use alloc::vec::Vec;

use crate::codec::{Result, WireError};

/// Appends the UTF-8 of the fields in `units` to `out`, field `r` being
/// `units[ends[r - 1] - from..ends[r] - from]` (the ends index the array `units` was copied
/// from, at `from`; the first field starts there), and rewrites each end as the field's
/// end in `out`.
///
/// Returns the first field that holds a lone surrogate (`invalid_string`, spec §2.2,
/// which Java's own encoders would replace with `?`), its text and every later field's left
/// empty; `None` once every field is converted. Ends out of order, outside `units` or past
/// an `i32` in `out` are refused.
pub fn utf8_column(
    units: &[u16],
    from: usize,
    ends: &mut [i32],
    out: &mut Vec<u8>,
) -> Result<Option<usize>> {
    let base = out.len();
    let (Ok(first), Ok(last)) = (i32::try_from(from), i32::try_from(from + units.len())) else {
        return Err(out_of_order());
    };
    if !super::ends_in_order(ends, first, last) {
        return Err(out_of_order());
    }
    if crate::ascii::push_if_ascii(units, out) {
        // One byte a unit: ends move by where the column starts in `out`.
        offset(out.len())?;
        let shift = base as i32 - first; // both ends of the sum are in `out`, an i32
        ends.iter_mut().for_each(|e| *e += shift);
        return Ok(None);
    }
    let mut start = 0;
    for (row, end) in ends.iter_mut().enumerate() {
        // Field by field: a surrogate pair split across two fields is two lone ones.
        let at = (*end - first) as usize; // at or after `first`: checked above
        if samekey::text::push_utf16(&units[start..at], out).is_err() {
            return empty_from(row, ends, out, base).map(Some);
        }
        *end = offset(out.len())?;
        start = at;
    }
    Ok(None)
}

fn out_of_order() -> WireError {
    WireError::Malformed("field ends out of order or outside the text")
}

/// Field `row`'s text and the ones after it dropped: their ends all at where it started.
fn empty_from(row: usize, ends: &mut [i32], out: &mut Vec<u8>, base: usize) -> Result<usize> {
    let start = match row {
        0 => base,
        _ => ends[row - 1] as usize, // written by this column, in `out`
    };
    out.truncate(start);
    let start = offset(start)?;
    ends[row..].iter_mut().for_each(|e| *e = start);
    Ok(row)
}

/// An offset into the UTF-8 as the `i32` the format's ends are.
fn offset(at: usize) -> Result<i32> {
    i32::try_from(at).map_err(|_| WireError::Malformed("a section's text beyond 2 GiB"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;

    fn utf16_of(values: &[&str]) -> (Vec<u16>, Vec<i32>) {
        let mut units = Vec::new();
        let mut ends = Vec::new();
        for v in values {
            units.extend(v.encode_utf16());
            ends.push(units.len() as i32);
        }
        (units, ends)
    }

    fn fields(out: &[u8], ends: &[i32]) -> Vec<String> {
        let mut start = 0;
        ends.iter()
            .map(|&e| {
                let f = String::from_utf8(out[start..e as usize].to_vec()).unwrap();
                start = e as usize;
                f
            })
            .collect()
    }

    #[test]
    fn ascii_and_other_text_become_the_utf8_of_each_field_after_what_out_held() {
        for values in [
            &["hello-world", "en", "", "x"][..],
            &["héllo", "日本語", "", "a\u{0}b", "😀 astral", "\u{ffff}"][..],
            &[][..],
        ] {
            let (units, mut ends) = utf16_of(values);
            let mut out = b"before".to_vec();
            assert_eq!(utf8_column(&units, 0, &mut ends, &mut out).unwrap(), None);
            assert_eq!(&out[..6], b"before");
            let mut all = vec![6];
            all.extend(&ends);
            let got: Vec<String> = (0..values.len())
                .map(|i| {
                    String::from_utf8(out[all[i] as usize..all[i + 1] as usize].to_vec()).unwrap()
                })
                .collect();
            assert_eq!(got, values);
        }
    }

    #[test]
    fn a_lone_surrogate_names_its_field_and_empties_it_and_the_rest() {
        let values = ["ok", "x", "y", "😀"];
        for (lone, at) in [(0xD800u16, 1usize), (0xDC00, 1), (0xDBFF, 2)] {
            let (mut units, mut ends) = utf16_of(&values);
            // The lone unit ends field `at`.
            units.insert(ends[at] as usize, lone);
            for e in &mut ends[at..] {
                *e += 1;
            }
            let mut out = Vec::new();
            assert_eq!(
                utf8_column(&units, 0, &mut ends, &mut out).unwrap(),
                Some(at)
            );
            let kept = values
                .iter()
                .enumerate()
                .map(|(i, v)| if i < at { *v } else { "" });
            assert_eq!(fields(&out, &ends), kept.collect::<Vec<_>>());
        }
        // A high surrogate ending a field is lone, even if the next field starts low.
        let units = [b'a' as u16, 0xD83D, 0xDE00];
        assert_eq!(
            utf8_column(&units, 0, &mut [2, 3], &mut Vec::new()).unwrap(),
            Some(0)
        );
    }

    #[test]
    fn ends_count_from_where_the_units_were_copied() {
        let (units, ends) = utf16_of(&["héllo", "en"]);
        let mut moved = ends.iter().map(|e| e + 1000).collect::<Vec<_>>();
        let mut out = b"x".to_vec();
        assert_eq!(
            utf8_column(&units, 1000, &mut moved, &mut out).unwrap(),
            None
        );
        assert_eq!(
            fields(&out[1..], &moved.iter().map(|e| e - 1).collect::<Vec<_>>()),
            ["héllo", "en"]
        );
        let (ascii, ends) = utf16_of(&["hello", "en"]);
        let mut moved = ends.iter().map(|e| e + 7).collect::<Vec<_>>();
        let base = out.len() as i32;
        utf8_column(&ascii, 7, &mut moved, &mut out).unwrap();
        assert_eq!(&out[base as usize..], b"helloen");
        assert_eq!(moved, [base + 5, base + 7]);
    }

    #[test]
    fn ends_out_of_order_or_outside_the_units_are_refused() {
        for text in [["abc", "de"], ["abc", "dé"]] {
            let (units, _) = utf16_of(&text);
            for (from, mut ends) in [
                (0, [4, 2]),
                (0, [-1, 5]),
                (0, [3, 6]),
                (0, [3, i32::MAX]),
                (2, [1, 7]),
                (2, [5, 8]),
                (i32::MAX as usize, [0, 0]),
            ] {
                assert!(
                    matches!(
                        utf8_column(&units, from, &mut ends, &mut Vec::new()),
                        Err(WireError::Malformed(_))
                    ),
                    "{from} {ends:?} of {text:?}"
                );
            }
        }
    }
}
