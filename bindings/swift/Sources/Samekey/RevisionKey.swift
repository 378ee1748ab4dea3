import Foundation
import SamekeyFFI

/// The key of an immutable revision: `rev:<scheme>:H(parent, H(data))` (spec §7). The
/// same data on the same parent is the same key, so a retried or concurrent registration
/// creates nothing new.
///
/// ```swift
/// let data = try ContentHash(json: #"{"rows": 3}"#)
/// let key = try RevisionKey(content: data)                  // a first revision
/// let next = try RevisionKey(content: data, parent: key)    // its child
/// ```
public struct RevisionKey: Hashable, Sendable, Codable, LosslessStringConvertible {
    /// The key's text, as stored.
    public let description: String

    init(checked text: String) { description = text }

    /// Checks a stored key's text (``ErrorCode/invalidKey`` when it is no revision key).
    public init(parsing text: String) throws {
        description = try canonicalKey(text, kind: "revision")
    }

    public init?(_ description: String) {
        guard let key = try? RevisionKey(parsing: description) else { return nil }
        self = key
    }

    /// The key of content on `parent` (none: a first revision), under the content hash's
    /// own scheme or `scheme`, keyed with `secret` when given.
    public init(content: ContentHash, parent: RevisionKey? = nil, scheme: Scheme? = nil, secret: Data? = nil) throws {
        try self.init(contentHash: content.description, parent: parent?.description, scheme: scheme, secret: secret)
    }

    /// ``init(content:parent:scheme:secret:)`` from texts, each checked by the core.
    public init(contentHash: String, parent: String?, scheme: Scheme? = nil, secret: Data? = nil) throws {
        let secretBytes = secret.map { [UInt8]($0) }
        description = try withOptionalText(scheme?.rawValue) { sp, sn, hasScheme in
            try withText(contentHash) { hp, hn in
                try withOptionalText(parent) { pp, pn, hasParent in
                    try withOptionalBytes(secretBytes) { kp, kn, hasSecret in
                        try textOut(capacity: keyCapacity) { out in
                            try check {
                                samekey_revision_key(sp, sn, hasScheme, hp, hn, pp, pn, hasParent, kp, kn, hasSecret, out, $0)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The exact bytes hashed for a revision key (spec §7), to explain a mismatch.
    public static func message(contentHash: String, parent: String?, scheme: Scheme? = nil) throws -> Data {
        var pointer: UnsafeMutablePointer<UInt8>?
        var count = 0
        try withOptionalText(scheme?.rawValue) { sp, sn, hasScheme in
            try withText(contentHash) { hp, hn in
                try withOptionalText(parent) { pp, pn, hasParent in
                    try check { samekey_revision_message(sp, sn, hasScheme, hp, hn, pp, pn, hasParent, &pointer, &count, $0) }
                }
            }
        }
        return Data(takenBytes(pointer, count))
    }

    public init(from decoder: Decoder) throws { self = try decodeText(decoder, RevisionKey.init(parsing:)) }
    public func encode(to encoder: Encoder) throws { try encodeText(description, encoder) }
}

/// The version of the linked core, e.g. "0.2.0".
public var version: String { String(cString: samekey_version()) }

/// The linked core's error codes, comma-separated in its order (for the tests).
func samekeyErrorCodes() -> UnsafePointer<CChar> { samekey_error_codes() }
