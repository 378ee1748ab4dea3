//! Decimal text to the nearest `f64` (ties to even), for JSON number literals.
//!
//! `str::parse::<f64>` is correct too, but its fast path carries a 20 KB table of powers
//! of five, a third of the gzipped WebAssembly budget. This parser makes a close first
//! guess with plain float arithmetic, then corrects it exactly: it compares the decimal
//! value with the midpoints between neighbouring doubles using big-integer arithmetic
//! (Clinger's AlgorithmR). Slower, and only used on the rare non-integer JSON number.

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Significant digits kept. Midpoints between doubles have at most 767 significant
/// digits, so past 800 only whether more non-zero digits follow can matter; a final `1`
/// stands for them.
const MAX_DIGITS: usize = 800;

/// Parses text already checked against the JSON number grammar:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Returns ±infinity on overflow.
pub(crate) fn parse(text: &str) -> f64 {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = parse_magnitude(body);
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

fn parse_magnitude(body: &str) -> f64 {
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], parse_exponent(&body[i + 1..])),
        None => (body, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // value = digits × 10^exp10, with digits the significant digits, no leading zeros.
    let mut digits: Vec<u8> = Vec::new();
    let mut exp10 = exponent - fraction.len() as i64;
    for &c in whole.as_bytes().iter().chain(fraction.as_bytes()) {
        if digits.is_empty() && c == b'0' {
            continue;
        }
        digits.push(c - b'0');
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exp10 += 1;
    }
    if digits.is_empty() {
        return 0.0;
    }
    if digits.len() > MAX_DIGITS {
        let dropped_nonzero = digits[MAX_DIGITS..].iter().any(|&d| d != 0);
        exp10 += (digits.len() - MAX_DIGITS) as i64;
        digits.truncate(MAX_DIGITS);
        if dropped_nonzero {
            digits.push(1);
            exp10 -= 1;
        }
    }
    if let Some(exact) = fast_path(&digits, exp10) {
        return exact;
    }
    let magnitude = digits.len() as i64 + exp10; // value is in [10^(m-1), 10^m)
    if magnitude > 310 {
        return f64::INFINITY;
    }
    if magnitude < -330 {
        return 0.0;
    }
    refine(&digits, exp10 as i32, guess(&digits, exp10 as i32))
}

/// Clinger's fast path, which covers most numbers people write (`3.63`, `0.5`,
/// `1714564800.123`): at most 15 significant digits and a power of ten up to 10^22 are
/// both exact doubles, so one IEEE multiplication or division, itself correctly rounded,
/// gives the nearest double.
fn fast_path(digits: &[u8], exp10: i64) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    if digits.len() > 15 || exp10.unsigned_abs() > 22 {
        return None;
    }
    let n = digits.iter().fold(0u64, |n, &d| n * 10 + u64::from(d)) as f64;
    let p = POW10[exp10.unsigned_abs() as usize];
    Some(if exp10 < 0 { n / p } else { n * p })
}

/// The exponent, saturated: anything beyond ±10^6 over- or underflows just the same.
fn parse_exponent(text: &str) -> i64 {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let mut e: i64 = 0;
    for c in digits.bytes() {
        e = (e * 10 + i64::from(c - b'0')).min(1_000_000);
    }
    if negative {
        -e
    } else {
        e
    }
}

/// A first guess within a few units in the last place.
fn guess(digits: &[u8], exp10: i32) -> f64 {
    let taken = digits.len().min(19);
    let lead = digits[..taken]
        .iter()
        .fold(0u64, |acc, &d| acc * 10 + u64::from(d));
    let mut e = exp10 + (digits.len() - taken) as i32;
    let mut x = lead as f64;
    // Scale in steps that neither overflow nor underflow on the way.
    while e > 0 {
        let step = e.min(100);
        x *= pow10(step);
        e -= step;
    }
    while e < 0 {
        let step = (-e).min(100);
        x /= pow10(step);
        e += step;
    }
    if x.is_nan() || x == 0.0 {
        f64::from_bits(1)
    } else if x.is_infinite() {
        f64::MAX
    } else {
        x
    }
}

fn pow10(n: i32) -> f64 {
    let mut p = 1.0;
    for _ in 0..n {
        p *= 10.0;
    }
    p
}

/// Moves `z` to the double nearest to digits × 10^exp10.
fn refine(digits: &[u8], exp10: i32, mut z: f64) -> f64 {
    let value = Big::from_digits(digits);
    loop {
        let (mant, exp2) = decompose(z);
        // Midpoints with the neighbours, as m × 2^e with an integer m.
        let upper = (2 * mant + 1, exp2 - 1);
        let lower = if mant == 1 << 52 && exp2 > -1074 {
            (4 * mant - 1, exp2 - 2) // the gap below a power of two is half as wide
        } else {
            (2 * mant - 1, exp2 - 1)
        };
        match compare(&value, exp10, upper) {
            Ordering::Greater => {
                if z == f64::MAX {
                    return f64::INFINITY;
                }
                z = f64::from_bits(z.to_bits() + 1);
                continue;
            }
            Ordering::Equal => {
                return if mant % 2 == 1 {
                    if z == f64::MAX {
                        f64::INFINITY
                    } else {
                        f64::from_bits(z.to_bits() + 1)
                    }
                } else {
                    z
                };
            }
            Ordering::Less => {}
        }
        match compare(&value, exp10, lower) {
            Ordering::Less => {
                if z.to_bits() == 1 {
                    return 0.0;
                }
                z = f64::from_bits(z.to_bits() - 1);
            }
            Ordering::Equal => {
                return if mant % 2 == 1 {
                    f64::from_bits(z.to_bits() - 1)
                } else {
                    z
                };
            }
            Ordering::Greater => return z,
        }
    }
}

/// `z` (finite, positive) as mant × 2^exp2 with mant < 2^53.
fn decompose(z: f64) -> (u64, i32) {
    let bits = z.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1 << 52), biased - 1075)
    }
}

/// Compares value × 10^exp10 with m × 2^e, exactly.
fn compare(value: &Big, exp10: i32, (m, e): (u64, i32)) -> Ordering {
    let mut left = value.clone();
    let mut right = Big::from_u64(m);
    if exp10 >= 0 {
        left.mul_pow10(exp10 as u32);
    } else {
        right.mul_pow10((-exp10) as u32);
    }
    if e >= 0 {
        right.shl(e as u32);
    } else {
        left.shl((-e) as u32);
    }
    left.cmp(&right)
}

/// An unsigned big integer, little-endian base-2^32 limbs, no trailing zero limbs.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(n: u64) -> Self {
        let mut b = Big(alloc::vec![n as u32, (n >> 32) as u32]);
        b.trim();
        b
    }

    fn from_digits(digits: &[u8]) -> Self {
        let mut b = Big(Vec::new());
        for chunk in digits.chunks(9) {
            let mut scale = 1u32;
            let mut add = 0u32;
            for &d in chunk {
                scale *= 10;
                add = add * 10 + u32::from(d);
            }
            b.mul_add(scale, add);
        }
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn mul_add(&mut self, factor: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(factor) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut n: u32) {
        while n >= 9 {
            self.mul_add(1_000_000_000, 0);
            n -= 9;
        }
        self.mul_add(10u32.pow(n), 0);
    }

    fn shl(&mut self, bits: u32) {
        let (limbs, bits) = ((bits / 32) as usize, bits % 32);
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let v = (*limb << bits) | carry;
                carry = *limb >> (32 - bits);
                *limb = v;
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        if !self.0.is_empty() {
            self.0.splice(0..0, core::iter::repeat_n(0, limbs));
        }
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    fn check(text: &str) {
        let want: f64 = text.parse().unwrap();
        assert_eq!(parse(text).to_bits(), want.to_bits(), "{text}");
    }

    #[test]
    fn hard_cases() {
        for t in [
            "0",
            "-0",
            "0.0",
            "1",
            "1.5",
            "0.1",
            "1e308",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2e308",
            "1e309",
            "1e-400",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1e-323",
            "9007199254740993",
            "9007199254740992.5",
            "9007199254740993.0000000001",
            "1658206780088562.25",
            "123456789012345678901234567890e-20",
            "0.000000000000000000001",
            "1e23",
            "8.98846567431158e307",
            "4.4501477170144023e-308",
            "1e-1000000",
            "1e1000000",
        ] {
            check(t);
        }
    }

    #[test]
    fn long_inputs_and_exact_midpoints() {
        // The exact decimal expansion of a midpoint between two doubles, and just off it.
        for bits in [
            1u64,
            2,
            0x000f_ffff_ffff_ffff,
            0x0010_0000_0000_0000,
            0x3ff0_0000_0000_0001,
            0x7fef_ffff_ffff_fffe,
        ] {
            let a = f64::from_bits(bits);
            let exact = format!("{:.1100e}", a);
            check(&exact);
            let (m, e) = exact.split_once('e').unwrap();
            let m = m.trim_end_matches('0');
            check(&format!("{m}1e{e}"));
        }
        let long: String = core::iter::repeat_n('7', 1200).collect();
        check(&format!("0.{long}"));
        check(&format!("{long}e-1190"));
    }

    #[test]
    fn random_literals_match_the_standard_parser() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let bits = next();
            let f = f64::from_bits(bits & 0x7fff_ffff_ffff_ffff);
            if !f.is_finite() {
                continue;
            }
            check(&format!("{f:e}"));
            check(&format!("{:.20e}", f));
            let digits = (next() % 30 + 1) as usize;
            let mantissa: String = (0..digits)
                .map(|_| char::from(b'0' + (next() % 10) as u8))
                .collect();
            let exp = (next() % 700) as i64 - 350;
            check(&format!("{mantissa}e{exp}"));
            // The fast path's domain: up to 15 digits, powers of ten up to 22 either way.
            let short = &mantissa[..mantissa.len().min(15)];
            let small = (next() % 45) as i64 - 22;
            check(&format!("{short}e{small}"));
            let split = (next() as usize) % (short.len() + 1);
            check(&format!(
                "{}.{}",
                &short[..split]
                    .trim_start_matches('0')
                    .to_owned()
                    .max("0".into()),
                &short[split..]
            ));
            check(&format!("0.{mantissa}e{exp}"));
        }
    }
}
