//! Host text into Rust text: a string that is not valid Unicode is `invalid_string`,
//! never patched with U+FFFD, because a replaced character would silently change the key.

use alloc::string::String;

use crate::error::{Error, Result};

/// UTF-16 code units (JavaScript, Java, Kotlin, Swift strings) into a `String`.
pub fn from_utf16(units: &[u16]) -> Result<String> {
    String::from_utf16(units).map_err(|_| Error::InvalidString(None))
}

/// Appends UTF-16 code units to `out` as UTF-8, with no intermediate `String`: the batch
/// paths of the JavaScript bindings encode thousands of fields into one buffer.
pub fn push_utf16(units: &[u16], out: &mut alloc::vec::Vec<u8>) -> Result<()> {
    // Most identity fields are ASCII: narrow them without decoding.
    if units.iter().all(|&u| u < 0x80) {
        out.extend(units.iter().map(|&u| u as u8));
        return Ok(());
    }
    out.reserve(units.len());
    for c in char::decode_utf16(units.iter().copied()) {
        let c = c.map_err(|_| Error::InvalidString(None))?;
        if c.is_ascii() {
            out.push(c as u8);
        } else {
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }
    Ok(())
}

/// Bytes claimed to be UTF-8 text (Go strings, C strings) as `&str`.
pub fn from_utf8(bytes: &[u8]) -> Result<&str> {
    core::str::from_utf8(bytes).map_err(|e| Error::InvalidString(Some(e.valid_up_to())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_and_bad_utf8_are_invalid_string() {
        assert_eq!(
            from_utf16(&[0x61, 0xD800]).unwrap_err().code(),
            "invalid_string"
        );
        assert_eq!(from_utf16(&[0xDC00]).unwrap_err().code(), "invalid_string");
        assert_eq!(from_utf16(&[0xD83D, 0xDE00]).unwrap(), "\u{1F600}");
        assert_eq!(
            from_utf8(b"\xed\xa0\x80").unwrap_err().code(),
            "invalid_string"
        );
        assert_eq!(from_utf8(b"\xc3\x28").unwrap_err().code(), "invalid_string");
        let at = from_utf8(b"ab\xffcd").unwrap_err().to_string();
        assert!(at.contains("byte 2"), "{at}");
        assert_eq!(from_utf8("é".as_bytes()).unwrap(), "é");
    }

    #[test]
    fn push_utf16_appends_what_from_utf16_returns() {
        let mut out = b"x".to_vec();
        let units: alloc::vec::Vec<u16> = "a\u{e9}\u{1F600}".encode_utf16().collect();
        push_utf16(&units, &mut out).unwrap();
        assert_eq!(out, "xa\u{e9}\u{1F600}".as_bytes());
        assert_eq!(
            push_utf16(&[0x61, 0xD800], &mut out).unwrap_err().code(),
            "invalid_string"
        );
    }
}
