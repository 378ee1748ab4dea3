//! PostgreSQL times as the core's milliseconds (spec §8.2), and RFC 3339 text (§8.1).

use pgrx::prelude::*;
use samekey::timestamp::Millis;

use crate::errors::OrRaise;

/// Microseconds from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
const PG_EPOCH_US: i128 = 946_684_800_000_000;

/// A `timestamptz` as milliseconds since 1970, floored (`-1` µs is `-1` ms) as spec §8.2
/// requires; `infinity` and `-infinity` are `invalid_timestamp`. Not range-checked: the
/// range comes after the scheme checks (spec §4.4), where the caller checks it.
pub(crate) fn millis(t: TimestampWithTimeZone) -> samekey::Result<Millis> {
    if !t.is_finite() {
        return Err(samekey::Error::InvalidTimestamp(format!(
            "{t} is not an instant"
        )));
    }
    let us = i128::from(t.into_inner()) + PG_EPOCH_US;
    Ok(Millis::new(us.div_euclid(1000)))
}

/// The instant of RFC 3339 text under the strict rules of spec §8.1, the same in every
/// binding (PostgreSQL's own `timestamptz` input accepts much more: `now`, a missing
/// offset read in the session's time zone, `2024-05-01 12:00`); floored to the
/// millisecond, range-checked (1970 to 2^48-1 ms).
#[pg_extern(immutable, parallel_safe)]
fn samekey_parse_rfc3339(text: &str) -> TimestampWithTimeZone {
    let ms = samekey::parse_rfc3339(text).or_raise();
    // Every value in range (below 2^48 ms, the year 10889) is a finite timestamptz.
    let us = i64::try_from(ms).expect("48 bits") * 1000 - PG_EPOCH_US as i64;
    TimestampWithTimeZone::try_from(us).expect("2^48 ms is within timestamptz's range")
}
