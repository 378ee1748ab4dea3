import Foundation
import SamekeyFFI

/// The schemes a system derives under and recognises while the key algorithm changes
/// (spec §9): it derives with its ``primary`` scheme and accepts ids and keys of every
/// scheme in ``accepted``.
///
/// ```swift
/// let ring = try KeyRing(.v2, accepting: [.v1])
/// let scheme = try ring.verify(storedId, "hello-world", "en", at: published, namespace: "posts")
/// ```
public struct KeyRing: Hashable, Sendable {
    /// Primary first, then the older schemes, newest first.
    public let accepted: [Scheme]
    let codes: [UInt8]

    /// The scheme new ids and keys are derived under.
    public var primary: Scheme { accepted[0] }

    /// A ring deriving under `primary` and accepting `older` too, checked by the core
    /// (spec §9.1: known schemes, no repeats).
    public init(_ primary: Scheme, accepting older: [Scheme] = []) throws {
        try self.init(accept: [primary] + older)
    }

    /// A ring from an accept list, newest first (as a registry's `--accept` or a
    /// configuration gives it); an empty list is ``ErrorCode/unknownScheme``.
    public init(accept names: [Scheme]) throws {
        var codes = [UInt8](repeating: 0, count: 3)
        var count = 0
        let joined = names.flatMap { Array($0.rawValue.utf8) }
        try joined.withUnsafeBufferPointer { all in
            var list: [SamekeyText] = []
            var at = 0
            for name in names {
                let n = name.rawValue.utf8.count
                list.append(SamekeyText(ptr: n == 0 ? nil : all.baseAddress! + at, len: n))
                at += n
            }
            try check { samekey_prepare_ring(list, list.count, &codes, &count, $0) }
        }
        self.codes = Array(codes.prefix(count))
        self.accepted = self.codes.map(Scheme.init(code:))
    }

    /// The id under the primary scheme.
    public func derive(_ fields: String..., at date: Date, namespace: String = "", secret: Data? = nil) throws -> Ulid {
        let t = milliseconds(of: date)
        return try withPacked(codes: codes.prefix(1), namespace: namespace, secret: secret, fields) { p, n in
            try Ulid(packed: p, count: n, milliseconds: t)
        }
    }

    /// The id of each accepted scheme, primary first: look a document up by all of them
    /// while older ids remain. (`v0` takes no namespace: with one, it is left out.)
    public func candidates(
        _ fields: [String], milliseconds: Int64, namespace: String = "", secret: Data? = nil
    ) throws -> [(scheme: Scheme, id: Ulid)] {
        try candidates(of: fields, milliseconds: milliseconds, namespace: namespace, secret: secret)
    }

    /// ``candidates(_:milliseconds:namespace:secret:)`` of byte fields.
    public func candidates(
        bytes fields: [Data], milliseconds: Int64, namespace: String = "", secret: Data? = nil
    ) throws -> [(scheme: Scheme, id: Ulid)] {
        try candidates(of: fields, milliseconds: milliseconds, namespace: namespace, secret: secret)
    }

    func candidates<F: Collection>(
        of fields: F, milliseconds: Int64, namespace: String, secret: Data?
    ) throws -> [(scheme: Scheme, id: Ulid)] where F.Element: Field {
        var result: UnsafeMutablePointer<CChar>?
        try withPacked(codes: codes, namespace: namespace, secret: secret, fields) { p, n in
            try check { samekey_candidates(p, n, milliseconds, &result, $0) }
        }
        let words = takenWords(result)
        return try stride(from: 0, to: words.count - 1, by: 2).map {
            (Scheme(words[$0]), try Ulid(parsing: words[$0 + 1]))
        }
    }

    /// ``candidates(_:milliseconds:namespace:secret:)`` at a time.
    public func candidates(
        _ fields: String..., at date: Date, namespace: String = "", secret: Data? = nil
    ) throws -> [(scheme: Scheme, id: Ulid)] {
        try candidates(fields, milliseconds: milliseconds(of: date), namespace: namespace, secret: secret)
    }

    /// The accepted scheme that derived `id` from these inputs; ``ErrorCode/identityMismatch``
    /// when none did: the guard before a write that would orphan the stored document.
    public func verify(
        _ id: Ulid, _ fields: [String], milliseconds: Int64, namespace: String = "", secret: Data? = nil
    ) throws -> Scheme {
        try verify(id, of: fields, milliseconds: milliseconds, namespace: namespace, secret: secret)
    }

    /// ``verify(_:_:milliseconds:namespace:secret:)`` of byte fields.
    public func verify(
        _ id: Ulid, bytes fields: [Data], milliseconds: Int64, namespace: String = "", secret: Data? = nil
    ) throws -> Scheme {
        try verify(id, of: fields, milliseconds: milliseconds, namespace: namespace, secret: secret)
    }

    func verify<F: Collection>(
        _ id: Ulid, of fields: F, milliseconds: Int64, namespace: String, secret: Data?
    ) throws -> Scheme where F.Element: Field {
        let bytes = id.bytes
        let name = try textOut(capacity: schemeCapacity) { out in
            try withPacked(codes: codes, namespace: namespace, secret: secret, fields) { p, n in
                try check { samekey_verify(p, n, bytes, milliseconds, out, $0) }
            }
        }
        return Scheme(written: name)
    }

    /// ``verify(_:_:milliseconds:namespace:secret:)`` at a time.
    public func verify(
        _ id: Ulid, _ fields: String..., at date: Date, namespace: String = "", secret: Data? = nil
    ) throws -> Scheme {
        try verify(id, fields, milliseconds: milliseconds(of: date), namespace: namespace, secret: secret)
    }

    /// The scheme of a content hash or revision key, which the ring must accept
    /// (``ErrorCode/schemeNotAccepted`` otherwise).
    public func scheme(ofKey key: String) throws -> Scheme {
        let name = try textOut(capacity: schemeCapacity) { out in
            try withText(key) { p, n in try check { samekey_ring_scheme_of_key(codes, codes.count, p, n, out, $0) } }
        }
        return Scheme(written: name)
    }

    /// The revision key of content under the scheme of its hash, which the ring must accept.
    public func revisionKey(of content: ContentHash, parent: RevisionKey? = nil, secret: Data? = nil) throws -> RevisionKey {
        try revisionKey(contentHash: content.description, parent: parent?.description, secret: secret)
    }

    /// ``revisionKey(of:parent:secret:)`` from texts, each checked by the core.
    public func revisionKey(contentHash: String, parent: String?, secret: Data? = nil) throws -> RevisionKey {
        let secretBytes = secret.map { [UInt8]($0) }
        let text = try textOut(capacity: keyCapacity) { out in
            try withText(contentHash) { hp, hn in
                try withOptionalText(parent) { pp, pn, hasParent in
                    try withOptionalBytes(secretBytes) { kp, kn, hasSecret in
                        try check {
                            samekey_ring_revision_key(codes, codes.count, hp, hn, pp, pn, hasParent, kp, kn, hasSecret, out, $0)
                        }
                    }
                }
            }
        }
        return RevisionKey(checked: text)
    }
}
