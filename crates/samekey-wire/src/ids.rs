//! Ids from packed requests: one, many, their candidates under a ring, verification.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::num::NonZeroUsize;

use samekey::timestamp::Millis;
use samekey::{Error, KeyRing, Scheme, Ulid, UlidDeriver};

use crate::codec::*;

/// Checks a deriver's settings once.
pub fn prepare_deriver(scheme: &str, namespace: &str, secret: Option<&[u8]>) -> Result<u8> {
    let scheme: Scheme = scheme.parse()?;
    UlidDeriver::new(scheme, namespace, secret)?;
    Ok(scheme_code(scheme))
}

/// Checks a key ring's schemes once; returns their codes, primary first.
/// The scheme codes of the ring of `accept` (newest first, the first is the primary);
/// an empty list is the core's `unknown_scheme`.
pub fn prepare_ring<S: AsRef<str>>(accept: &[S]) -> Result<Vec<u8>> {
    let ring = samekey::host::ring(accept)?;
    Ok(ring.accepted().iter().map(|&s| scheme_code(s)).collect())
}

/// The id of a request's fields at `t`, under its primary scheme. The time was converted
/// first; its range is checked after the scheme, secret and namespace (spec §4.4).
pub fn derive_ms(packed: &[u8], t: Millis) -> Result<Ulid> {
    let mut r = Request::parse(packed)?;
    let (scheme, namespace, secret) = (r.primary()?, r.namespace, r.secret);
    let t = t.check_for(scheme, namespace, secret)?;
    r.with_fields(|_, fields| Ok(samekey::derive_ulid(scheme, t, namespace, fields, secret)?))
}

/// The ULID text of a request's fields at `time_ms` (a JS number).
pub fn derive_string_js_ms(packed: &[u8], time_ms: f64) -> Result<String> {
    Ok(derive_ms(packed, Millis::from_f64(time_ms)?)?.to_string())
}

/// [`derive_ascii_js_ms`] of a request followed by its time: `packed request || f64le(time_ms)`,
/// so that one buffer is the whole call. Bytes after the time are ignored.
pub fn derive_ascii_trailing_js_ms(buf: &[u8]) -> Result<[u8; 26]> {
    let mut r = Request::parse(buf)?;
    let (scheme, namespace, secret) = (r.primary()?, r.namespace, r.secret);
    r.with_fields(|r, fields| {
        // Converted, then the scheme's checks, then the range (spec §4.4).
        let t = Millis::from_f64(r.f64()?)?.check_for(scheme, namespace, secret)?;
        Ok(samekey::derive_ulid(scheme, t, namespace, fields, secret)?.to_text_bytes())
    })
}

/// [`derive_string_js_ms`] as the 26 ASCII bytes of the text, without allocating.
pub fn derive_ascii_js_ms(packed: &[u8], time_ms: f64) -> Result<[u8; 26]> {
    Ok(derive_ms(packed, Millis::from_f64(time_ms)?)?.to_text_bytes())
}

/// The ids of rows of `width` fields each, one per time, handed to `out` in order, over
/// up to `max_threads` threads (`None`: every core; see [`samekey::PARALLEL_MIN_ROWS`]).
/// Rows are read first, without copying, up to the first whose fields or time cannot be
/// read; the rows before it are derived as one batch, and its error comes after theirs:
/// the same error, after the same ids, as row by row.
pub fn derive_many_ms(
    packed: &[u8],
    width: usize,
    times: impl IntoIterator<Item = core::result::Result<u64, Error>>,
    max_threads: Option<NonZeroUsize>,
    out: impl FnMut(Ulid),
) -> Result<()> {
    if width == 0 {
        return Err(Error::NoFields.into());
    }
    let mut r = Request::parse(packed)?;
    let deriver = UlidDeriver::new(r.primary()?, r.namespace, r.secret)?;
    derive_rows_with(&deriver, &mut r, width, times, max_threads, out)
}

/// [`derive_many_ms`] with a deriver made beforehand, the rows' fields read from `r`.
pub fn derive_rows_with(
    deriver: &UlidDeriver,
    r: &mut Request<'_>,
    width: usize,
    times: impl IntoIterator<Item = core::result::Result<u64, Error>>,
    max_threads: Option<NonZeroUsize>,
    mut out: impl FnMut(Ulid),
) -> Result<()> {
    if width == 0 {
        return Err(Error::NoFields.into());
    }
    let times = times.into_iter();
    let rows = times.size_hint().0;
    let (mut ts, mut fields) = (Vec::with_capacity(rows), Vec::with_capacity(rows * width));
    let mut unread = Ok(());
    for t in times {
        let start = fields.len();
        let read = (0..width)
            .try_for_each(|_| {
                fields.push(r.item()?);
                Ok::<_, WireError>(())
            })
            .and_then(|()| Ok(t?));
        match read {
            Ok(t) => ts.push(t),
            Err(e) => {
                fields.truncate(start);
                unread = Err(e);
                break;
            }
        }
    }
    let mut ids = Vec::with_capacity(ts.len());
    let derived = deriver.derive_batch(&ts, &fields, width, max_threads, &mut ids);
    ids.into_iter().for_each(&mut out);
    derived?;
    unread
}

/// The ids of `times.len()` rows of `width` fields, as one string of 26-character ULIDs.
pub fn derive_many_js_ms(
    packed: &[u8],
    width: usize,
    times_ms: &[f64],
    max_threads: Option<NonZeroUsize>,
) -> Result<String> {
    let mut out = Vec::with_capacity(26 * times_ms.len());
    let times = times_ms
        .iter()
        .map(|&t| samekey::timestamp::from_millis_f64(t));
    derive_many_ms(packed, width, times, max_threads, |id| {
        out.extend_from_slice(&id.to_text_bytes())
    })?;
    String::from_utf8(out).map_err(|_| WireError::Malformed("non-ASCII ULID text"))
}

/// [`derive_many_js_ms`] with the fields as UTF-16 text, as a JavaScript engine holds it: every
/// field of every row, row by row, concatenated in `units`, field `i` being `lengths[i]`
/// units long. `packed` carries the settings (scheme, namespace, secret) and no field.
/// The ids' text (26 ASCII bytes each) is appended to `out`, which the caller may reuse
/// from batch to batch; on an error `out` holds the ids before the failing row.
pub fn derive_many_utf16_js_ms(
    packed: &[u8],
    width: usize,
    times_ms: &[f64],
    units: &[u16],
    lengths: &[u32],
    max_threads: Option<NonZeroUsize>,
    out: &mut Vec<u8>,
) -> Result<()> {
    if width == 0 {
        return Err(Error::NoFields.into());
    }
    if lengths.len() != width * times_ms.len() {
        return Err(WireError::Malformed("one length per field of every row"));
    }
    let r = Request::parse(packed)?;
    let deriver = UlidDeriver::new(r.primary()?, r.namespace, r.secret)?;
    // Every row's text as UTF-8 first (field ends in `ends`), up to the first row that
    // cannot be converted; then the rows before it as one batch, then its error.
    let (mut utf8, mut ends, mut ts) = (Vec::new(), Vec::with_capacity(lengths.len()), Vec::new());
    let mut at = 0usize;
    let mut unread = Ok(());
    for (row, &t) in lengths.chunks_exact(width).zip(times_ms) {
        match utf8_row(&units[at.min(units.len())..], row, &mut utf8, &mut ends)
            .and_then(|used| Ok((used, samekey::timestamp::from_millis_f64(t)?)))
        {
            Ok((used, t)) => {
                at += used;
                ts.push(t);
            }
            Err(e) => {
                unread = Err(e);
                break;
            }
        }
    }
    ends.truncate(ts.len() * width);
    let mut start = 0;
    let fields: Vec<&[u8]> = ends
        .iter()
        .map(|&end| {
            let field = &utf8[start..end];
            start = end;
            field
        })
        .collect();
    let mut ids = Vec::with_capacity(ts.len());
    let derived = deriver.derive_batch(&ts, &fields, width, max_threads, &mut ids);
    out.reserve(26 * ids.len());
    for id in &ids {
        out.extend_from_slice(&id.to_text_bytes());
    }
    derived?;
    unread?;
    if at != units.len() {
        return Err(WireError::Malformed("the text is longer than its lengths"));
    }
    Ok(())
}

/// Appends one row's fields, the first units of `units`, to `utf8` as UTF-8 and each
/// field's end to `ends`; returns how many units the row used.
fn utf8_row(
    units: &[u16],
    row: &[u32],
    utf8: &mut Vec<u8>,
    ends: &mut Vec<usize>,
) -> Result<usize> {
    let row_len = row
        .iter()
        .fold(0usize, |a, &n| a.saturating_add(n as usize));
    let text = units
        .get(..row_len)
        .ok_or(WireError::Malformed("the lengths exceed the text"))?;
    let base = utf8.len();
    if crate::ascii::push_if_ascii(text, utf8) {
        // One narrowing copy of the row, and UTF-8 offsets equal UTF-16 ones.
        let mut end = base;
        ends.extend(row.iter().map(|&n| {
            end += n as usize;
            end
        }));
    } else {
        // Field by field, so that a surrogate pair split across two fields is an error.
        let mut start = 0;
        for &n in row {
            samekey::text::push_utf16(&text[start..start + n as usize], utf8)?;
            ends.push(utf8.len());
            start += n as usize;
        }
    }
    Ok(row_len)
}

/// The exact bytes hashed for a request's id (spec §4.2, §4.3).
pub fn ulid_message(packed: &[u8]) -> Result<Vec<u8>> {
    let mut r = Request::parse(packed)?;
    let fields = r.fields(r.count)?;
    Ok(samekey::ulid_message(r.primary()?, r.namespace, &fields)?)
}

/// `scheme ULID scheme ULID ...`: the id under every accepted scheme that takes the inputs.
pub fn candidates_js_ms(packed: &[u8], time_ms: f64) -> Result<String> {
    candidates_ms(packed, Millis::from_f64(time_ms)?)
}

/// [`candidates_js_ms`] at converted milliseconds.
pub fn candidates_ms(packed: &[u8], t: Millis) -> Result<String> {
    let mut r = Request::parse(packed)?;
    let fields = r.fields(r.count)?;
    let ring = r.ring()?;
    let t = t.check_for(ring.primary(), r.namespace, r.secret)?;
    let found = ring.candidate_ulids(t, r.namespace, &fields, r.secret)?;
    let parts: Vec<String> = found
        .iter()
        .map(|(s, id)| alloc::format!("{s} {id}"))
        .collect();
    Ok(parts.join(" "))
}

/// The accepted scheme that derived `ulid` from the request's inputs.
pub fn verify_js_ms(packed: &[u8], ulid: &str, time_ms: f64) -> Result<&'static str> {
    // The host's time is converted, then the id parsed, then derivation (spec §9.2).
    let t = Millis::from_f64(time_ms)?;
    let id: Ulid = ulid.parse()?;
    verify_ms(packed, &id, t)
}

/// The accepted scheme that derived `id` from the request's inputs at `t`.
pub fn verify_ms(packed: &[u8], id: &Ulid, t: Millis) -> Result<&'static str> {
    let mut r = Request::parse(packed)?;
    let fields = r.fields(r.count)?;
    let ring = r.ring()?;
    let t = t.check_for(ring.primary(), r.namespace, r.secret)?;
    Ok(ring
        .verify_ulid(id, t, r.namespace, &fields, r.secret)?
        .as_str())
}

pub(crate) fn ring_from_codes(codes: &[u8]) -> Result<KeyRing> {
    let schemes = codes
        .iter()
        .map(|&c| scheme_of(c))
        .collect::<Result<Vec<_>>>()?;
    let (primary, rest) = schemes
        .split_first()
        .ok_or(WireError::Malformed("no scheme"))?;
    Ok(KeyRing::new(*primary, rest)?)
}

/// The accepted scheme of a key text, for a ring given by its codes.
pub fn scheme_of_key(codes: &[u8], key: &str) -> Result<&'static str> {
    Ok(ring_from_codes(codes)?.scheme_of_key(key)?.as_str())
}

/// A revision key under a ring (the content hash's scheme must be accepted).
pub fn ring_revision_key(
    codes: &[u8],
    content_hash: &str,
    parent: Option<&str>,
    secret: Option<&[u8]>,
) -> Result<String> {
    let content: samekey::ContentHash = content_hash.parse()?;
    Ok(ring_from_codes(codes)?
        .derive_revision(parent, &content, secret)?
        .to_string())
}
