//! Host text into Rust text: a string that is not valid Unicode is `invalid_string`,
//! never patched with U+FFFD, because a replaced character would silently change the key.

use alloc::string::String;

use crate::error::{Error, Result};

/// UTF-16 code units (JavaScript, Java, Kotlin, Swift strings) into a `String`.
pub fn from_utf16(units: &[u16]) -> Result<String> {
    String::from_utf16(units).map_err(|_| Error::InvalidString)
}

/// Bytes claimed to be UTF-8 text (Go strings, C strings) as `&str`.
pub fn from_utf8(bytes: &[u8]) -> Result<&str> {
    core::str::from_utf8(bytes).map_err(|_| Error::InvalidString)
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
        assert_eq!(from_utf8("é".as_bytes()).unwrap(), "é");
    }
}
