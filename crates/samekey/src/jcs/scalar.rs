//! Strings and numbers as RFC 8785 writes them (spec §6.3): JSON.stringify's escapes,
//! and ECMAScript's shortest round-trip numbers.

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt::Write;

use crate::error::{Error, Result};

/// A string the parser read: one borrowed from the text had no escape there, so it has
/// nothing to escape now (a raw quote, backslash or control character is not JSON).
#[allow(clippy::ptr_arg)] // Which variant it is, is the point.
pub(super) fn write_text(out: &mut String, s: &Cow<'_, str>) {
    match s {
        Cow::Borrowed(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Cow::Owned(s) => write_string(out, s),
    }
}

/// JSON.stringify's escaping: `"`, `\` and C0 controls only; everything else literal.
pub(super) fn write_string(out: &mut String, s: &str) {
    out.push('"');
    let mut rest = s;
    while let Some(i) = rest
        .bytes()
        .position(|c| c == b'"' || c == b'\\' || c < 0x20)
    {
        out.push_str(&rest[..i]);
        let c = rest.as_bytes()[i];
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            0x08 => out.push_str("\\b"),
            b'\t' => out.push_str("\\t"),
            b'\n' => out.push_str("\\n"),
            0x0c => out.push_str("\\f"),
            b'\r' => out.push_str("\\r"),
            c => {
                let _ = write!(out, "\\u{:04x}", c);
            }
        }
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
    out.push('"');
}

/// Whether a JSON number literal is already what ECMAScript prints for its value, so it
/// can be written as it is: `-?(0|[1-9][0-9]*)\.[0-9]*[1-9]` with at most 15 significant
/// digits and a value of at least 10^-6 (below, ECMAScript writes an exponent). Any
/// decimal of 15 significant digits or fewer comes back from its double unchanged (15 is
/// `f64::DIGITS`), so no shorter string names the same double and these digits are the
/// shortest; from 10^-6 up to 10^21 ECMAScript writes them without an exponent.
pub(super) fn is_ecmascript_text(text: &str) -> bool {
    let t = text.strip_prefix('-').unwrap_or(text).as_bytes();
    let Some(point) = t.iter().position(|&c| c == b'.') else {
        return false;
    };
    let (int, frac) = (&t[..point], &t[point + 1..]);
    if frac.is_empty() || !frac.iter().all(u8::is_ascii_digit) || frac.last() == Some(&b'0') {
        return false; // an exponent, or a trailing zero
    }
    if int == b"0" {
        let zeros = frac.iter().take_while(|&&c| c == b'0').count();
        zeros <= 5 && frac.len() - zeros <= 15
    } else {
        int.len() + frac.len() <= 15
    }
}

/// ECMAScript Number::toString (ECMA-262 §6.1.6.1.20), as RFC 8785 §3.2.2.3 requires.
/// `ryu-js` implements it exactly, including the round-half-even choice between two
/// equally short digit strings that a plain shortest-digits printer may get wrong.
pub(super) fn write_number(out: &mut String, n: f64) -> Result<()> {
    if !n.is_finite() {
        return Err(Error::number_not_finite(n));
    }
    out.push_str(ryu_js::Buffer::new().format_finite(n));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: f64) -> String {
        let mut s = String::new();
        write_number(&mut s, n).unwrap();
        s
    }

    #[test]
    fn numbers_follow_ecmascript() {
        for (n, text) in [
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (5e-324, "5e-324"),
            // Exactly halfway between ...562.2 and ...562.3: ECMAScript picks the even one.
            (f64::from_bits(0x4317_9085_685d_83c9), "1658206780088562.2"),
        ] {
            assert_eq!(num(n), text);
        }
    }

    #[test]
    fn decimals_written_as_they_are_are_what_ecmascript_prints() {
        let mut literals = alloc::vec![
            String::from("0.000001"),
            "-0.5".into(),
            "123456789012.345".into()
        ];
        // Every shape near the limits: digits, leading zeros, trailing zeros, lengths.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for _ in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let int_len = (seed % 17) as usize;
            let zeros = (seed >> 8) % 8;
            let frac_len = 1 + (seed >> 16) % 17;
            let mut digits = seed >> 24;
            let mut text = String::new();
            if seed >> 63 == 1 {
                text.push('-');
            }
            if int_len == 0 {
                text.push('0');
            } else {
                for i in 0..int_len {
                    let d = if i == 0 { 1 + digits % 9 } else { digits % 10 };
                    text.push(char::from(b'0' + d as u8));
                    digits = digits / 10 + seed.rotate_left(i as u32) % 7;
                }
            }
            text.push('.');
            for _ in 0..zeros {
                text.push('0');
            }
            for _ in 0..frac_len {
                text.push(char::from(b'0' + (digits % 10) as u8));
                digits = digits / 10 + seed % 3;
            }
            literals.push(text);
        }
        let mut as_is = 0;
        for text in &literals {
            let n = crate::decimal::parse(text);
            if is_ecmascript_text(text) {
                as_is += 1;
                assert_eq!(num(n), *text, "{text} is not what ECMAScript prints");
            }
        }
        // Both answers occur, many times each.
        assert!(as_is > 10_000 && literals.len() - as_is > 10_000, "{as_is}");
        for text in [
            "1.0",
            "1e5",
            "1.5e5",
            "0.0000001",
            "1.0000000000000001",
            "0.1234567890123456",
        ] {
            assert!(!is_ecmascript_text(text), "{text}");
        }
    }
}
