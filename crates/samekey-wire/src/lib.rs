//! How samekey's foreign bindings pass identity inputs to the core: one byte buffer
//! instead of arrays of strings. For the JavaScript backends (napi, wasm-bindgen),
//! converting strings one argument at a time costs several times the hashing; for the C
//! ABI (and Go through cgo) a flat buffer holds no pointers, so nothing needs pinning.
//! This is transport only: the samekey framing is done by the core.
//!
//! A packed request is
//!
//! ```text
//! k, scheme codes (k bytes: the first is the primary), has_secret (0/1), field count
//! (u32 LE: any count the spec allows, §4.1), then length-prefixed items: namespace,
//! [secret], fields
//! ```
//!
//! where an item is a little-endian u32 length and its bytes, and a scheme code is the
//! index in `Scheme::ALL` (v0 = 0, v1 = 1, v2 = 2).
//!
//! Names say which time a function takes: `_ms` is checked milliseconds since the Unix
//! epoch (`u64`, as the C ABI passes them); `_js_ms` is a JavaScript number of
//! milliseconds (`f64`), checked here as spec §8.2 says (an integer in the ULID range).
//! `ascii` results are the 26 bytes of a ULID's text, `string` results its `String`.
//!
//! The JVM's JNI reads its own two formats, a direct-buffer frame and packed rows, described
//! in [`jvm`].

#![no_std]
extern crate alloc;

mod ascii;
mod codec;
mod ids;
mod js;
pub mod jvm;

pub use codec::{scheme_code, Request, Result, WireError};
pub use ids::*;
pub use js::*;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;
    use samekey::Error;

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    #[test]
    fn a_timed_request_derives_what_the_request_and_its_time_derive() {
        // k = 1, scheme v1, no secret, 2 fields; namespace "", fields "slug", "en".
        let mut packed = vec![1u8, 1, 0, 2, 0, 0, 0];
        for item in [&b""[..], b"slug", b"en"] {
            packed.extend_from_slice(&(item.len() as u32).to_le_bytes());
            packed.extend_from_slice(item);
        }
        let t = 1714564800000.0;
        let mut timed = packed.clone();
        timed.extend_from_slice(&f64::to_le_bytes(t));
        let want = derive_string_js_ms(&packed, t).unwrap();
        assert_eq!(
            derive_ascii_trailing_js_ms(&timed).unwrap(),
            want.as_bytes()
        );
        timed.extend_from_slice(b"ignored");
        assert_eq!(
            derive_ascii_trailing_js_ms(&timed).unwrap(),
            want.as_bytes()
        );
        assert!(matches!(
            derive_ascii_trailing_js_ms(&timed[..packed.len() + 7]),
            Err(WireError::Malformed("truncated time"))
        ));
        let mut fractional = packed.clone();
        fractional.extend_from_slice(&f64::to_le_bytes(1.5));
        assert!(matches!(
            derive_ascii_trailing_js_ms(&fractional),
            Err(WireError::Core(Error::InvalidTimestamp(_)))
        ));
    }

    #[test]
    fn utf16_batch_equals_the_packed_batch_and_checks_its_lengths() {
        // settings: k = 1, scheme v1, no secret, no fields; namespace "posts".
        let mut settings = vec![1u8, 1, 0, 0, 0, 0, 0];
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
        let batch_text = |settings: &[u8], width, times: &[f64], text: &[u16], lengths: &[u32]| {
            let mut out = b"kept ".to_vec();
            derive_many_utf16_js_ms(settings, width, times, text, lengths, None, &mut out)?;
            let out = String::from_utf8(out).unwrap();
            Ok::<_, WireError>(out.strip_prefix("kept ").unwrap().to_string())
        };
        let want = derive_many_js_ms(&packed, 2, &times, None).unwrap();
        assert_eq!(
            batch_text(&settings, 2, &times, &text, &lengths).unwrap(),
            want
        );
        let short = &lengths[..3];
        assert!(matches!(
            batch_text(&settings, 2, &times, &text, short),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            batch_text(&settings, 2, &times, &text[1..], &lengths),
            Err(WireError::Malformed(_))
        ));
        let mut long = text.clone();
        long.push(0x61);
        assert!(matches!(
            batch_text(&settings, 2, &times, &long, &lengths),
            Err(WireError::Malformed(_))
        ));
        let lone = [0xD800u16, 0x61, 0x62, 0x63, 0x64];
        let err = batch_text(&settings, 2, &times[..1], &lone[..3], &[1, 2]).unwrap_err();
        assert!(matches!(err, WireError::Core(Error::InvalidString(_))));
        // A surrogate pair split between two fields leaves each field a lone surrogate.
        let split = utf16("\u{1F600}");
        let err = batch_text(&settings, 2, &times[..1], &split, &[1, 1]).unwrap_err();
        assert!(matches!(err, WireError::Core(Error::InvalidString(_))));
    }
}
