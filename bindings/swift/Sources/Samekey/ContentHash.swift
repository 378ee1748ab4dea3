import Foundation
import SamekeyFFI

/// The content hash of a document, `"sha256:…"` (v1) or `"blake3:…"` (v2): store it
/// beside the document and skip a write whose hash did not change (`needsWrite(stored:incoming:)`).
///
/// ```swift
/// let hash = try ContentHash(json: #"{"title": "Hello"}"#)   // canonical JSON: spacing and key order do not count
/// ```
public struct ContentHash: Hashable, Sendable, Codable, LosslessStringConvertible {
    /// The hash's text, as stored.
    public let description: String

    init(checked text: String) { description = text }

    /// Checks a stored hash's text (``ErrorCode/invalidKey`` when it is no content hash).
    public init(parsing text: String) throws {
        description = try canonicalKey(text, kind: "content")
    }

    public init?(_ description: String) {
        guard let hash = try? ContentHash(parsing: description) else { return nil }
        self = hash
    }

    /// The hash of bytes.
    public init(of data: Data, scheme: Scheme = .v1) throws {
        description = try withText(scheme.rawValue) { sp, sn in
            try data.withUnsafeBytes { d in
                try textOut(capacity: keyCapacity) { out in
                    try check {
                        samekey_content_hash(sp, sn, d.baseAddress?.assumingMemoryBound(to: UInt8.self), d.count, out, $0)
                    }
                }
            }
        }
    }

    /// The hash of JSON text's canonical form (RFC 8785): the same for the same document
    /// however it is spaced or its keys ordered.
    public init(json text: String, scheme: Scheme = .v1) throws {
        description = try ContentHash.ofJSON(text, scheme: scheme, fromDoubles: false)
    }

    /// The hash of a value's JSON from `JSONEncoder`, canonicalised. The encoder's output
    /// is read as JSON text: its numbers are JSON numbers (a `Double` is written in its
    /// shortest round-trip form, which canonical JSON keeps), its dates whatever its
    /// `dateEncodingStrategy` writes (ISO 8601 text is the portable choice), its keys in
    /// any order (canonical JSON sorts them).
    public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONEncoder(), scheme: Scheme = .v1) throws {
        let data = try encoder.encode(value)
        description = try ContentHash.ofJSON(String(decoding: data, as: UTF8.self), scheme: scheme, fromDoubles: false)
    }

    /// The hash of a file's bytes, read in pieces: never loaded whole.
    public init(contentsOf url: URL, scheme: Scheme = .v1) throws {
        let hasher = try ContentHasher(scheme: scheme)
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            try hasher.update(chunk)
        }
        self = try hasher.finalize()
    }

    static func ofJSON(_ text: String, scheme: Scheme, fromDoubles: Bool) throws -> String {
        try withText(scheme.rawValue) { sp, sn in
            try withText(text) { jp, jn in
                try textOut(capacity: keyCapacity) { out in
                    try check { samekey_content_hash_json(sp, sn, jp, jn, fromDoubles, out, $0) }
                }
            }
        }
    }

    public init(from decoder: Decoder) throws { self = try decodeText(decoder, ContentHash.init(parsing:)) }
    public func encode(to encoder: Encoder) throws { try encodeText(description, encoder) }
}

/// The canonical form (RFC 8785) of JSON text, as samekey hashes it.
public func canonicalJSON(_ text: String) throws -> String {
    var result: UnsafeMutablePointer<CChar>?
    try withText(text) { p, n in try check { samekey_canonical_json(p, n, false, &result, $0) } }
    return taken(result)
}

/// A content hash of data that arrives in pieces (a stream, a file): feed it, then
/// ``finalize()`` (as often as wanted: each gives the hash of everything so far). One
/// hasher is for one thread at a time.
public final class ContentHasher {
    private let handle: OpaquePointer

    public init(scheme: Scheme = .v1) throws {
        var handle: OpaquePointer?
        try withText(scheme.rawValue) { p, n in try check { samekey_hasher_new(p, n, &handle, $0) } }
        self.handle = handle!
    }

    deinit { samekey_hasher_free(handle) }

    /// Adds bytes.
    public func update(_ data: Data) throws {
        try data.withUnsafeBytes { d in
            try check { samekey_hasher_update(handle, d.baseAddress?.assumingMemoryBound(to: UInt8.self), d.count, $0) }
        }
    }

    /// The hash of every byte added so far.
    public func finalize() throws -> ContentHash {
        ContentHash(checked: try textOut(capacity: keyCapacity) { out in
            try check { samekey_hasher_finalize(handle, out, $0) }
        })
    }
}

/// Whether `incoming` must be written over what is stored: false only when the stored
/// hash is the same hash (spec §9.3); nothing stored (`nil`) needs a write. A malformed
/// hash on either side is ``ErrorCode/invalidKey``, never "changed".
public func needsWrite(stored: String?, incoming: String) throws -> Bool {
    var result = false
    try withOptionalText(stored) { sp, sn, has in
        try withText(incoming) { ip, inn in try check { samekey_needs_write(sp, sn, has, ip, inn, &result, $0) } }
    }
    return result
}

/// `needsWrite(stored:incoming:)` of parsed hashes.
public func needsWrite(stored: ContentHash?, incoming: ContentHash) throws -> Bool {
    try needsWrite(stored: stored?.description, incoming: incoming.description)
}

/// A content hash or revision key read apart: its kind (`"content"` or `"revision"`), its
/// scheme, and its canonical text (the hex in lowercase).
public struct ParsedKey: Hashable, Sendable {
    public let kind: String
    public let scheme: Scheme
    public let canonical: String

    public init(parsing text: String) throws {
        // Into buffers of ours: one C call, no string of the library's to split and free.
        var parts = ("", "", "")
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: 9 + schemeCapacity + keyCapacity) { buffer in
            buffer.initialize(repeating: 0)
            let kind = buffer.baseAddress!, scheme = kind + 9, canonical = scheme + schemeCapacity
            try withText(text) { p, n in try check { samekey_parse_key_into(p, n, kind, scheme, canonical, $0) } }
            parts = (String(cString: kind), String(cString: scheme), String(cString: canonical))
        }
        (kind, scheme, canonical) = (parts.0, Scheme(parts.1), parts.2)
    }
}

/// The canonical text of a content hash or revision key of `kind` ("content" or
/// "revision"); ``ErrorCode/invalidKey`` for the other kind or no key at all.
func canonicalKey(_ text: String, kind: String) throws -> String {
    let key = try ParsedKey(parsing: text)
    guard key.kind == kind else {
        throw SamekeyError(code: .invalidKey, message: "\(text.debugDescription) is a \(key.kind) key, not a \(kind) key")
    }
    return key.canonical
}

/// A value `Codable` as its text: decoded through `parse`, whose refusal is the decoder's
/// `dataCorrupted` error with samekey's code and message.
func decodeText<T>(_ decoder: Decoder, _ parse: (String) throws -> T) throws -> T {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    do { return try parse(text) } catch let error as SamekeyError {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
    }
}

func encodeText(_ text: String, _ encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(text)
}
