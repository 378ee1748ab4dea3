//! The JSON data model samekey hashes, and a strict parser for JSON text (spec §6.1).
//!
//! Strict means: no duplicate object keys, integers within ±(2^53-1), finite numbers,
//! no lone surrogates, at most [`MAX_DEPTH`] nested arrays/objects. Each rule removes a
//! way for two parsers to read the same text as different data.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};

/// Largest integer magnitude every JSON implementation represents exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// Deepest nesting of arrays and objects accepted; deeper input is `nesting_too_deep`.
pub const MAX_DEPTH: usize = 128;

/// A JSON value. Objects keep their members in input order; canonicalization sorts them
/// and rejects duplicates, so hosts may build objects in any order.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// Always finite; built through [`Value::number`] or [`Value::integer`].
    Number(f64),
    /// A string, valid Unicode.
    String(String),
    /// An array, in order.
    Array(Vec<Value>),
    /// An object's members, in the order given.
    Object(Vec<(String, Value)>),
}

impl Value {
    /// A floating-point number; NaN and infinities are `number_out_of_range`.
    pub fn number(n: f64) -> Result<Value> {
        if n.is_finite() {
            Ok(Value::Number(n))
        } else {
            Err(Error::number_not_finite(n))
        }
    }

    /// A host integer; beyond ±(2^53-1) it is `number_out_of_range`, never rounded.
    pub fn integer(n: i128) -> Result<Value> {
        if n.abs() > MAX_SAFE_INTEGER {
            return Err(Error::integer_out_of_range(&crate::number::wide_int_text(
                n,
            )));
        }
        Ok(Value::Number(n as f64))
    }

    /// Parses JSON text strictly (see the module documentation).
    pub fn parse(text: &str) -> Result<Value> {
        Self::parse_with(text, false)
    }

    /// Parses JSON text written by a host whose numbers are all IEEE doubles, such as
    /// JavaScript's `JSON.stringify`: an integer literal is then a double already, so it
    /// is not range-checked (spec §6.2; `2**53` is a valid JS number). Every other rule of
    /// [`Value::parse`] applies.
    pub fn parse_from_doubles(text: &str) -> Result<Value> {
        Self::parse_with(text, true)
    }

    fn parse_with(text: &str, doubles: bool) -> Result<Value> {
        parse_into(text, doubles, Tree)
    }
}

/// What the parser makes of the JSON it reads: a [`Value`] tree here, canonical text in
/// `jcs` (which needs no tree, so it holds a fraction of the memory). Every rule of the
/// strict grammar stays in the one parser; a builder only decides what to keep. Strings
/// come borrowed from the text when they hold no escape.
pub(crate) trait Build<'t> {
    type Out;
    type Array;
    type Object;
    /// `null`, `true`, `false` or a number.
    fn scalar(&mut self, v: Value) -> Self::Out;
    /// An integer literal within ±(2^53-1), with its text (`-?(0|[1-9][0-9]*)`).
    fn integer(&mut self, n: f64, text: &'t str) -> Self::Out;
    /// Any other number literal, with its text.
    fn decimal(&mut self, n: f64, _text: &'t str) -> Self::Out {
        self.scalar(Value::Number(n))
    }
    /// A string value.
    fn string(&mut self, s: Cow<'t, str>) -> Self::Out;
    fn array_start(&mut self) -> Self::Array;
    /// Before each item's value is read.
    fn array_item(&mut self, array: &mut Self::Array);
    fn array_push(&mut self, array: &mut Self::Array, item: Self::Out);
    fn array_end(&mut self, array: Self::Array) -> Self::Out;
    fn object_start(&mut self) -> Self::Object;
    /// Before each member's value is read; `at` is the offset of the key's quote.
    fn object_key(&mut self, object: &mut Self::Object, key: Cow<'t, str>, at: usize);
    /// After each member's value; `at` is the offset just past the value.
    fn object_push(&mut self, object: &mut Self::Object, value: Self::Out, at: usize);
    /// The object is complete: its duplicate keys are found here.
    fn object_end(&mut self, object: Self::Object) -> Result<Self::Out>;
}

/// Parses `text` strictly with builder `b` (see the module documentation).
pub(crate) fn parse_into<'t, B: Build<'t>>(text: &'t str, doubles: bool, b: B) -> Result<B::Out> {
    let mut p = Parser {
        text,
        s: text.as_bytes(),
        at: 0,
        doubles,
        b,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.at != p.s.len() {
        return Err(p.err("unexpected data after the JSON value"));
    }
    Ok(v)
}

/// Builds the [`Value`] tree.
struct Tree;

impl<'t> Build<'t> for Tree {
    type Out = Value;
    type Array = Vec<Value>;
    /// The members so far, and the key whose value is being read.
    type Object = (Vec<(String, Value)>, String);

    fn scalar(&mut self, v: Value) -> Value {
        v
    }
    fn integer(&mut self, n: f64, _: &'t str) -> Value {
        Value::Number(n)
    }
    fn string(&mut self, s: Cow<'t, str>) -> Value {
        Value::String(s.into_owned())
    }
    fn array_start(&mut self) -> Vec<Value> {
        Vec::new()
    }
    fn array_item(&mut self, _: &mut Vec<Value>) {}
    fn array_push(&mut self, array: &mut Vec<Value>, item: Value) {
        array.push(item);
    }
    fn array_end(&mut self, array: Vec<Value>) -> Value {
        Value::Array(array)
    }
    fn object_start(&mut self) -> Self::Object {
        (Vec::new(), String::new())
    }
    fn object_key(&mut self, object: &mut Self::Object, key: Cow<'t, str>, _: usize) {
        object.1 = key.into_owned();
    }
    fn object_push(&mut self, object: &mut Self::Object, value: Value, _: usize) {
        let key = core::mem::take(&mut object.1);
        object.0.push((key, value));
    }
    fn object_end(&mut self, object: Self::Object) -> Result<Value> {
        // Checked here as well as in canonicalization so that a parse error names it.
        check_unique_keys(&object.0)?;
        Ok(Value::Object(object.0))
    }
}

struct Parser<'a, B> {
    text: &'a str,
    s: &'a [u8],
    at: usize,
    /// Integer literals are host doubles (see [`Value::parse_from_doubles`]).
    doubles: bool,
    b: B,
}

impl<'a, B: Build<'a>> Parser<'a, B> {
    fn err(&self, reason: &'static str) -> Error {
        Error::InvalidJson {
            offset: self.at,
            reason,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8, reason: &'static str) -> Result<()> {
        if self.peek() != Some(c) {
            return Err(self.err(reason));
        }
        self.at += 1;
        Ok(())
    }

    fn literal(&mut self, word: &'static [u8], v: Value) -> Result<B::Out> {
        if self.s[self.at..].starts_with(word) {
            self.at += word.len();
            Ok(self.b.scalar(v))
        } else {
            Err(self.err("expected a JSON value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<B::Out> {
        match self.peek() {
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => {
                let s = self.string()?;
                Ok(self.b.string(s))
            }
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.at;
                let (n, integer) = self.number()?;
                Ok(match n {
                    Value::Number(n) if integer => self.b.integer(n, &self.text[start..self.at]),
                    Value::Number(n) => self.b.decimal(n, &self.text[start..self.at]),
                    n => self.b.scalar(n),
                })
            }
            None => Err(self.err("unexpected end of input")),
            Some(0xEF) if self.s[self.at..].starts_with("\u{FEFF}".as_bytes()) => {
                Err(self.err("a byte order mark (U+FEFF) is not JSON whitespace: remove it"))
            }
            Some(_) => Err(self.err("expected a JSON value")),
        }
    }

    fn enter(&self, depth: usize) -> Result<()> {
        if depth > MAX_DEPTH {
            return Err(Error::NestingTooDeep(MAX_DEPTH));
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<B::Out> {
        self.enter(depth)?;
        self.at += 1;
        let mut items = self.b.array_start();
        self.ws();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(self.b.array_end(items));
        }
        loop {
            self.ws();
            self.b.array_item(&mut items);
            let item = self.value(depth)?;
            self.b.array_push(&mut items, item);
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(self.b.array_end(items));
                }
                _ => return Err(self.err("expected ',' or ']'")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<B::Out> {
        self.enter(depth)?;
        self.at += 1;
        let mut members = self.b.object_start();
        self.ws();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return self.b.object_end(members);
        }
        loop {
            self.ws();
            if self.peek() != Some(b'"') {
                return Err(self.err("expected a string object key"));
            }
            let key_at = self.at;
            let key = self.string()?;
            self.ws();
            self.eat(b':', "expected ':' after an object key")?;
            self.ws();
            self.b.object_key(&mut members, key, key_at);
            let v = self.value(depth)?;
            self.b.object_push(&mut members, v, self.at);
            self.ws();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return self.b.object_end(members);
                }
                _ => return Err(self.err("expected ',' or '}'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32> {
        let part = self
            .s
            .get(self.at..self.at + 4)
            .ok_or_else(|| self.err("truncated \\u escape"))?;
        let mut v = 0;
        for &c in part {
            let d = (c as char)
                .to_digit(16)
                .ok_or_else(|| self.err("invalid \\u escape"))?;
            v = v * 16 + d;
        }
        self.at += 4;
        Ok(v)
    }

    /// A string, borrowed from the text unless it holds an escape.
    fn string(&mut self) -> Result<Cow<'a, str>> {
        self.at += 1;
        let start = self.at;
        self.plain();
        if self.peek() == Some(b'"') {
            self.at += 1;
            // The input is a &str and we only stopped at ASCII bytes: a char boundary.
            return Ok(Cow::Borrowed(&self.text[start..self.at - 1]));
        }
        let mut out = String::from(&self.text[start..self.at]);
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Cow::Owned(out));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.at += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => out.push(self.unicode_escape()?),
                        _ => return Err(self.err("invalid escape")),
                    }
                }
                Some(_) => return Err(self.err("unescaped control character in string")),
                None => return Err(self.err("unterminated string")),
            }
            let run = self.at;
            self.plain();
            out.push_str(&self.text[run..self.at]);
        }
    }

    /// Skips the characters a string holds as they are: up to a quote, a backslash, a
    /// control character or the end.
    fn plain(&mut self) {
        self.at += plain_len(&self.s[self.at..]);
    }

    fn unicode_escape(&mut self) -> Result<char> {
        let hi = self.hex4()?;
        let code = match hi {
            0xD800..=0xDBFF => {
                if !self.s[self.at..].starts_with(b"\\u") {
                    return Err(self.err("lone surrogate in \\u escape"));
                }
                self.at += 2;
                let lo = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&lo) {
                    return Err(self.err("lone surrogate in \\u escape"));
                }
                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err(self.err("lone surrogate in \\u escape")),
            c => c,
        };
        char::from_u32(code).ok_or_else(|| self.err("invalid \\u escape"))
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    /// The number, and whether it is an integer literal within ±(2^53-1).
    fn number(&mut self) -> Result<(Value, bool)> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.at += 1;
                if matches!(self.peek(), Some(b'0'..=b'9')) {
                    // The offset of the zero itself, not of the digit after it.
                    return Err(Error::InvalidJson {
                        offset: self.at - 1,
                        reason: "invalid number: a leading zero (JSON numbers have none)",
                    });
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.err("invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.at += 1;
            integer = false;
            if self.digits() == 0 {
                return Err(self.err("invalid number: digits must follow '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            integer = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return Err(self.err("invalid number: digits must follow the exponent"));
            }
        }
        // Only ASCII was read: char boundaries.
        let text = &self.text[start..self.at];
        if integer && !self.doubles {
            // More than 17 digits is beyond 2^53 whatever they are; parse only what fits.
            let digits = text.trim_start_matches('-');
            let n = if digits.len() > 17 {
                None
            } else {
                text.parse::<i64>().ok().map(i128::from)
            };
            return match n {
                Some(n) => Ok((Value::integer(n)?, true)),
                None => Err(Error::integer_out_of_range(text)),
            };
        }
        let f = crate::decimal::parse(text);
        if f.is_infinite() {
            return Err(Error::number_overflows(text));
        }
        Ok((Value::Number(f), false))
    }
}

/// The length of the run of bytes a string holds as they are (before a quote, a
/// backslash or a control character), eight bytes at a time: strings are most of the
/// bytes of typical JSON.
fn plain_len(s: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte's high bit is set in `(x - ONES) & !x & HIGH` where x's byte is zero, and in
    // `(w - 0x20..) & !w & HIGH` where w's byte is below 0x20; a borrow can also set
    // bits above such a byte, never below it, so the lowest set bit is the first match.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let mut chunks = s.chunks_exact(8);
    for (i, chunk) in chunks.by_ref().enumerate() {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let hits = (zero(w ^ (ONES * u64::from(b'"')))
            | zero(w ^ (ONES * u64::from(b'\\')))
            | (w.wrapping_sub(ONES * 0x20) & !w))
            & HIGH;
        if hits != 0 {
            return i * 8 + (hits.trailing_zeros() / 8) as usize;
        }
    }
    let done = s.len() - chunks.remainder().len();
    let tail = chunks.remainder();
    done + tail
        .iter()
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .unwrap_or(tail.len())
}

/// Members in canonical order, or `duplicate_key`. (One sort for parsing and writing:
/// every extra instantiation of a sort is code in the WebAssembly download.)
pub(crate) fn sorted_members(members: &[(String, Value)]) -> Result<Vec<&(String, Value)>> {
    let mut sorted: Vec<&(String, Value)> = members.iter().collect();
    sorted.sort_by(|a, b| crate::key_order::utf16_cmp(&a.0, &b.0));
    if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Error::DuplicateKey(w[0].0.clone()));
    }
    Ok(sorted)
}

pub(crate) fn check_unique_keys(members: &[(String, Value)]) -> Result<()> {
    sorted_members(members).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn plain_runs_end_at_the_first_special_byte() {
        let specials = [b'"', b'\\', 0x00, 0x1f, b'\n'];
        let others = [
            b'a', b' ', 0x20, 0x7f, 0x80, 0xa0, 0xff, b'!', b'#', b'[', b']', 0x21, 0x5b, 0x5d,
        ];
        for len in 0..20 {
            for &o in &others {
                let mut s = alloc::vec![o; len];
                assert_eq!(plain_len(&s), len);
                for at in 0..len {
                    for &c in &specials {
                        s[at] = c;
                        assert_eq!(plain_len(&s), at, "{s:?}");
                        // A second special byte later does not move the first.
                        if at + 1 < len {
                            s[at + 1] = b'"';
                            assert_eq!(plain_len(&s), at);
                            s[at + 1] = o;
                        }
                        s[at] = o;
                    }
                }
            }
        }
    }

    fn message(text: &str) -> String {
        Value::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn messages_name_the_fault() {
        let bom = message("\u{FEFF}{}");
        assert!(
            bom.contains("byte order mark") && bom.contains("byte 0"),
            "{bom}"
        );
        let zero = message("[1, 007]");
        assert!(
            zero.contains("leading zero") && zero.contains("byte 4"),
            "{zero}"
        );
        let big = message(&"9".repeat(100_000));
        assert!(big.len() < 200 && big.contains("2^53-1"), "{big}");
        let inf = message("[1e400]");
        assert!(inf.contains("1e400") && inf.contains("infinity"), "{inf}");
    }
}
