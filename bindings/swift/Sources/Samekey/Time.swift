import Foundation
import SamekeyFFI

/// The whole milliseconds since the Unix epoch of a `Date`: what every derivation from a
/// `Date` uses (spec §4.4). A sub-millisecond part is dropped (floored: 12:00:00.1239 is
/// millisecond 123, and a time before 1970 rounds down too). A `Date` holds a `Double`,
/// which cannot hold most milliseconds exactly; a time within a microsecond of a whole
/// millisecond is taken as that millisecond, so that `Date(timeIntervalSince1970: 1.123)`
/// is millisecond 1123 and not 1122.
public func milliseconds(of date: Date) -> Int64 {
    let ms = date.timeIntervalSince1970 * 1000
    guard ms.isFinite, ms > -9.2e18, ms < 9.2e18 else {
        // Beyond any ULID time: the core refuses it (timestamp_out_of_range).
        return ms < 0 ? .min : .max
    }
    let nearest = ms.rounded()
    if abs(ms - nearest) < 0.001 { return Int64(nearest) }
    return Int64(ms.rounded(.down))
}

/// Whether milliseconds look like seconds given by mistake (spec §8.2): seconds of
/// 2001-2286 read as milliseconds fall in January 1970. Such a time derives a valid id
/// that nothing refuses; call this where integers arrive from elsewhere.
public func likelySeconds(_ milliseconds: Int64) -> Bool {
    samekey_likely_seconds(milliseconds)
}

/// The milliseconds since the epoch of RFC 3339 text with an offset
/// (`2024-05-01T12:00:00Z`, `2024-05-01T14:00:00.5+02:00`), as the specification reads it
/// (§8.1: stricter than `ISO8601DateFormatter`); ``ErrorCode/invalidTimestamp`` otherwise.
public func milliseconds(rfc3339 text: String) throws -> Int64 {
    var ms: Int64 = 0
    try withText(text) { p, n in try check { samekey_parse_rfc3339(p, n, &ms, $0) } }
    return ms
}
