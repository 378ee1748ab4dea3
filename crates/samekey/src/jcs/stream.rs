//! The streaming canonicaliser: canonical text written as the parser reads, without a
//! value tree; objects are rearranged when they close, only if out of order.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::scalar::{is_ecmascript_text, write_text};
use super::top::Top;
use crate::error::{Error, Result};
use crate::json::Value;
use crate::key_order::{same_tail, Keyed, SortKey};

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
    record: Option<&'r mut Top<'t>>,
}

impl<'o, 't, 'r> Canonical<'o, 't, 'r> {
    pub(crate) fn new(out: &'o mut String, record: Option<&'r mut Top<'t>>) -> Self {
        Canonical {
            out,
            depth: 0,
            scratch: String::new(),
            record,
        }
    }

    /// The record's top-level object, while its members (not theirs) are being read.
    fn top(&mut self) -> Option<&mut Top<'t>> {
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

impl Keyed for Member<'_> {
    fn word(&self) -> u64 {
        self.word
    }
    fn key(&self) -> &str {
        &self.key
    }
    fn start(&self) -> usize {
        self.start
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
