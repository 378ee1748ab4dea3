//! Numbers as text for messages, and the messages of `number_out_of_range`: one home for
//! the formatting that JSON parsing, canonical JSON and timestamps all report with.

use alloc::format;
use alloc::string::String;

use crate::error::Error;

/// A double as text for messages, through the ECMAScript formatter the canonical form
/// already needs: `f64`'s own `Display` would add a second float printer to the binary,
/// a real cost in the WebAssembly build.
pub(crate) fn number_text(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        ryu_js::Buffer::new().format_finite(n).into()
    }
}

/// An `i128` for messages without `i128`'s own formatter (which brings 128-bit division
/// into the WebAssembly build); hosts' integers beyond 64 bits are not worth spelling out.
pub(crate) fn wide_int_text(n: i128) -> String {
    match i64::try_from(n) {
        Ok(n) => alloc::string::ToString::to_string(&n),
        Err(_) if n > 0 => "a number above 2^63".into(),
        Err(_) => "a number below -2^63".into(),
    }
}

/// Longest part of a number literal a message quotes: a megabyte literal must not make a
/// megabyte message.
const QUOTED: usize = 40;

/// `literal`, or its first characters and its length when it is long.
pub(crate) fn excerpt(literal: &str) -> String {
    match literal.char_indices().nth(QUOTED) {
        None => literal.into(),
        Some((cut, _)) => format!("{}… ({} characters)", &literal[..cut], literal.len()),
    }
}

impl Error {
    /// `number_out_of_range` for an integer beyond ±(2^53-1), given as its text.
    pub fn integer_out_of_range(literal: &str) -> Error {
        Error::NumberOutOfRange(format!(
            "the integer {} is beyond ±(2^53-1), the integers every JSON reader keeps exact",
            excerpt(literal)
        ))
    }

    /// `number_out_of_range` for a number literal that overflows to infinity as a double.
    pub fn number_overflows(literal: &str) -> Error {
        Error::NumberOutOfRange(format!(
            "the number {} overflows to infinity as a double",
            excerpt(literal)
        ))
    }

    /// `number_out_of_range` for a host's non-finite floating-point value.
    pub fn number_not_finite(n: f64) -> Error {
        Error::NumberOutOfRange(format!(
            "{} is not a finite number, which JSON cannot hold",
            number_text(n)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_quote_at_most_forty_characters_and_say_why() {
        let huge = "9".repeat(1_000_000);
        let m = Error::integer_out_of_range(&huge).to_string();
        assert!(m.len() < 200, "{m}");
        assert!(
            m.contains("1000000 characters") && m.contains("2^53-1"),
            "{m}"
        );
        let m = Error::number_overflows("1e400").to_string();
        assert!(m.contains("1e400") && m.contains("infinity"), "{m}");
        assert!(Error::number_not_finite(f64::NAN)
            .to_string()
            .contains("NaN"));
        assert_eq!(excerpt("12"), "12");
    }
}
