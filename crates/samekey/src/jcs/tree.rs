//! The canonical text of a parsed value tree ([`Value`]).

use alloc::string::String;

use super::scalar::{write_number, write_string};
use crate::error::{Error, Result};
use crate::json::{sorted_members, Value, MAX_DEPTH};

/// Writes `value` canonically; `depth` is the nesting around it.
pub(super) fn write_value(out: &mut String, value: &Value, depth: usize) -> Result<()> {
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
