//! Millisecond timestamps: the allowed range, host-number conversions and RFC 3339 text
//! (spec §8).

use alloc::format;
use alloc::string::{String, ToString};

use crate::error::{Error, Result};

/// The largest timestamp a ULID holds: 2^48 - 1 milliseconds (year 10889).
pub const MAX_MS: u64 = (1 << 48) - 1;

/// `t` itself when `0 <= t <= 2^48-1`, else `timestamp_out_of_range`.
// Inlined with its failure kept apart: called for every row of a batch, where a call a
// row cost about 1 ns.
#[inline]
pub fn check_ms(t: u64) -> Result<u64> {
    if t > MAX_MS {
        return Err(above_range(t));
    }
    Ok(t)
}

/// Range-checks a signed host integer (negative numbers are out of range, not wrapped).
#[inline]
pub fn from_millis_i128(t: i128) -> Result<u64> {
    match u64::try_from(t) {
        Ok(t) if t <= MAX_MS => Ok(t),
        _ => Err(out_of_range(t)),
    }
}

#[cold]
#[inline(never)]
fn above_range(t: u64) -> Error {
    Error::TimestampOutOfRange(t.to_string())
}

#[cold]
#[inline(never)]
fn out_of_range(t: i128) -> Error {
    Error::TimestampOutOfRange(crate::number::wide_int_text(t))
}

/// The unit of an integer count of time since the epoch (see [`Millis::from_units`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeUnit {
    /// Seconds.
    Second,
    /// Milliseconds.
    Millisecond,
    /// Microseconds (PostgreSQL, Spark).
    Microsecond,
    /// Nanoseconds (pandas).
    Nanosecond,
}

/// A host's time as whole milliseconds, converted but not yet range-checked.
///
/// Spec §4.4 makes two steps of a host time: converting it (a fraction, NaN or a naive
/// time is `invalid_timestamp`, before every other check) and checking its range
/// (`timestamp_out_of_range`, check 6, after the scheme, secret and namespace). A host
/// converts into `Millis` first and calls [`Millis::check`] in the range check's place.
///
/// ```
/// use samekey::timestamp::Millis;
/// assert_eq!(Millis::from(-1i64).check().unwrap_err().code(), "timestamp_out_of_range");
/// assert_eq!(Millis::from_f64(1.5).unwrap_err().code(), "invalid_timestamp");
/// assert_eq!(Millis::from_f64(2.0)?.check()?, 2);
/// # Ok::<(), samekey::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(i128);

impl Millis {
    /// Whole milliseconds of any range.
    pub const fn new(ms: i128) -> Self {
        Millis(ms)
    }

    /// A host floating-point number of milliseconds (JavaScript `number`): a whole value
    /// is that integer; a fraction or a non-finite value is `invalid_timestamp`, never
    /// truncated.
    pub fn from_f64(t: f64) -> Result<Self> {
        // Every double of magnitude 2^52 or more is an integer; below, a round trip through
        // i64 is exact only for integers. (`f64::fract` is not available without std.)
        let integral = t.abs() >= 4_503_599_627_370_496.0 || (t as i64) as f64 == t;
        if !t.is_finite() || !integral {
            return Err(Error::InvalidTimestamp(format!(
                "{} is not an integer number of milliseconds",
                crate::number::number_text(t)
            )));
        }
        // Saturates beyond i128, which is out of range either way.
        Ok(Millis(t as i128))
    }

    /// A count of `unit`s since the epoch (an Arrow or database timestamp), floored to
    /// the millisecond as spec §8.2 requires: `-1` microsecond is `-1` millisecond, never
    /// `0`.
    ///
    /// ```
    /// use samekey::timestamp::{Millis, TimeUnit};
    /// assert_eq!(Millis::from_units(1_999_999, TimeUnit::Microsecond).check()?, 1_999);
    /// assert_eq!(Millis::from_units(-1, TimeUnit::Nanosecond).as_i128(), -1);
    /// assert_eq!(Millis::from_units(2, TimeUnit::Second).check()?, 2_000);
    /// # Ok::<(), samekey::Error>(())
    /// ```
    pub const fn from_units(value: i64, unit: TimeUnit) -> Self {
        let v = value as i128;
        Millis(match unit {
            TimeUnit::Second => v * 1000,
            TimeUnit::Millisecond => v,
            TimeUnit::Microsecond => v.div_euclid(1000),
            TimeUnit::Nanosecond => v.div_euclid(1_000_000),
        })
    }

    /// Decimal integer text of milliseconds, as a command line gives it: an optional `-`
    /// then digits, of any length (beyond `i128` it saturates: out of range either way).
    /// Anything else, `1.5` or `1e3` or `0x10` included, is `invalid_timestamp`; the
    /// range is [`Millis::check`]'s.
    ///
    /// ```
    /// use samekey::timestamp::Millis;
    /// assert_eq!(Millis::parse_integer("1714564800000")?.check()?, 1_714_564_800_000);
    /// assert_eq!(Millis::parse_integer("-5")?.check().unwrap_err().code(), "timestamp_out_of_range");
    /// assert_eq!(Millis::parse_integer("99999999999999999999999999999999999999999")?.check().unwrap_err().code(), "timestamp_out_of_range");
    /// assert_eq!(Millis::parse_integer("1.5").unwrap_err().code(), "invalid_timestamp");
    /// # Ok::<(), samekey::Error>(())
    /// ```
    pub fn parse_integer(text: &str) -> Result<Self> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::InvalidTimestamp(format!(
                "{:?} is not an integer number of milliseconds",
                crate::number::excerpt(text)
            )));
        }
        let magnitude = digits.bytes().fold(0i128, |n, d| {
            n.saturating_mul(10).saturating_add(i128::from(d - b'0'))
        });
        Ok(Millis(if negative { -magnitude } else { magnitude }))
    }

    /// The milliseconds, whatever their range.
    pub const fn as_i128(self) -> i128 {
        self.0
    }

    /// The milliseconds as a ULID holds them, or `timestamp_out_of_range` (spec §4.1).
    #[inline]
    pub fn check(self) -> Result<u64> {
        from_millis_i128(self.0)
    }
}

impl From<u64> for Millis {
    fn from(ms: u64) -> Self {
        Millis(i128::from(ms))
    }
}

impl From<i64> for Millis {
    #[inline]
    fn from(ms: i64) -> Self {
        Millis(i128::from(ms))
    }
}

/// Converts a host floating-point number of milliseconds (JavaScript `number`).
/// A fractional or non-finite value is `invalid_timestamp`; it is never truncated.
/// Both steps of [`Millis`] at once, for a time that is checked on its own.
pub fn from_millis_f64(t: f64) -> Result<u64> {
    Millis::from_f64(t)?;
    if !(0.0..=MAX_MS as f64).contains(&t) {
        return Err(Error::TimestampOutOfRange(crate::number::number_text(t)));
    }
    Ok(t as u64)
}

/// Parses RFC 3339 text with an explicit offset into milliseconds since the epoch.
/// Digits past milliseconds are floored; `23:59:60` (leap seconds) is not accepted.
///
/// ```
/// assert_eq!(samekey::parse_rfc3339("1970-01-01T00:00:01.9999Z")?, 1999);
/// assert_eq!(samekey::parse_rfc3339("1970-01-01T01:00:00+01:00")?, 0);
/// assert_eq!(samekey::parse_rfc3339("2024-02-30T00:00:00Z").unwrap_err().code(), "invalid_timestamp");
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn parse_rfc3339(text: &str) -> Result<u64> {
    rfc3339_millis(text)?
        .check()
        .map_err(|_| Error::TimestampOutOfRange(text.into()))
}

/// RFC 3339 text as [`Millis`], converted but not range-checked, for a host that takes
/// text where a time goes: its range is checked in spec §4.4's order.
///
/// ```
/// use samekey::timestamp::rfc3339_millis;
/// let before_1970 = rfc3339_millis("1969-12-31T23:59:59.999Z")?;
/// assert_eq!(before_1970.check().unwrap_err().code(), "timestamp_out_of_range");
/// # Ok::<(), samekey::Error>(())
/// ```
pub fn rfc3339_millis(text: &str) -> Result<Millis> {
    parse_to_signed_ms(text).map(Millis).ok_or_else(|| {
        Error::InvalidTimestamp(format!(
            "\"{text}\" is not RFC 3339 text naming a real time: expected YYYY-MM-DDTHH:MM:SS[.fraction] and Z or ±hh:mm"
        ))
    })
}

struct Cursor<'a> {
    s: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn digits(&mut self, n: usize) -> Option<i64> {
        let part = self.s.get(self.at..self.at + n)?;
        if !part.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.at += n;
        Some(part.iter().fold(0, |acc, d| acc * 10 + i64::from(d - b'0')))
    }

    fn byte(&mut self, allowed: &[u8]) -> Option<u8> {
        let c = *self.s.get(self.at)?;
        allowed.contains(&c).then(|| {
            self.at += 1;
            c
        })
    }
}

// i64, not i128: years have four digits, and a 128-bit division is a library call that
// cost more than the rest of the parse.
fn parse_to_signed_ms(text: &str) -> Option<i128> {
    let mut c = Cursor {
        s: text.as_bytes(),
        at: 0,
    };
    let year = c.digits(4)?;
    c.byte(b"-")?;
    let month = c.digits(2)?;
    c.byte(b"-")?;
    let day = c.digits(2)?;
    c.byte(b"Tt")?;
    let hour = c.digits(2)?;
    c.byte(b":")?;
    let minute = c.digits(2)?;
    c.byte(b":")?;
    let second = c.digits(2)?;
    let mut millis = 0;
    if c.byte(b".").is_some() {
        let start = c.at;
        let mut scale = 100;
        while let Some(d) = c.digits(1) {
            millis += d * scale;
            scale /= 10;
        }
        if c.at == start {
            return None;
        }
    }
    let offset_min = match c.byte(b"Zz+-")? {
        b'Z' | b'z' => 0,
        sign => {
            let h = c.digits(2)?;
            c.byte(b":")?;
            let m = c.digits(2)?;
            if h > 23 || m > 59 {
                return None;
            }
            if sign == b'+' {
                h * 60 + m
            } else {
                -(h * 60 + m)
            }
        }
    };
    if c.at != c.s.len() {
        return None;
    }
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_min * 60;
    Some(i128::from(seconds * 1000 + millis))
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// Formats milliseconds as RFC 3339 UTC text with exactly three fraction digits.
/// Years past 9999 (up to 10889) are written with five digits, which RFC 3339 cannot hold.
pub fn format_rfc3339(ms: u64) -> Result<String> {
    // Within 2^48: an i64.
    let ms = check_ms(ms)? as i64;
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, mo, d) = civil_from_days(days);
    Ok(format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_then_parse_round_trips() {
        for ms in [
            0,
            1,
            951_782_400_000,
            1_700_000_000_123,
            253_402_300_799_999,
        ] {
            assert_eq!(parse_rfc3339(&format_rfc3339(ms).unwrap()).unwrap(), ms);
        }
        assert_eq!(format_rfc3339(MAX_MS).unwrap(), "10889-08-02T05:31:50.655Z");
    }

    #[test]
    fn units_floor_to_the_millisecond_and_never_wrap() {
        use TimeUnit::*;
        let ms = |v, u| Millis::from_units(v, u).as_i128();
        assert_eq!(ms(1_999, Microsecond), 1);
        assert_eq!(ms(-1, Microsecond), -1);
        assert_eq!(ms(-1_000_000, Nanosecond), -1);
        assert_eq!(ms(-1_000_001, Nanosecond), -2);
        assert_eq!(ms(i64::MAX, Second), i128::from(i64::MAX) * 1000);
        assert_eq!(
            ms(i64::MIN, Nanosecond),
            i128::from(i64::MIN) / 1_000_000 - 1
        );
        assert_eq!(ms(7, Millisecond), 7);
        assert_eq!(
            Millis::from_units(i64::MAX, Second)
                .check()
                .unwrap_err()
                .code(),
            "timestamp_out_of_range"
        );
    }

    #[test]
    fn host_numbers_are_checked_not_truncated() {
        assert_eq!(
            from_millis_f64(1.5).unwrap_err().code(),
            "invalid_timestamp"
        );
        assert_eq!(
            from_millis_f64(f64::NAN).unwrap_err().code(),
            "invalid_timestamp"
        );
        assert_eq!(
            from_millis_f64(-1.0).unwrap_err().code(),
            "timestamp_out_of_range"
        );
        assert_eq!(from_millis_f64(MAX_MS as f64).unwrap(), MAX_MS);
        assert_eq!(
            from_millis_f64(MAX_MS as f64 + 1.0).unwrap_err().code(),
            "timestamp_out_of_range"
        );
        assert_eq!(
            from_millis_i128(-1).unwrap_err().code(),
            "timestamp_out_of_range"
        );
    }
}
