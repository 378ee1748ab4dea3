//! RFC 8785 (JCS) canonical JSON and the content hash of it (spec §6).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt::Write;

use crate::content::{content_hash, ContentHash};
use crate::error::{Error, Result};
use crate::json::{Value, MAX_DEPTH};
use crate::scheme::Scheme;

/// Object keys compare by their UTF-16 code units (RFC 8785 §3.2.3). UTF-8 bytes
/// compare as code points do, and code points as UTF-16 does, except where the first
/// difference is a character in U+E000..U+FFFF (lead byte 0xEE or 0xEF) against one above
/// U+FFFF (lead byte 0xF0..0xF4), whose UTF-16 surrogates sort first: so a byte
/// comparison, corrected in that one case, without encoding anything.
fn utf16_cmp(a: &str, b: &str) -> Ordering {
    SortKey::new(a).cmp(&SortKey::new(b))
}

/// A key with its first eight bytes as a big-endian word (zero-padded), so that most
/// comparisons of keys, which differ early, are one comparison of words. Made once per
/// key, not once per comparison.
#[derive(Clone, Copy)]
struct SortKey<'k> {
    word: u64,
    key: &'k str,
}

impl<'k> SortKey<'k> {
    fn new(key: &'k str) -> Self {
        let s = key.as_bytes();
        let word = match s.get(..8) {
            Some(w) => u64::from_be_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]),
            None => s
                .iter()
                .enumerate()
                .fold(0, |w, (i, &c)| w | u64::from(c) << (56 - 8 * i)),
        };
        SortKey { word, key }
    }

    /// UTF-16 order (see [`utf16_cmp`]). Zero padding orders a key that ends within the
    /// word before every key it is a prefix of, as a shorter string sorts.
    fn cmp(&self, other: &Self) -> Ordering {
        let (x, y) = (self.key.as_bytes(), other.key.as_bytes());
        let (p, q) = if self.word != other.word {
            let shift = 56 - (self.word ^ other.word).leading_zeros() / 8 * 8;
            ((self.word >> shift) as u8, (other.word >> shift) as u8)
        } else {
            match x.iter().zip(y).skip(8).find(|(p, q)| p != q) {
                None => return x.len().cmp(&y.len()),
                Some((&p, &q)) => (p, q),
            }
        };
        let upper_bmp = |c: u8| c == 0xEE || c == 0xEF;
        if (upper_bmp(p) && q >= 0xF0) || (p >= 0xF0 && upper_bmp(q)) {
            q.cmp(&p)
        } else {
            p.cmp(&q)
        }
    }
}

/// Members in canonical order, or `duplicate_key`. (One sort for parsing and writing:
/// every extra instantiation of a sort is code in the WebAssembly download.)
fn sorted_members(members: &[(String, Value)]) -> Result<Vec<&(String, Value)>> {
    let mut sorted: Vec<&(String, Value)> = members.iter().collect();
    sorted.sort_by(|a, b| utf16_cmp(&a.0, &b.0));
    if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::DuplicateKey(w[0].0.clone()));
    }
    Ok(sorted)
}

pub(crate) fn check_unique_keys(members: &[(String, Value)]) -> Result<()> {
    sorted_members(members).map(|_| ())
}

/// The canonical text of a JSON value.
///
/// ```
/// use samekey::{canonical_json, Value};
/// let v = Value::parse(r#"{"b": [1.0, -0, 1e21], "a": "\u00e9"}"#)?;
/// assert_eq!(canonical_json(&v)?, r#"{"a":"é","b":[1,0,1e+21]}"#);
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn canonical_json(value: &Value) -> Result<String> {
    let mut out = String::new();
    write_value(&mut out, value, 0)?;
    Ok(out)
}

/// Parses JSON text strictly and writes its canonical form, the same text as
/// `canonical_json(&Value::parse(text)?)` but without building the tree: it holds about
/// the output and the largest object's members, where a tree costs over ten times the text.
///
/// ```
/// use samekey::canonicalize_json_text;
/// assert_eq!(canonicalize_json_text(r#"{"b": [1.0, -0], "a": "\u00e9"}"#)?, r#"{"a":"é","b":[1,0]}"#);
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn canonicalize_json_text(text: &str) -> Result<String> {
    canonicalize(text, false)
}

/// [`canonicalize_json_text`] for JSON text written by a host whose numbers are all
/// doubles (JavaScript's `JSON.stringify`): integer literals are not range-checked, as in
/// [`Value::parse_from_doubles`].
pub fn canonicalize_json_text_from_doubles(text: &str) -> Result<String> {
    canonicalize(text, true)
}

fn canonicalize(text: &str, doubles: bool) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    crate::json::parse_into(text, doubles, Canonical::new(&mut out, None))?;
    Ok(out)
}

/// Writes canonical text as the parser reads. Members of an object are written in input
/// order as `"key":value` and rearranged when the object closes, only if their keys were
/// not already in order.
pub(crate) struct Canonical<'o, 't, 'r> {
    out: &'o mut String,
    /// Arrays and objects open around the value being read.
    depth: usize,
    /// A copy of an object's members while they are rearranged (kept between objects).
    scratch: String,
    /// What [`crate::record`] keeps of a top-level object.
    record: Option<&'r mut crate::record::Top<'t>>,
}

impl<'o, 't, 'r> Canonical<'o, 't, 'r> {
    pub(crate) fn new(out: &'o mut String, record: Option<&'r mut crate::record::Top<'t>>) -> Self {
        Canonical {
            out,
            depth: 0,
            scratch: String::new(),
            record,
        }
    }

    /// The record's top-level object, while its members (not theirs) are being read.
    fn top(&mut self) -> Option<&mut crate::record::Top<'t>> {
        match &mut self.record {
            Some(top) if self.depth == 1 && top.is_object => Some(top),
            _ => None,
        }
    }
}

/// One member (`"key":value`) of the object being written: its key, and where its text
/// lies in the output.
struct Member<'t> {
    key: Cow<'t, str>,
    /// The key's first bytes as a word, for sorting.
    word: u64,
    start: usize,
    end: usize,
}

impl Member<'_> {
    fn sort_key(&self) -> SortKey<'_> {
        SortKey {
            word: self.word,
            key: &self.key,
        }
    }
}

/// The object being written: where it starts, and its members so far.
pub(crate) struct Members<'t> {
    start: usize,
    members: Vec<Member<'t>>,
}

impl<'t> crate::json::Build<'t> for Canonical<'_, 't, '_> {
    type Out = ();
    type Array = bool;
    type Object = Members<'t>;

    fn scalar(&mut self, v: Value) {
        // Written here rather than by `write_value`, which would bring the tree writer
        // (and its sort) into builds that never make a tree, such as the WebAssembly one.
        match v {
            Value::Null => self.out.push_str("null"),
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::Number(n) => {
                self.out.push_str(ryu_js::Buffer::new().format_finite(n));
                if let Some(top) = self.top() {
                    top.value_number(n);
                }
            }
            // Strings come through `string`, containers through the calls below.
            Value::String(_) | Value::Array(_) | Value::Object(_) => {}
        }
    }

    fn integer(&mut self, n: f64, text: &'t str) {
        // ECMAScript prints an integer below 10^21 as its digits, which is the literal
        // itself (JSON has no leading zeros or plus sign), except that -0 is 0.
        self.out.push_str(if text == "-0" { "0" } else { text });
        if let Some(top) = self.top() {
            top.value_number(n);
        }
    }

    fn decimal(&mut self, n: f64, text: &'t str) {
        if is_ecmascript_text(text) {
            self.out.push_str(text);
        } else {
            self.out.push_str(ryu_js::Buffer::new().format_finite(n));
        }
        if let Some(top) = self.top() {
            top.value_number(n);
        }
    }

    fn string(&mut self, s: Cow<'t, str>) {
        write_text(self.out, &s);
        if let Some(top) = self.top() {
            top.value_string(s);
        }
    }

    fn array_start(&mut self) -> bool {
        self.depth += 1;
        self.out.push('[');
        true
    }

    fn array_item(&mut self, first: &mut bool) {
        if !core::mem::replace(first, false) {
            self.out.push(',');
        }
    }

    fn array_push(&mut self, _: &mut bool, (): ()) {}

    fn array_end(&mut self, _: bool) {
        self.depth -= 1;
        self.out.push(']');
    }

    fn object_start(&mut self) -> Members<'t> {
        if self.depth == 0 {
            if let Some(top) = &mut self.record {
                top.is_object = true;
            }
        }
        self.depth += 1;
        self.out.push('{');
        Members {
            start: self.out.len(),
            members: Vec::with_capacity(16),
        }
    }

    fn object_key(&mut self, object: &mut Members<'t>, key: Cow<'t, str>, at: usize) {
        if !object.members.is_empty() {
            self.out.push(',');
        }
        let start = self.out.len();
        write_text(self.out, &key);
        self.out.push(':');
        if let Some(top) = self.top() {
            top.member(key.clone(), at);
        }
        let word = SortKey::new(&key).word;
        object.members.push(Member {
            key,
            word,
            start,
            end: 0,
        });
    }

    fn object_push(&mut self, object: &mut Members<'t>, (): (), at: usize) {
        if let Some(m) = object.members.last_mut() {
            m.end = self.out.len();
        }
        if let Some(top) = self.top() {
            top.member_end(at);
        }
    }

    fn object_end(&mut self, mut object: Members<'t>) -> Result<()> {
        let is_top = self.top().is_some();
        self.depth -= 1;
        let Canonical {
            out,
            scratch,
            record,
            ..
        } = self;
        let mut top = if is_top { record.as_deref_mut() } else { None };
        let omit: &[&str] = top.as_ref().map_or(&[], |t| t.omit);
        let kept = |m: &Member<'_>| !omit.contains(&&*m.key);
        let members = &mut object.members;
        if let Some(t) = top.as_deref_mut() {
            if let Some((order, identity)) = t.order.known(members) {
                // A record's keys in the order of the record before: its canonical order
                // is known, without sorting again.
                if !identity || !members.iter().all(kept) {
                    let sorted = order.iter().map(|&i| &members[i]).filter(|m| kept(m));
                    rewrite(out, &mut t.text, object.start, sorted);
                }
                out.push('}');
                return Ok(());
            }
        }
        {
            let in_order = members
                .windows(2)
                .all(|w| w[0].sort_key().cmp(&w[1].sort_key()) == Ordering::Less);
            if let Some(t) = top.as_mut() {
                t.order.begin(members);
            }
            if !in_order {
                // The same order and the same first duplicate as `sorted_members`.
                members.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
                if let Some(w) = members.windows(2).find(|w| same_key(&w[0], &w[1])) {
                    if let Some(t) = top.as_mut() {
                        t.order.forget();
                    }
                    return Err(Error::DuplicateKey(w[0].key.clone().into_owned()));
                }
            }
            if let Some(t) = top.as_mut() {
                t.order.learn(members);
            }
            if !in_order || !(omit.is_empty() || members.iter().all(kept)) {
                // A record's buffer is kept between records.
                let buffer = match top {
                    Some(t) => &mut t.text,
                    None => scratch,
                };
                rewrite(
                    out,
                    buffer,
                    object.start,
                    members.iter().filter(|m| kept(m)),
                );
            }
        }
        out.push('}');
        Ok(())
    }
}

fn same_key(a: &Member<'_>, b: &Member<'_>) -> bool {
    a.word == b.word && same_tail(&a.key, &b.key)
}

/// Whether two keys with the same first eight bytes (their words) are the same: the
/// rest of them is, with no comparison at all for keys of eight bytes or fewer.
fn same_tail(a: &str, b: &str) -> bool {
    a.len() == b.len() && (a.len() <= 8 || a.as_bytes()[8..] == b.as_bytes()[8..])
}

/// Writes the object's members again, from `start`, in the order given.
fn rewrite<'m, 't: 'm>(
    out: &mut String,
    scratch: &mut String,
    start: usize,
    members: impl Iterator<Item = &'m Member<'t>>,
) {
    scratch.clear();
    scratch.push_str(&out[start..]);
    out.truncate(start);
    for m in members {
        if out.len() > start {
            out.push(',');
        }
        out.push_str(&scratch[m.start - start..m.end - start]);
    }
}

/// The canonical order of the last record's top-level keys, for the next record: in
/// JSONL every line usually has the same keys in the same order, which are then
/// recognised with one equality test per key instead of sorted again (whose unpredictable
/// comparisons cost more than the rest of the object). Only with `std`: the WebAssembly
/// build (no `std`) reads no records and keeps its download small.
#[derive(Debug, Default)]
pub(crate) struct KeyOrder {
    /// The keys in the order of the text, with their sort words.
    #[cfg(feature = "std")]
    keys: Vec<(u64, String)>,
    /// Indices into `keys` in canonical order (while learning, the keys' offsets).
    #[cfg(feature = "std")]
    order: Vec<usize>,
    /// Whether `order` is `0, 1, 2, ...`.
    #[cfg(feature = "std")]
    identity: bool,
}

#[cfg(feature = "std")]
impl KeyOrder {
    /// The canonical order of `members` (in the order of the text), and whether it is
    /// that order, if they are the keys of the record before.
    fn known(&self, members: &[Member<'_>]) -> Option<(&[usize], bool)> {
        let same = self.keys.len() == members.len()
            && !self.order.is_empty()
            && self
                .keys
                .iter()
                .zip(members)
                .all(|((word, key), m)| *word == m.word && same_tail(key, &m.key));
        same.then_some((&self.order[..], self.identity))
    }

    /// Notes the keys in the order of the text, before they are sorted.
    fn begin(&mut self, members: &[Member<'_>]) {
        self.keys.clear();
        self.keys
            .extend(members.iter().map(|m| (m.word, String::from(&*m.key))));
        self.order.clear();
        self.order.extend(members.iter().map(|m| m.start));
    }

    /// The keys are sorted: keeps their order as indices into the order of the text
    /// (whose offsets `begin` kept, rising).
    fn learn(&mut self, sorted: &[Member<'_>]) {
        let starts = core::mem::take(&mut self.order);
        self.order = sorted
            .iter()
            .map(|m| starts.binary_search(&m.start).unwrap_or(0))
            .collect();
        self.identity = self.order.iter().enumerate().all(|(i, &j)| i == j);
    }

    /// A duplicate key: nothing is remembered.
    fn forget(&mut self) {
        self.keys.clear();
        self.order.clear();
    }
}

#[cfg(not(feature = "std"))]
impl KeyOrder {
    fn known(&self, _: &[Member<'_>]) -> Option<(&[usize], bool)> {
        None
    }
    fn begin(&mut self, _: &[Member<'_>]) {}
    fn learn(&mut self, _: &[Member<'_>]) {}
    fn forget(&mut self) {}
}

/// The content hash of JSON text's canonical form, with that form. The scheme is checked
/// before the text is parsed (spec §6.1), so `v0` is `scheme_not_supported` whatever the text.
///
/// ```
/// use samekey::{content_hash_json_text, Scheme};
/// let (canonical, hash) = content_hash_json_text(Scheme::V1, r#"{"b": 2, "a": 1}"#)?;
/// assert_eq!(canonical, r#"{"a":1,"b":2}"#);
/// assert!(hash.to_string().starts_with("sha256:"));
/// let err = content_hash_json_text(Scheme::V0, "{").unwrap_err();
/// assert_eq!(err.code(), "scheme_not_supported");
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn content_hash_json_text(scheme: Scheme, text: &str) -> Result<(String, ContentHash)> {
    scheme.require_hashing("content hashes")?;
    let canonical = canonicalize_json_text(text)?;
    let hash = content_hash(scheme, canonical.as_bytes())?;
    Ok((canonical, hash))
}

/// The content hash of JSON text that a host wrote from its own checked values
/// ([`canonicalize_json_text_from_doubles`]), the scheme checked first.
pub fn content_hash_json_text_from_doubles(
    scheme: Scheme,
    text: &str,
) -> Result<(String, ContentHash)> {
    scheme.require_hashing("content hashes")?;
    let canonical = canonicalize_json_text_from_doubles(text)?;
    let hash = content_hash(scheme, canonical.as_bytes())?;
    Ok((canonical, hash))
}

/// The content hash of the canonical form of `value`, with that form.
pub fn content_hash_json(scheme: Scheme, value: &Value) -> Result<(String, ContentHash)> {
    scheme.require_hashing("content hashes")?;
    let canonical = canonical_json(value)?;
    let hash = content_hash(scheme, canonical.as_bytes())?;
    Ok((canonical, hash))
}

fn write_value(out: &mut String, value: &Value, depth: usize) -> Result<()> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, *n)?,
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if depth >= MAX_DEPTH {
                return Err(Error::NestingTooDeep(MAX_DEPTH));
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item, depth + 1)?;
            }
            out.push(']');
        }
        Value::Object(members) => {
            if depth >= MAX_DEPTH {
                return Err(Error::NestingTooDeep(MAX_DEPTH));
            }
            out.push('{');
            for (i, (k, v)) in sorted_members(members)?.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_value(out, v, depth + 1)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// A string the parser read: one borrowed from the text had no escape there, so it has
/// nothing to escape now (a raw quote, backslash or control character is not JSON).
#[allow(clippy::ptr_arg)] // Which variant it is, is the point.
fn write_text(out: &mut String, s: &Cow<'_, str>) {
    match s {
        Cow::Borrowed(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Cow::Owned(s) => write_string(out, s),
    }
}

/// JSON.stringify's escaping: `"`, `\` and C0 controls only; everything else literal.
fn write_string(out: &mut String, s: &str) {
    out.push('"');
    let mut rest = s;
    while let Some(i) = rest
        .bytes()
        .position(|c| c == b'"' || c == b'\\' || c < 0x20)
    {
        out.push_str(&rest[..i]);
        let c = rest.as_bytes()[i];
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0c => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            c => {
                let _ = write!(out, "\\u{:04x}", c);
            }
        }
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// Whether a JSON number literal is already what ECMAScript prints for its value, so it
/// can be written as it is: `-?(0|[1-9][0-9]*)\.[0-9]*[1-9]` with at most 15 significant
/// digits and a value of at least 10^-6 (below, ECMAScript writes an exponent). Any
/// decimal of 15 significant digits or fewer comes back from its double unchanged (15 is
/// `f64::DIGITS`), so no shorter string names the same double and these digits are the
/// shortest; from 10^-6 up to 10^21 ECMAScript writes them without an exponent.
fn is_ecmascript_text(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text).as_bytes();
    let Some(point) = t.iter().position(|&c| c == b'.') else {
        return false;
    };
    let (int, frac) = (&t[..point], &t[point + 1..]);
    if frac.is_empty() || !frac.iter().all(u8::is_ascii_digit) || frac.last() == Some(&b'0') {
        return false; // an exponent, or a trailing zero
    }
    if int == b"0" {
        let zeros = frac.iter().take_while(|&&c| c == b'0').count();
        zeros <= 5 && frac.len() - zeros <= 15
    } else {
        int.len() + frac.len() <= 15
    }
}

/// ECMAScript Number::toString (ECMA-262 §6.1.6.1.20), as RFC 8785 §3.2.2.3 requires.
/// `ryu-js` implements it exactly, including the round-half-even choice between two
/// equally short digit strings that a plain shortest-digits printer may get wrong.
fn write_number(out: &mut String, n: f64) -> Result<()> {
    if !n.is_finite() {
        return Err(Error::number_not_finite(n));
    }
    out.push_str(ryu_js::Buffer::new().format_finite(n));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: f64) -> String {
        let mut s = String::new();
        write_number(&mut s, n).unwrap();
        s
    }

    #[test]
    fn numbers_follow_ecmascript() {
        for (n, text) in [
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (5e-324, "5e-324"),
            // Exactly halfway between ...562.2 and ...562.3: ECMAScript picks the even one.
            (f64::from_bits(0x4317_9085_685d_83c9), "1658206780088562.2"),
        ] {
            assert_eq!(num(n), text);
        }
    }

    #[test]
    fn decimals_written_as_they_are_are_what_ecmascript_prints() {
        let mut literals = alloc::vec![
            String::from("0.000001"),
            "-0.5".into(),
            "123456789012.345".into()
        ];
        // Every shape near the limits: digits, leading zeros, trailing zeros, lengths.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let int_len = (seed % 17) as usize;
            let zeros = (seed >> 8) % 8;
            let frac_len = 1 + (seed >> 16) % 17;
            let mut digits = seed >> 24;
            let mut text = String::new();
            if seed >> 63 == 1 {
                text.push('-');
            }
            if int_len == 0 {
                text.push('0');
            } else {
                for i in 0..int_len {
                    let d = if i == 0 { 1 + digits % 9 } else { digits % 10 };
                    text.push(char::from(b'0' + d as u8));
                    digits = digits / 10 + seed.rotate_left(i as u32) % 7;
                }
            }
            text.push('.');
            for _ in 0..zeros {
                text.push('0');
            }
            for _ in 0..frac_len {
                text.push(char::from(b'0' + (digits % 10) as u8));
                digits = digits / 10 + seed % 3;
            }
            literals.push(text);
        }
        let mut as_is = 0;
        for text in &literals {
            let n = crate::decimal::parse(text);
            if is_ecmascript_text(text) {
                as_is += 1;
                assert_eq!(num(n), *text, "{text} is not what ECMAScript prints");
            }
        }
        // Both answers occur, many times each.
        assert!(as_is > 10_000 && literals.len() - as_is > 10_000, "{as_is}");
        for text in [
            "1.0",
            "1e5",
            "1.5e5",
            "0.0000001",
            "1.0000000000000001",
            "0.1234567890123456",
        ] {
            assert!(!is_ecmascript_text(text), "{text}");
        }
    }

    #[test]
    fn utf16_order_by_bytes_is_utf16_order() {
        // Characters around every boundary where UTF-8 and UTF-16 lengths or order change.
        let chars: Vec<char> = [
            0x0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xEFFF, 0xF000, 0xFB33, 0xFFFF,
            0x10000, 0x1F600, 0x10FFFF,
        ]
        .iter()
        .map(|&c| char::from_u32(c).unwrap())
        .collect();
        // With prefixes that move the first difference across the first eight bytes.
        let mut strings = vec![String::new()];
        for prefix in ["", "abcdef", "abcdefg", "abcdefgh"] {
            for &a in &chars {
                strings.push(format!("{prefix}{a}"));
                for &b in &chars {
                    strings.push(format!("{prefix}{a}{b}"));
                }
            }
        }
        for a in &strings {
            for b in &strings {
                let want = a.encode_utf16().cmp(b.encode_utf16());
                assert_eq!(utf16_cmp(a, b), want, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn utf16_order_differs_from_utf8_order() {
        // U+FB33 is above U+1F600's high surrogate in UTF-8 order, below it in UTF-16.
        assert_eq!(utf16_cmp("\u{1F600}", "\u{FB33}"), Ordering::Less);
        assert_eq!("\u{1F600}".cmp("\u{FB33}"), Ordering::Greater);
    }
}
