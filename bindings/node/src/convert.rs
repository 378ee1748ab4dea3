//! JS values into the core's types. Strings arrive already checked for lone surrogates
//! by index.js (napi's UTF-8 conversion would replace them with U+FFFD).

use napi::bindgen_prelude::{Either, Uint8Array};
use samekey::{Scheme, Value};

use crate::errors::{type_error, CoreResult, Result};

pub type Field = Either<String, Uint8Array>;

pub fn scheme(name: &str) -> Result<Scheme> {
    name.parse::<Scheme>().js()
}

pub fn field_bytes(f: &Field) -> &[u8] {
    match f {
        Either::A(s) => s.as_bytes(),
        Either::B(b) => b,
    }
}

pub fn secret(secret: &Option<Uint8Array>) -> Option<&[u8]> {
    secret.as_ref().map(|s| &s[..])
}

/// A JS value (prepared by index.js: no undefined, no cycles, BigInts as numbers) as
/// JSON. Every JS number is a double, so every finite number is accepted (spec §6.2).
pub fn json(v: &serde_json::Value, depth: usize) -> Result<Value> {
    Ok(match v {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => {
            let f = n
                .as_f64()
                .ok_or_else(|| type_error(format!("{n} is not a number")))?;
            Value::number(f).js()?
        }
        serde_json::Value::String(s) => Value::String(s.clone()),
        serde_json::Value::Array(items) => {
            let inner = nested(depth)?;
            Value::Array(
                items
                    .iter()
                    .map(|x| json(x, inner))
                    .collect::<Result<_>>()?,
            )
        }
        serde_json::Value::Object(members) => {
            let inner = nested(depth)?;
            Value::Object(
                members
                    .iter()
                    .map(|(k, x)| Ok((k.clone(), json(x, inner)?)))
                    .collect::<Result<_>>()?,
            )
        }
    })
}

fn nested(depth: usize) -> Result<usize> {
    if depth >= samekey::MAX_DEPTH {
        return Err(samekey::Error::NestingTooDeep(samekey::MAX_DEPTH)).js();
    }
    Ok(depth + 1)
}
