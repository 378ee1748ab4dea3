//! `Ulid`, `UlidDeriver`, `deriveUlid`, `ulidMessage`.

use napi::bindgen_prelude::{Buffer, Float64Array, Uint8Array};
use napi_derive::napi;
use samekey::{Error, UlidDeriver as CoreDeriver};

use crate::convert::{self, Field};
use crate::errors::{type_error, CoreResult, Result};

fn parse(text: &str) -> Result<samekey::Ulid> {
    text.parse().js()
}

/// The canonical (uppercase) text of ULID text, or `invalid_ulid`.
#[napi]
pub fn ulid_canonical(text: String) -> Result<String> {
    Ok(parse(&text)?.to_string())
}

#[napi]
pub fn ulid_from_bytes(bytes: Uint8Array) -> Result<String> {
    let raw: [u8; 16] = bytes[..]
        .try_into()
        .map_err(|_| Error::InvalidUlid(format!("{} bytes (a ULID is 16)", bytes.len())))
        .js()?;
    Ok(samekey::Ulid::from_bytes(raw).to_string())
}

#[napi]
pub fn ulid_bytes(text: String) -> Result<Buffer> {
    Ok(parse(&text)?.as_bytes().to_vec().into())
}

#[napi]
pub fn ulid_uuid(text: String) -> Result<String> {
    Ok(parse(&text)?.to_uuid_string())
}

#[napi]
pub fn ulid_timestamp_ms(text: String) -> Result<f64> {
    Ok(parse(&text)?.timestamp_ms() as f64)
}

/// The exact bytes hashed for a ULID (spec §4.2, §4.3).
#[napi]
pub fn ulid_message(fields: Vec<Field>, namespace: String, scheme: String) -> Result<Buffer> {
    let scheme = convert::scheme(&scheme)?;
    let message = samekey::ulid_message(scheme, &namespace, &convert::fields(&fields)).js()?;
    Ok(message.into())
}

fn scheme_from_code(code: u32) -> Result<samekey::Scheme> {
    samekey::Scheme::ALL
        .get(code as usize)
        .copied()
        .ok_or_else(|| type_error(format!("unknown scheme code {code}")))
}

/// Checks a deriver's settings once (index.js then sends only the scheme's code).
#[napi]
pub fn prepare_deriver(
    scheme: String,
    namespace: String,
    secret: Option<Uint8Array>,
) -> Result<u32> {
    let scheme = convert::scheme(&scheme)?;
    CoreDeriver::new(scheme, &namespace, convert::secret(&secret)).js()?;
    Ok(samekey::Scheme::ALL
        .iter()
        .position(|&s| s == scheme)
        .unwrap_or(0) as u32)
}

/// Reads what index.js packed ahead of the fields: the namespace, and the secret when
/// `has_secret` (see `convert::unpack`).
fn settings<'a>(
    packed: &mut convert::Packed<'a>,
    has_secret: bool,
) -> Result<(&'a str, Option<&'a [u8]>)> {
    let namespace = std::str::from_utf8(packed.next_field()?)
        .map_err(|_| Error::InvalidString)
        .js()?;
    let secret = if has_secret {
        Some(packed.next_field()?)
    } else {
        None
    };
    Ok((namespace, secret))
}

/// The id of packed fields. `packed` starts with three bytes: the scheme's code, 1 when a
/// secret follows the namespace, and the number of fields (at most 255 here; more go
/// through `deriveManyPacked`). A free function with two arguments: on napi each method
/// call and each argument costs more than the hashing itself.
#[napi]
pub fn derive_packed(packed: &[u8], time_ms: f64) -> Result<String> {
    let header = packed
        .get(..3)
        .ok_or_else(|| type_error("malformed packed fields".into()))?;
    let (scheme, has_secret, count) = (
        scheme_from_code(u32::from(header[0]))?,
        header[1] == 1,
        header[2],
    );
    let mut packed = convert::Packed { buf: packed, at: 3 };
    let (namespace, secret) = settings(&mut packed, has_secret)?;
    let fields = (0..count)
        .map(|_| packed.next_field())
        .collect::<Result<Vec<_>>>()?;
    let t = convert::time(time_ms)?;
    samekey::derive_ulid(scheme, t, namespace, &fields, secret)
        .map(|id| id.to_string())
        .js()
}

/// The ids of `times.len()` rows of `width` packed fields each, as one string of
/// 26-character ULIDs that index.js slices (one JS string instead of thousands).
#[napi]
pub fn derive_many_packed(
    scheme: u32,
    has_secret: bool,
    packed: &[u8],
    width: u32,
    times_ms: Float64Array,
) -> Result<String> {
    if width == 0 {
        return Err(Error::NoFields).js();
    }
    let scheme = scheme_from_code(scheme)?;
    let mut packed = convert::Packed { buf: packed, at: 0 };
    let (namespace, secret) = settings(&mut packed, has_secret)?;
    let deriver = CoreDeriver::new(scheme, namespace, secret).js()?;
    let mut out = Vec::with_capacity(26 * times_ms.len());
    let mut row = Vec::with_capacity(width as usize);
    for &t in times_ms.iter() {
        row.clear();
        for _ in 0..width {
            row.push(packed.next_field()?);
        }
        out.extend_from_slice(
            &deriver
                .derive(convert::time(t)?, &row)
                .js()?
                .to_text_bytes(),
        );
    }
    // ULID text is ASCII.
    String::from_utf8(out).map_err(|_| type_error("non-ASCII ULID text".into()))
}
