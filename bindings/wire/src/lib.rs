//! How samekey's foreign bindings pass identity inputs to the core: one byte buffer
//! instead of arrays of strings. For the JavaScript backends (napi, wasm-bindgen),
//! converting strings one argument at a time costs several times the hashing; for the C
//! ABI (and Go through cgo) a flat buffer holds no pointers, so nothing needs pinning.
//! This is transport only: the samekey framing is done by the core.
//!
//! A packed request is
//!
//! ```text
//! k, scheme codes (k bytes: the first is the primary), has_secret (0/1), field count,
//! then length-prefixed items: namespace, [secret], fields
//! ```
//!
//! where an item is a little-endian u32 length and its bytes, and a scheme code is the
//! index in `Scheme::ALL` (v0 = 0, v1 = 1, v2 = 2).

#![no_std]
extern crate alloc;

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use samekey::{Error, KeyRing, Scheme, Ulid, UlidDeriver};

/// A malformed request is a bug in the JS layer, not bad user input.
#[derive(Debug)]
pub enum WireError {
    Core(Error),
    Malformed(&'static str),
}

impl From<Error> for WireError {
    fn from(e: Error) -> Self {
        WireError::Core(e)
    }
}

pub type Result<T> = core::result::Result<T, WireError>;

pub fn scheme_code(scheme: Scheme) -> u8 {
    Scheme::ALL.iter().position(|&s| s == scheme).unwrap_or(0) as u8
}

fn scheme_of(code: u8) -> Result<Scheme> {
    Scheme::ALL
        .get(usize::from(code))
        .copied()
        .ok_or(WireError::Malformed("unknown scheme code"))
}

/// A decoded request; its slices borrow from the buffer. Decoding allocates nothing, as
/// it runs on every single-id call.
pub struct Request<'a> {
    /// Scheme codes, primary first, each checked by `parse`.
    codes: &'a [u8],
    pub namespace: &'a str,
    pub secret: Option<&'a [u8]>,
    pub count: usize,
    buf: &'a [u8],
    at: usize,
}

impl<'a> Request<'a> {
    pub fn parse(buf: &'a [u8]) -> Result<Self> {
        let k = usize::from(*buf.first().ok_or(WireError::Malformed("empty request"))?);
        let head = buf
            .get(1..k + 3)
            .ok_or(WireError::Malformed("short header"))?;
        let codes = &head[..k];
        for &c in codes {
            scheme_of(c)?;
        }
        let (has_secret, count) = (head[k] == 1, usize::from(head[k + 1]));
        let mut r = Request {
            codes,
            namespace: "",
            secret: None,
            count,
            buf,
            at: k + 3,
        };
        r.namespace = core::str::from_utf8(r.item()?).map_err(|_| Error::InvalidString)?;
        if has_secret {
            r.secret = Some(r.item()?);
        }
        Ok(r)
    }

    /// The next length-prefixed item.
    pub fn item(&mut self) -> Result<&'a [u8]> {
        let len = self
            .buf
            .get(self.at..self.at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or(WireError::Malformed("truncated length"))?;
        let item = self
            .buf
            .get(self.at + 4..self.at + 4 + len)
            .ok_or(WireError::Malformed("truncated item"))?;
        self.at += 4 + len;
        Ok(item)
    }

    pub fn fields(&mut self, n: usize) -> Result<Vec<&'a [u8]>> {
        (0..n).map(|_| self.item()).collect()
    }

    /// Calls `f` with the request's `count` fields, on the stack when there are few, and
    /// the request positioned after them.
    pub fn with_fields<R>(
        &mut self,
        f: impl FnOnce(&mut Self, &[&'a [u8]]) -> Result<R>,
    ) -> Result<R> {
        let mut few: [&[u8]; 8] = [&[]; 8];
        if let Some(slots) = few.get_mut(..self.count) {
            for slot in slots.iter_mut() {
                *slot = self.item()?;
            }
            return f(self, slots);
        }
        let fields = self.fields(self.count)?;
        f(self, &fields)
    }

    /// The next 8 bytes as a little-endian `f64`.
    pub fn f64(&mut self) -> Result<f64> {
        let bytes = self
            .buf
            .get(self.at..self.at + 8)
            .ok_or(WireError::Malformed("truncated time"))?;
        self.at += 8;
        let mut le = [0u8; 8];
        le.copy_from_slice(bytes);
        Ok(f64::from_le_bytes(le))
    }

    fn primary(&self) -> Result<Scheme> {
        scheme_of(
            *self
                .codes
                .first()
                .ok_or(WireError::Malformed("no scheme"))?,
        )
    }

    fn ring(&self) -> Result<KeyRing> {
        let accepted = self.codes[1..]
            .iter()
            .map(|&c| scheme_of(c))
            .collect::<Result<Vec<_>>>()?;
        Ok(KeyRing::new(self.primary()?, &accepted)?)
    }
}

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
    let accept = accept
        .iter()
        .map(|s| s.as_ref().parse())
        .collect::<core::result::Result<Vec<Scheme>, _>>()?;
    let ring = KeyRing::from_accept(&accept)?;
    Ok(ring.accepted().iter().map(|&s| scheme_code(s)).collect())
}

/// The id of a request's fields at `t` (checked milliseconds), under its primary scheme.
pub fn derive_id(packed: &[u8], t: u64) -> Result<Ulid> {
    let mut r = Request::parse(packed)?;
    let (scheme, namespace, secret) = (r.primary()?, r.namespace, r.secret);
    r.with_fields(|_, fields| Ok(samekey::derive_ulid(scheme, t, namespace, fields, secret)?))
}

/// The ULID text of a request's fields at `time_ms` (a JS number).
pub fn derive(packed: &[u8], time_ms: f64) -> Result<String> {
    Ok(derive_id(packed, samekey::timestamp::from_millis_f64(time_ms)?)?.to_string())
}

/// [`derive_text`] of a request followed by its time: `packed request || f64le(time_ms)`,
/// so that one buffer is the whole call. Bytes after the time are ignored.
pub fn derive_timed(buf: &[u8]) -> Result<[u8; 26]> {
    let mut r = Request::parse(buf)?;
    let (scheme, namespace, secret) = (r.primary()?, r.namespace, r.secret);
    r.with_fields(|r, fields| {
        let t = samekey::timestamp::from_millis_f64(r.f64()?)?;
        Ok(samekey::derive_ulid(scheme, t, namespace, fields, secret)?.to_text_bytes())
    })
}

/// [`derive`] as the 26 ASCII bytes of the text, without allocating.
pub fn derive_text(packed: &[u8], time_ms: f64) -> Result<[u8; 26]> {
    Ok(derive_id(packed, samekey::timestamp::from_millis_f64(time_ms)?)?.to_text_bytes())
}

/// The ids of rows of `width` fields each, one per time, handed to `out` in order.
pub fn derive_many_ids(
    packed: &[u8],
    width: usize,
    times: impl IntoIterator<Item = core::result::Result<u64, Error>>,
    mut out: impl FnMut(Ulid),
) -> Result<()> {
    if width == 0 {
        return Err(Error::NoFields.into());
    }
    let mut r = Request::parse(packed)?;
    let deriver = UlidDeriver::new(r.primary()?, r.namespace, r.secret)?;
    let mut row = Vec::with_capacity(width);
    for t in times {
        row.clear();
        for _ in 0..width {
            row.push(r.item()?);
        }
        out(deriver.derive(t?, &row)?);
    }
    Ok(())
}

/// The ids of `times.len()` rows of `width` fields, as one string of 26-character ULIDs.
pub fn derive_many(packed: &[u8], width: usize, times_ms: &[f64]) -> Result<String> {
    let mut out = Vec::with_capacity(26 * times_ms.len());
    let times = times_ms
        .iter()
        .map(|&t| samekey::timestamp::from_millis_f64(t));
    derive_many_ids(packed, width, times, |id| {
        out.extend_from_slice(&id.to_text_bytes())
    })?;
    String::from_utf8(out).map_err(|_| WireError::Malformed("non-ASCII ULID text"))
}

/// [`derive_many`] with the fields as UTF-16 text, as a JavaScript engine holds it: every
/// field of every row, row by row, concatenated in `units`, field `i` being `lengths[i]`
/// units long. `packed` carries the settings (scheme, namespace, secret) and no field.
/// The ids' text (26 ASCII bytes each) is appended to `out`, which the caller may reuse
/// from batch to batch; on an error `out` holds the ids before the failing row.
pub fn derive_many_utf16(
    packed: &[u8],
    width: usize,
    times_ms: &[f64],
    units: &[u16],
    lengths: &[u32],
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
    out.reserve(26 * times_ms.len());
    let (mut utf8, mut ends) = (Vec::new(), Vec::with_capacity(width));
    let mut at = 0usize;
    for (row, &t) in lengths.chunks_exact(width).zip(times_ms) {
        let row_len = row
            .iter()
            .fold(0usize, |a, &n| a.saturating_add(n as usize));
        let text = units
            .get(at..at.saturating_add(row_len))
            .ok_or(WireError::Malformed("the lengths exceed the text"))?;
        at += row_len;
        utf8.clear();
        ends.clear();
        // A fold without early exit, which compiles to vector instructions.
        if text.iter().fold(0, |any, &u| any | u) < 0x80 {
            // ASCII: one narrowing copy of the row, and UTF-8 offsets equal UTF-16 ones.
            utf8.extend(text.iter().map(|&u| u as u8));
            let mut end = 0;
            ends.extend(row.iter().map(|&n| {
                end += n as usize;
                end
            }));
        } else {
            // Field by field, so that a surrogate pair split across two fields is an error.
            let mut start = 0;
            for &n in row {
                samekey::text::push_utf16(&text[start..start + n as usize], &mut utf8)?;
                ends.push(utf8.len());
                start += n as usize;
            }
        }
        // Rows of up to 4 fields (nearly all) slice the buffer without allocating.
        let mut few: [&[u8]; 4] = [&[]; 4];
        let mut many: Vec<&[u8]> = Vec::new();
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            if width <= few.len() {
                few[i] = &utf8[start..end];
            } else {
                many.push(&utf8[start..end]);
            }
            start = end;
        }
        let fields = if width <= few.len() {
            &few[..width]
        } else {
            &many[..]
        };
        let id = deriver.derive(samekey::timestamp::from_millis_f64(t)?, fields)?;
        out.extend_from_slice(&id.to_text_bytes());
    }
    if at != units.len() {
        return Err(WireError::Malformed("the text is longer than its lengths"));
    }
    Ok(())
}

/// The exact bytes hashed for a request's id (spec §4.2, §4.3).
pub fn ulid_message(packed: &[u8]) -> Result<Vec<u8>> {
    let mut r = Request::parse(packed)?;
    let fields = r.fields(r.count)?;
    Ok(samekey::ulid_message(r.primary()?, r.namespace, &fields)?)
}

/// `scheme ULID scheme ULID ...`: the id under every accepted scheme that takes the inputs.
pub fn candidates(packed: &[u8], time_ms: f64) -> Result<String> {
    candidates_at(packed, samekey::timestamp::from_millis_f64(time_ms)?)
}

/// [`candidates`] at checked milliseconds.
pub fn candidates_at(packed: &[u8], t: u64) -> Result<String> {
    let mut r = Request::parse(packed)?;
    let fields = r.fields(r.count)?;
    let found = r
        .ring()?
        .candidate_ulids(t, r.namespace, &fields, r.secret)?;
    let parts: Vec<String> = found
        .iter()
        .map(|(s, id)| alloc::format!("{s} {id}"))
        .collect();
    Ok(parts.join(" "))
}

/// The accepted scheme that derived `ulid` from the request's inputs.
pub fn verify(packed: &[u8], ulid: &str, time_ms: f64) -> Result<&'static str> {
    let id: Ulid = ulid.parse()?;
    verify_id(packed, &id, samekey::timestamp::from_millis_f64(time_ms)?)
}

/// The accepted scheme that derived `id` from the request's inputs at `t`.
pub fn verify_id(packed: &[u8], id: &Ulid, t: u64) -> Result<&'static str> {
    let mut r = Request::parse(packed)?;
    let fields = r.fields(r.count)?;
    Ok(r.ring()?
        .verify_ulid(id, t, r.namespace, &fields, r.secret)?
        .as_str())
}

fn ring_of(codes: &[u8]) -> Result<KeyRing> {
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
    Ok(ring_of(codes)?.scheme_of_key(key)?.as_str())
}

/// A revision key under a ring (the content hash's scheme must be accepted).
pub fn ring_revision_key(
    codes: &[u8],
    content_hash: &str,
    parent: Option<&str>,
    secret: Option<&[u8]>,
) -> Result<String> {
    let content: samekey::ContentHash = content_hash.parse()?;
    Ok(ring_of(codes)?
        .derive_revision(parent, &content, secret)?
        .to_string())
}

// The rest of the JS backends' surface, with argument types that napi and wasm-bindgen
// both pass cheaply (strings, byte slices, numbers), so each backend is one line a call.

pub fn error_codes() -> String {
    Error::CODES.join(",")
}

/// The core's JSON limits for host values: deepest nesting, largest integer magnitude.
pub fn json_limits() -> [f64; 2] {
    [samekey::MAX_DEPTH as f64, samekey::MAX_SAFE_INTEGER as f64]
}

pub fn content_hash(data: &[u8], scheme: &str) -> Result<String> {
    Ok(samekey::content_hash(scheme.parse()?, data)?.to_string())
}

/// JSON text that `JSON.stringify` wrote from a checked JS value (spec §6.2).
pub fn canonical_json_value(json: &str) -> Result<String> {
    Ok(samekey::canonicalize_json_text_from_doubles(json)?)
}

pub fn canonical_json_text(json: &str) -> Result<String> {
    Ok(samekey::canonicalize_json_text(json)?)
}

// JSON is canonicalized as it is parsed, never built into a `Value` tree: the tree's
// parser would be a second copy of the JSON grammar in the WebAssembly download.

pub fn content_hash_json_value(json: &str, scheme: &str) -> Result<String> {
    let scheme: Scheme = scheme.parse()?;
    let canonical = samekey::canonicalize_json_text_from_doubles(json)?;
    Ok(samekey::content_hash(scheme, canonical.as_bytes())?.to_string())
}

pub fn content_hash_json_text(json: &str, scheme: &str) -> Result<String> {
    let scheme: Scheme = scheme.parse()?;
    let canonical = samekey::canonicalize_json_text(json)?;
    Ok(samekey::content_hash(scheme, canonical.as_bytes())?.to_string())
}

fn revision_inputs(
    content_hash: &str,
    scheme: Option<&str>,
) -> Result<(Scheme, samekey::ContentHash)> {
    let requested = scheme.map(str::parse::<Scheme>).transpose()?;
    let content: samekey::ContentHash = content_hash.parse()?;
    Ok((samekey::revision_scheme(requested, &content), content))
}

/// The scheme defaults to the content hash's own.
pub fn revision_key(
    content_hash: &str,
    parent: Option<&str>,
    scheme: Option<&str>,
    secret: Option<&[u8]>,
) -> Result<String> {
    let (scheme, content) = revision_inputs(content_hash, scheme)?;
    Ok(samekey::derive_revision(scheme, parent, &content, secret)?.to_string())
}

pub fn revision_message(
    content_hash: &str,
    parent: Option<&str>,
    scheme: Option<&str>,
) -> Result<Vec<u8>> {
    let (scheme, content) = revision_inputs(content_hash, scheme)?;
    Ok(samekey::revision_message(scheme, parent, &content)?)
}

pub fn needs_write(stored: Option<&str>, incoming: &str) -> Result<bool> {
    let stored = stored.map(str::parse::<samekey::ContentHash>).transpose()?;
    Ok(samekey::needs_write(stored.as_ref(), &incoming.parse()?))
}

pub fn parse_rfc3339(text: &str) -> Result<f64> {
    Ok(samekey::parse_rfc3339(text)? as f64)
}

/// `kind scheme canonical` of a content hash or revision key text.
pub fn parse_key(text: &str) -> Result<String> {
    let key: samekey::Key = text.parse()?;
    Ok(alloc::format!("{} {} {key}", key.kind(), key.scheme()))
}

pub fn ulid_canonical(text: &str) -> Result<String> {
    Ok(text.parse::<Ulid>()?.to_string())
}

pub fn ulid_from_bytes(bytes: &[u8]) -> Result<String> {
    let raw: [u8; 16] = bytes
        .try_into()
        .map_err(|_| Error::InvalidUlid(alloc::format!("{} bytes (a ULID is 16)", bytes.len())))?;
    Ok(Ulid::from_bytes(raw).to_string())
}

pub fn ulid_bytes(text: &str) -> Result<Vec<u8>> {
    Ok(text.parse::<Ulid>()?.as_bytes().to_vec())
}

pub fn ulid_uuid(text: &str) -> Result<String> {
    Ok(text.parse::<Ulid>()?.to_uuid_string())
}

pub fn ulid_timestamp_ms(text: &str) -> Result<f64> {
    Ok(text.parse::<Ulid>()?.timestamp_ms() as f64)
}

/// An incremental content hash for the JS `ContentHasher`.
pub fn hasher(scheme: &str) -> Result<samekey::ContentHasher> {
    Ok(samekey::ContentHasher::new(scheme.parse()?)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn a_timed_request_derives_what_the_request_and_its_time_derive() {
        // k = 1, scheme v1, no secret, 2 fields; namespace "", fields "slug", "en".
        let mut packed = vec![1u8, 1, 0, 2];
        for item in [&b""[..], b"slug", b"en"] {
            packed.extend_from_slice(&(item.len() as u32).to_le_bytes());
            packed.extend_from_slice(item);
        }
        let t = 1714564800000.0;
        let mut timed = packed.clone();
        timed.extend_from_slice(&f64::to_le_bytes(t));
        let want = derive(&packed, t).unwrap();
        assert_eq!(derive_timed(&timed).unwrap(), want.as_bytes());
        timed.extend_from_slice(b"ignored");
        assert_eq!(derive_timed(&timed).unwrap(), want.as_bytes());
        assert!(matches!(
            derive_timed(&timed[..packed.len() + 7]),
            Err(WireError::Malformed("truncated time"))
        ));
        let mut fractional = packed.clone();
        fractional.extend_from_slice(&f64::to_le_bytes(1.5));
        assert!(matches!(
            derive_timed(&fractional),
            Err(WireError::Core(Error::InvalidTimestamp(_)))
        ));
    }

    #[test]
    fn utf16_batch_equals_the_packed_batch_and_checks_its_lengths() {
        // settings: k = 1, scheme v1, no secret, no fields; namespace "posts".
        let mut settings = vec![1u8, 1, 0, 0];
        settings.extend_from_slice(&5u32.to_le_bytes());
        settings.extend_from_slice(b"posts");
        let rows = [("caf\u{e9}", "en"), ("x\u{1F600}", "fr")];
        let times = [1714564800000.0, 1714564800001.0];
        let mut packed = settings.clone();
        let (mut text, mut lengths) = (Vec::new(), Vec::new());
        for (a, b) in rows {
            for f in [a, b] {
                packed.extend_from_slice(&(f.len() as u32).to_le_bytes());
                packed.extend_from_slice(f.as_bytes());
                text.extend(utf16(f));
                lengths.push(utf16(f).len() as u32);
            }
        }
        let derive_many_utf16 =
            |settings: &[u8], width, times: &[f64], text: &[u16], lengths: &[u32]| {
                let mut out = b"kept ".to_vec();
                derive_many_utf16(settings, width, times, text, lengths, &mut out)?;
                let out = String::from_utf8(out).unwrap();
                Ok::<_, WireError>(out.strip_prefix("kept ").unwrap().to_string())
            };
        let want = derive_many(&packed, 2, &times).unwrap();
        assert_eq!(
            derive_many_utf16(&settings, 2, &times, &text, &lengths).unwrap(),
            want
        );
        let short = &lengths[..3];
        assert!(matches!(
            derive_many_utf16(&settings, 2, &times, &text, short),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            derive_many_utf16(&settings, 2, &times, &text[1..], &lengths),
            Err(WireError::Malformed(_))
        ));
        let mut long = text.clone();
        long.push(0x61);
        assert!(matches!(
            derive_many_utf16(&settings, 2, &times, &long, &lengths),
            Err(WireError::Malformed(_))
        ));
        let lone = [0xD800u16, 0x61, 0x62, 0x63, 0x64];
        let err = derive_many_utf16(&settings, 2, &times[..1], &lone[..3], &[1, 2]).unwrap_err();
        assert!(matches!(err, WireError::Core(Error::InvalidString)));
        // A surrogate pair split between two fields leaves each field a lone surrogate.
        let split = utf16("\u{1F600}");
        let err = derive_many_utf16(&settings, 2, &times[..1], &split, &[1, 1]).unwrap_err();
        assert!(matches!(err, WireError::Core(Error::InvalidString)));
    }
}
