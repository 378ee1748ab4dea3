//! What the canonical writer keeps of a record's top-level object while it reads (for
//! [`crate::record`]): each member's span and its string or number value.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::key_order::KeyOrder;

/// A top-level member's value, as far as a pipeline reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum TopValue<'t> {
    /// A string, borrowed from the text unless it held escapes.
    String(Cow<'t, str>),
    /// A number.
    Number(f64),
    /// `null`, a boolean, an array or an object.
    Other,
}

/// One top-level member of a record.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordMember<'t> {
    /// The key, unescaped.
    pub key: Cow<'t, str>,
    /// From the key's opening quote to the end of the value, in the text.
    pub span: Range<usize>,
    /// The value.
    pub value: TopValue<'t>,
}

/// What the canonical writer keeps of the top-level object while it reads.
pub(crate) struct Top<'t> {
    pub(crate) is_object: bool,
    pub(crate) omit: &'t [&'t str],
    pub(crate) members: Vec<RecordMember<'t>>,
    /// The canonical order of the previous record's keys (see [`crate::record::RecordReader`]).
    pub(crate) order: KeyOrder,
    /// A copy of the record's members while they are rearranged.
    pub(crate) text: String,
}

impl<'t> Top<'t> {
    pub(crate) fn member(&mut self, key: Cow<'t, str>, at: usize) {
        self.members.push(RecordMember {
            key,
            span: at..at,
            value: TopValue::Other,
        });
    }

    pub(crate) fn value_string(&mut self, s: Cow<'t, str>) {
        if let Some(m) = self.members.last_mut() {
            m.value = TopValue::String(s);
        }
    }

    pub(crate) fn value_number(&mut self, n: f64) {
        if let Some(m) = self.members.last_mut() {
            m.value = TopValue::Number(n);
        }
    }

    pub(crate) fn member_end(&mut self, at: usize) {
        if let Some(m) = self.members.last_mut() {
            m.span.end = at;
        }
    }
}
