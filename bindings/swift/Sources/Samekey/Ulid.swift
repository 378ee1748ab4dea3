import Foundation
import SamekeyFFI

/// A deterministic ULID: a 48-bit millisecond timestamp, then 80 bits of a hash of the
/// identity fields (spec §4). Ordered as ULIDs are (by time, then the hash bits: the order
/// of its text and of its bytes), hashable, and encoded by `Codable` as its 26-character
/// text.
///
/// ```swift
/// let id = try Ulid(parsing: "01HWT0D7G0NXVJZMMA9TW58EBH")
/// id.date        // 2024-05-01 12:00:00 +0000
/// id.uuid        // the same 128 bits as a UUID
/// ```
public struct Ulid: Hashable, Comparable, Sendable, Codable, LosslessStringConvertible {
    // The 128 bits, most significant first: `high` holds the time and 16 hash bits.
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The id of 16 bytes (its binary form, as a `BINARY(16)` column or a UUID holds it).
    public init(bytes: some Collection<UInt8>) throws {
        guard bytes.count == 16 else {
            throw SamekeyError(code: .invalidULID, message: "a ULID is 16 bytes, not \(bytes.count)")
        }
        var high: UInt64 = 0, low: UInt64 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { high = high << 8 | UInt64(b) } else { low = low << 8 | UInt64(b) }
        }
        self.init(high: high, low: low)
    }

    /// The id of a UUID's 128 bits.
    public init(uuid: UUID) {
        let u = uuid.uuid
        try! self.init(bytes: [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }

    /// Parses ULID text, in either case; ``ErrorCode/invalidULID`` otherwise.
    public init(parsing text: String) throws {
        var bytes = (UInt64(0), UInt64(0))
        try withText(text) { p, n in
            try withUnsafeMutableBytes(of: &bytes) { out in
                try check { samekey_ulid_parse(p, n, out.baseAddress!.assumingMemoryBound(to: UInt8.self), $0) }
            }
        }
        self.init(high: UInt64(bigEndian: bytes.0), low: UInt64(bigEndian: bytes.1))
    }

    /// Parses ULID text; nil where ``init(parsing:)`` throws.
    public init?(_ description: String) {
        guard let id = try? Ulid(parsing: description) else { return nil }
        self = id
    }

    /// Its 16 bytes, most significant first.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
    }

    /// The same 128 bits as a UUID (Foundation writes its text in uppercase; samekey's
    /// other languages write the same text in lowercase).
    public var uuid: UUID {
        let b = bytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    /// The timestamp: milliseconds since the Unix epoch, from the first 48 bits.
    public var timestampMs: Int64 { Int64(high >> 16) }

    /// The timestamp as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(timestampMs) / 1000) }

    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The 26-character text (Crockford base32, uppercase).
    public var description: String {
        String(unsafeUninitializedCapacity: 26) { out in
            for i in 0..<26 {
                // 26 digits of 5 bits cover 130 bits: the first digit holds the top 3.
                let shift = 125 - 5 * i
                let digit: UInt64
                if shift >= 64 {
                    digit = high >> UInt64(shift - 64)
                } else if shift == 0 {
                    digit = low
                } else {
                    digit = low >> UInt64(shift) | high << UInt64(64 - shift)
                }
                out[i] = Ulid.alphabet[Int(digit & 31)]
            }
            return 26
        }
    }

    public static func < (a: Ulid, b: Ulid) -> Bool {
        (a.high, a.low) < (b.high, b.low)
    }

    public init(from decoder: Decoder) throws { self = try decodeText(decoder, Ulid.init(parsing:)) }
    public func encode(to encoder: Encoder) throws { try encodeText(description, encoder) }
}
