//! The JVM's two formats (bindings/kotlin `Frame.kt` writes the first, `CharPacker` the
//! second; bindings/uniffi's JNI reads both through this module, and nothing else
//! describes them).
//!
//! **A frame** is one id's fields in the calling thread's direct buffer, so that a call
//! passes only its address and length:
//!
//! ```text
//! 26 bytes for the result, field count (u32 LE), each field's length (u32 LE), the fields
//! ```
//!
//! The id is written back over the first bytes: its 26 characters, or its halves (most
//! significant first) as two little-endian longs.
//!
//! **Columns** are a batch's fields in one array, a column after another, with each
//! field's end offset in an `int[]` (field `i` is `text[ends[i - 1]..ends[i]]`): of `rows`
//! rows of `width` fields, field `c * rows + r` is row `r`'s field `c`; one `long` of
//! milliseconds a row. The JVM passes the fields as UTF-16 code units (a `char[]`), which
//! the JNI reads a section of rows at a time and turns into UTF-8 with
//! [`utf8_column`], column by column; [`derive_rows`] then reads the section's UTF-8 in
//! the same layout. (A column at a time, the JVM side reads each column through one
//! `List` type: a fifth faster than row after row.)

mod utf16;

pub use utf16::utf8_column;

use alloc::vec::Vec;

use samekey::timestamp::Millis;
use samekey::{Ulid, UlidDeriver};

use crate::codec::{Result, WireError};

/// A frame's bytes before its lengths: the result's room and the field count.
pub const FRAME_HEAD: usize = 26 + 4;

/// Fields of a frame read without an allocation: most ids have a few.
const STACK_FIELDS: usize = 8;

/// Calls `body` with the fields of `frame`, as one slice.
pub fn with_frame_fields<T>(frame: &[u8], body: impl FnOnce(&[&[u8]]) -> Result<T>) -> Result<T> {
    let bad = || WireError::Malformed("a malformed frame");
    let u32_at = |at: usize| -> Option<usize> {
        Some(u32::from_le_bytes(frame.get(at..at.checked_add(4)?)?.try_into().ok()?) as usize)
    };
    let count = u32_at(26).ok_or_else(bad)?;
    let mut data = count
        .checked_mul(4)
        .and_then(|n| n.checked_add(FRAME_HEAD))
        .ok_or_else(bad)?;
    let mut field = |i: usize| -> Result<&[u8]> {
        let len = u32_at(FRAME_HEAD + 4 * i).ok_or_else(bad)?;
        let end = data.checked_add(len).ok_or_else(bad)?;
        let bytes = frame.get(data..end).ok_or_else(bad)?;
        data = end;
        Ok(bytes)
    };
    if count <= STACK_FIELDS {
        let mut list: [&[u8]; STACK_FIELDS] = [&[]; STACK_FIELDS];
        for (i, slot) in list[..count].iter_mut().enumerate() {
            *slot = field(i)?;
        }
        body(&list[..count])
    } else {
        let list = (0..count).map(field).collect::<Result<Vec<_>>>()?;
        body(&list)
    }
}

/// The id of a frame's fields at `ms`, written back into the frame: its text when `text`,
/// else its halves.
pub fn derive_frame(deriver: &UlidDeriver, ms: i64, frame: &mut [u8], text: bool) -> Result<()> {
    // The deriver's settings were checked when it was made: only the range is left (§4.4).
    let id = with_frame_fields(frame, |fields| {
        Ok(deriver.derive(Millis::from(ms).check()?, fields)?)
    })?;
    if text {
        frame[..26].copy_from_slice(&id.to_text_bytes());
    } else {
        let [most, least] = halves(id);
        frame[..8].copy_from_slice(&most.to_le_bytes());
        frame[8..16].copy_from_slice(&least.to_le_bytes());
    }
    Ok(())
}

/// An id's halves, most significant first: the two longs a JVM `Ulid` holds.
pub fn halves(id: Ulid) -> [i64; 2] {
    let bits = u128::from_be_bytes(*id.as_bytes());
    [(bits >> 64) as i64, bits as i64]
}

/// The id of a JVM `Ulid`'s two longs, most significant first: [`halves`]'s inverse.
pub fn from_halves(most: i64, least: i64) -> Ulid {
    Ulid::from_bytes(((most as u64 as u128) << 64 | least as u64 as u128).to_be_bytes())
}

/// The fields of `rows` rows of `width` fields in columns (the module's format), row
/// after row: field `i` is `packed[ends[i - 1]..ends[i]]`, and row `r`'s field `c` is
/// field `c * rows + r`. The caller checked that `ends` has `rows * width`.
fn row_fields<'a>(
    packed: &'a [u8],
    ends: &[i32],
    rows: usize,
    width: usize,
) -> Result<Vec<&'a [u8]>> {
    // Then no slice below can fail.
    let within = i32::try_from(packed.len()).unwrap_or(i32::MAX);
    if !ends_in_order(ends, 0, within) {
        return Err(WireError::Malformed(
            "field ends out of order or beyond the bytes",
        ));
    }
    let start = |i: usize| if i == 0 { 0 } else { ends[i - 1] as usize };
    let mut fields = Vec::with_capacity(ends.len());
    for r in 0..rows {
        for c in 0..width {
            let i = c * rows + r;
            fields.push(&packed[start(i)..ends[i] as usize]);
        }
    }
    Ok(fields)
}

/// Whether `ends` never go down, from `from`, and the last is at most `to` (every end is
/// then in `from..=to`): one pass that does not branch, as the ends of a column nearly
/// always are.
fn ends_in_order(ends: &[i32], from: i32, to: i32) -> bool {
    let (mut last, mut bad) = (from, false);
    for &end in ends {
        bad |= end < last;
        last = end;
    }
    !bad && last <= to
}

/// The ids of the first `times.len()` of `rows` rows of `width` fields, their fields in
/// columns (the module's format, UTF-8), as halves, two longs a row, into `out`; on a
/// failing row, the rows before it are written and its error returned: the same ids and
/// error as row by row.
pub fn derive_rows(
    deriver: &UlidDeriver,
    times: &[i64],
    packed: &[u8],
    ends: &[i32],
    (rows, width): (usize, usize),
    out: &mut [i64],
) -> Result<()> {
    if ends.len() != width.saturating_mul(rows)
        || times.len() > rows
        || out.len() != 2 * times.len()
    {
        return Err(WireError::Malformed(
            "width fields a row, no more times than rows and two output longs a time",
        ));
    }
    let fields = row_fields(packed, ends, rows, width)?;
    let mut checked = Vec::with_capacity(times.len());
    let mut bad_time = Ok(());
    for &ms in times {
        match Millis::from(ms).check() {
            Ok(ms) => checked.push(ms),
            Err(e) => {
                bad_time = Err(e);
                break;
            }
        }
    }
    let mut ids = Vec::with_capacity(checked.len());
    let derived = deriver.derive_batch(
        &checked,
        &fields[..checked.len() * width], // the rows before a bad time
        width,
        None,
        &mut ids,
    );
    for (slot, id) in out.chunks_exact_mut(2).zip(&ids) {
        slot.copy_from_slice(&halves(*id));
    }
    derived?;
    Ok(bad_time?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use samekey::{Error, Scheme};

    fn frame(fields: &[&[u8]]) -> Vec<u8> {
        let mut f = vec![0u8; 26];
        f.extend_from_slice(&(fields.len() as u32).to_le_bytes());
        for x in fields {
            f.extend_from_slice(&(x.len() as u32).to_le_bytes());
        }
        for x in fields {
            f.extend_from_slice(x);
        }
        f
    }

    fn deriver() -> UlidDeriver {
        UlidDeriver::new(Scheme::V1, "posts", None).unwrap()
    }

    const T: i64 = 1_714_564_800_000;

    #[test]
    fn a_frame_gives_the_core_id_as_text_and_as_halves() {
        let d = deriver();
        let want = d.derive(T as u64, &["hello-world", "en"]).unwrap();
        for many in [false, true] {
            // Nine fields take the path past the stack's eight.
            let fields: Vec<&[u8]> = if many {
                vec![b"x"; 9]
            } else {
                vec![b"hello-world", b"en"]
            };
            let want = if many {
                d.derive(T as u64, &fields).unwrap()
            } else {
                want
            };
            let mut f = frame(&fields);
            derive_frame(&d, T, &mut f, true).unwrap();
            assert_eq!(&f[..26], &want.to_text_bytes());
            let mut f = frame(&fields);
            derive_frame(&d, T, &mut f, false).unwrap();
            let bits = u128::from_be_bytes(*want.as_bytes());
            assert_eq!(
                i64::from_le_bytes(f[..8].try_into().unwrap()),
                (bits >> 64) as i64
            );
            assert_eq!(
                i64::from_le_bytes(f[8..16].try_into().unwrap()),
                bits as i64
            );
        }
    }

    #[test]
    fn halves_go_both_ways() {
        for bytes in [
            [0u8; 16],
            [0xff; 16],
            *deriver().derive(T as u64, &["a"]).unwrap().as_bytes(),
        ] {
            let id = Ulid::from_bytes(bytes);
            let [most, least] = halves(id);
            assert_eq!(from_halves(most, least), id);
        }
    }

    #[test]
    fn a_malformed_frame_is_refused_not_read_beyond() {
        let d = deriver();
        let good = frame(&[b"hello", b"en"]);
        for cut in [0, 26, 29, 33, good.len() - 1] {
            let mut f = good[..cut].to_vec();
            assert!(
                matches!(
                    derive_frame(&d, T, &mut f, true),
                    Err(WireError::Malformed(_))
                ),
                "{cut}"
            );
        }
        let mut huge = frame(&[b"a"]);
        huge[26..30].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            derive_frame(&d, T, &mut huge, true),
            Err(WireError::Malformed(_))
        ));
        let mut long = frame(&[b"a"]);
        long[30..34].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            derive_frame(&d, T, &mut long, true),
            Err(WireError::Malformed(_))
        ));
        let mut early = frame(&[b"a"]);
        assert!(matches!(
            derive_frame(&d, -1, &mut early, true),
            Err(WireError::Core(Error::TimestampOutOfRange(_)))
        ));
    }

    #[test]
    fn columns_give_the_ids_of_frames_and_stop_at_a_bad_time() {
        let d = deriver();
        // Columns: the slugs, then the languages.
        let packed = b"hello-worldbyeenfr";
        let ends = [11, 14, 16, 18];
        let mut out = [0i64; 4];
        derive_rows(&d, &[T, T + 1], packed, &ends, (2, 2), &mut out).unwrap();
        for (row, (fields, t)) in [([&b"hello-world"[..], b"en"], T), ([b"bye", b"fr"], T + 1)]
            .iter()
            .enumerate()
        {
            let mut f = frame(fields);
            derive_frame(&d, *t, &mut f, false).unwrap();
            assert_eq!(out[2 * row], i64::from_le_bytes(f[..8].try_into().unwrap()));
            assert_eq!(
                out[2 * row + 1],
                i64::from_le_bytes(f[8..16].try_into().unwrap())
            );
        }
        let mut partial = [0i64; 4];
        let err = derive_rows(&d, &[T, -5], packed, &ends, (2, 2), &mut partial).unwrap_err();
        assert!(matches!(
            err,
            WireError::Core(Error::TimestampOutOfRange(_))
        ));
        assert_eq!(partial, [out[0], out[1], 0, 0]);
        // The first row alone, of a layout of two.
        let mut first = [0i64; 2];
        derive_rows(&d, &[T], packed, &ends, (2, 2), &mut first).unwrap();
        assert_eq!(first, out[..2]);
        for (ends, shape, out_len) in [
            (&[11, 14, 16][..], (2, 2), 4),
            (&ends[..], (2, 2), 3),
            (&ends[..], (1, 4), 4),
            (&[11, 9, 16, 18][..], (2, 2), 4),
            (&[-1, 14, 16, 18][..], (2, 2), 4),
            (&[11, 14, 16, 19][..], (2, 2), 4),
        ] {
            let mut out = vec![0i64; out_len];
            assert!(matches!(
                derive_rows(&d, &[T, T + 1], packed, ends, shape, &mut out),
                Err(WireError::Malformed(_))
            ));
        }
    }
}
