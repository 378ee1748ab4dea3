import SamekeyFFI

/// A key scheme: the algorithm a key or id was derived under (`v1`: SHA-256, `v2`: BLAKE3,
/// `v0`: the legacy `sha256(f1:f2)` recipe, for recognising old ids only).
///
/// A struct rather than an enum so that a name read from configuration (`Scheme("v3")`)
/// reaches the core, which refuses an unknown one with ``ErrorCode/unknownScheme`` where the
/// specification says; in code, write `.v1`, `.v2`, `.v0`.
public struct Scheme: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    /// The scheme's name, as keys carry it (`"v1"`).
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ name: String) { self.rawValue = name }
    public init(stringLiteral name: String) { self.rawValue = name }

    /// SHA-256, framed and domain-separated (spec §4): the default.
    public static let v1 = Scheme("v1")
    /// BLAKE3, framed and domain-separated.
    public static let v2 = Scheme("v2")
    /// `sha256(f1 + ":" + f2 ...)`: the common home-made recipe, to recognise its ids.
    public static let v0 = Scheme("v0")

    public var description: String { rawValue }

    /// The wire code of a known name, without a C call; the core's answer otherwise.
    func code() throws -> UInt8 {
        switch rawValue {
        case "v0": return 0
        case "v1": return 1
        case "v2": return 2
        default:
            var code: UInt8 = 0
            try withText(rawValue) { p, n in try check { samekey_scheme_code(p, n, &code, $0) } }
            return code
        }
    }

    /// The scheme of a wire code the core returned.
    init(code: UInt8) {
        self.rawValue = ["v0", "v1", "v2"][Int(code)]
    }

    /// The scheme of a 3-byte C string the core wrote ("v1").
    init(written text: String) {
        self.rawValue = text
    }

    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
