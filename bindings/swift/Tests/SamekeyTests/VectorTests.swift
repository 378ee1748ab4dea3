// Every shared vector through the public API (SAMEKEY_VECTORS overrides the file), errors
// included; prints "N passed, M failed". A malformed vector fails alone (spec §10.1): every
// read of the file is checked, nothing is force-cast.
import Foundation
import XCTest
import Samekey

private let defaultVectors = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../../../test-vectors/samekey.json").standardized

/// A vector this runner cannot read: that vector's failure, never the run's end.
private struct Malformed: Error, CustomStringConvertible {
    let description: String
}

private typealias Vector = [String: Any]

private func value<T>(_ v: Vector, _ key: String, as: T.Type = T.self) throws -> T {
    guard let x = v[key] as? T else { throw Malformed(description: "\(key) is not a \(T.self): \(v[key] ?? "missing")") }
    return x
}

private func isNull(_ v: Vector, _ key: String) -> Bool { v[key] == nil || v[key] is NSNull }

private func unhex(_ s: String) throws -> Data {
    var out = Data(capacity: s.utf8.count / 2)
    let digits = Array(s.utf8)
    guard digits.count % 2 == 0 else { throw Malformed(description: "odd hex \(s)") }
    for i in stride(from: 0, to: digits.count, by: 2) {
        guard let b = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else {
            throw Malformed(description: "not hex: \(s)")
        }
        out.append(b)
    }
    return out
}

private func hex(_ d: Data) -> String { d.map { String(format: "%02x", $0) }.joined() }

/// Text, or `{"utf16": ...}` code units (spec §10.1). A Swift String holds only valid
/// Unicode: the checked conversion fails on a lone surrogate, as the host conversion of
/// spec §2.2 does (`String(decoding:as:)` would repair it to U+FFFD).
private func text(_ t: Any?) throws -> String {
    if let s = t as? String { return s }
    guard let o = t as? [String: Any], let h = o["utf16"] as? String else { throw Malformed(description: "not text: \(t ?? "nil")") }
    let raw = try unhex(h)
    let units = stride(from: 0, to: raw.count - 1, by: 2).map { i in
        UInt16(raw[raw.startIndex + i]) << 8 | UInt16(raw[raw.startIndex + i + 1])
    }
    guard let s = String(validating: units, as: UTF16.self) else {
        throw SamekeyError(code: .invalidString, message: "a lone UTF-16 surrogate is not text")
    }
    return s
}

/// The fields as text when every one is text, else as bytes (a `{"hex": ...}` field).
private enum Fields {
    case text([String])
    case bytes([Data])

    var bytes: [Data] {
        switch self {
        case .text(let t): return t.map { Data($0.utf8) }
        case .bytes(let b): return b
        }
    }
}

private func fields(_ v: Vector) throws -> Fields {
    let list: [Any] = try value(v, "fields")
    var texts: [String] = [], bytes: [Data] = [], allText = true
    for f in list {
        if let o = f as? [String: Any], let h = o["hex"] as? String {
            allText = false
            bytes.append(try unhex(h))
        } else {
            let t = try text(f)
            texts.append(t)
            bytes.append(Data(t.utf8))
        }
    }
    return allText ? .text(texts) : .bytes(bytes)
}

private func parent(_ v: Vector) throws -> String? { isNull(v, "parent") ? nil : try text(v["parent"]) }

private func secret(_ v: Vector) throws -> Data? { isNull(v, "secret_hex") ? nil : try unhex(try value(v, "secret_hex")) }

/// A vector's time as the Swift API takes it, an Int64. A fraction of a millisecond (spec
/// §10.1) has no Int64 and the API takes no floating-point milliseconds, so it fails here
/// with the code of that host conversion (spec §8.2). Beyond Int64, the bound of the same
/// sign, out of range as the value is (spec §10.1). Foundation parses a non-integer into a
/// decimal number whose `doubleValue` is not correctly rounded (4503599627370495.5 became
/// 2^52, an integer): such a number is read as its Decimal, which holds it exactly.
private func millis(_ v: Vector) throws -> Int64 {
    let n: NSNumber = try value(v, "timestamp_ms")
    if let d = n as? NSDecimalNumber { return try millis(decimal: d.decimalValue) }
    switch String(cString: n.objCType) {
    case "d", "f":
        let t = n.doubleValue
        if t != t.rounded(.towardZero) { throw notMillis("\(t)") }
        if t >= 9_223_372_036_854_775_807.0 { return Int64.max }
        if t <= -9_223_372_036_854_775_808.0 { return Int64.min }
        return Int64(t)
    case "Q":
        return n.uint64Value > UInt64(Int64.max) ? Int64.max : Int64(n.uint64Value)
    default:
        return n.int64Value
    }
}

private func millis(decimal: Decimal) throws -> Int64 {
    var t = decimal
    var whole = Decimal()
    NSDecimalRound(&whole, &t, 0, .down)
    if whole != t { throw notMillis("\(t)") }
    if t >= Decimal(Int64.max) { return Int64.max }
    if t <= Decimal(Int64.min) { return Int64.min }
    return NSDecimalNumber(decimal: t).int64Value
}

private func notMillis(_ t: String) -> Error {
    SamekeyError(code: .invalidTimestamp, message: "\(t) is not an integer number of milliseconds")
}

/// Every name converted, then the ring made (spec §9.1).
private func ring(_ v: Vector) throws -> KeyRing {
    let names: [Any] = try value(v, "accepted")
    return try KeyRing(accept: try names.map { Scheme(try text($0)) })
}

private func uuidText(_ id: Ulid) -> String { id.uuid.uuidString.lowercased() }

/// Runs a vector through the public API. Every string input is converted first (spec
/// §2.2: before the time and every check); where the API has two paths (text or byte
/// fields, one call or a prepared deriver, bytes or a stream), both must agree.
private func runVector(_ v: Vector) throws -> [String: AnyHashable] {
    let str = { (k: String) throws in try text(v[k]) }
    let op: String = try value(v, "op")
    switch op {
    case "ulid":
        let (scheme, ns, fs) = (Scheme(try str("scheme")), try str("namespace"), try fields(v))
        let (t, key) = (try millis(v), try secret(v))
        let id = try Ulid(deriving: fs.bytes, milliseconds: t, namespace: ns, scheme: scheme, secret: key)
        if case .text(let texts) = fs {
            let byText = try Ulid(deriving: texts, milliseconds: t, namespace: ns, scheme: scheme, secret: key)
            let prepared = try UlidDeriver(namespace: ns, scheme: scheme, secret: key).derive(texts, milliseconds: t)
            guard byText == id, prepared == id else { throw Malformed(description: "text \(byText), prepared \(prepared), bytes \(id)") }
        }
        let m = try Ulid.message(bytes: fs.bytes, namespace: ns, scheme: scheme)
        return ["ulid": id.description, "uuid": uuidText(id), "message_hex": hex(m)]
    case "content":
        let (scheme, data) = (Scheme(try str("scheme")), try unhex(try value(v, "data_hex")))
        let hash = try ContentHash(of: data, scheme: scheme)
        let hasher = try ContentHasher(scheme: scheme)
        for start in stride(from: 0, to: data.count, by: 7) {
            try hasher.update(data.subdata(in: start..<min(start + 7, data.count)))
        }
        guard try hasher.finalize() == hash else { throw Malformed(description: "the streamed hash differs") }
        return ["hash": hash.description]
    case "content_json":
        // The hash first: it checks the scheme before the text (spec §6.1).
        let (scheme, json) = (Scheme(try str("scheme")), try str("json"))
        let hash = try ContentHash(json: json, scheme: scheme)
        return ["canonical": try canonicalJSON(json), "hash": hash.description]
    case "revision":
        let scheme = isNull(v, "scheme") ? nil : Scheme(try str("scheme"))
        let (p, hash) = (try parent(v), try str("content_hash"))
        let key = try RevisionKey(contentHash: hash, parent: p, scheme: scheme, secret: try secret(v))
        let m = try RevisionKey.message(contentHash: hash, parent: p, scheme: scheme)
        return ["key": key.description, "message_hex": hex(m)]
    case "timestamp":
        return ["timestamp_ms": try milliseconds(rfc3339: str("rfc3339"))]
    case "ulid_parse":
        let u = try Ulid(parsing: str("text"))
        return ["ulid": u.description, "uuid": uuidText(u), "timestamp_ms": u.timestampMs]
    case "key_parse":
        // A ring is checked when it is made, before it parses anything (spec §9.1).
        let r = v["accepted"] != nil ? try ring(v) : nil
        let keyText = try str("text")
        let k = try ParsedKey(parsing: keyText)
        let scheme = try r?.scheme(ofKey: keyText) ?? k.scheme
        return ["kind": k.kind, "scheme": scheme.rawValue, "canonical": k.canonical]
    case "verify":
        let r = try ring(v)
        let (idText, ns, fs) = (try str("ulid"), try str("namespace"), try fields(v))
        let t = try millis(v)
        let id = try Ulid(parsing: idText)
        let scheme = try r.verify(id, bytes: fs.bytes, milliseconds: t, namespace: ns, secret: try secret(v))
        return ["scheme": scheme.rawValue]
    case "candidates":
        let r = try ring(v)
        let (ns, fs) = (try str("namespace"), try fields(v))
        let found = try r.candidates(bytes: fs.bytes, milliseconds: try millis(v), namespace: ns, secret: try secret(v))
        let list: [AnyHashable] = found.map { ["scheme": $0.scheme.rawValue, "ulid": $0.id.description] as [String: AnyHashable] }
        return ["candidates": list]
    case "ring_revision":
        let r = try ring(v)
        let (p, hash) = (try parent(v), try str("content_hash"))
        return ["key": try r.revisionKey(contentHash: hash, parent: p, secret: try secret(v)).description]
    case "needs_write":
        let stored = isNull(v, "stored") ? nil : try str("stored")
        return ["needs_write": try needsWrite(stored: stored, incoming: try str("incoming"))]
    default:
        throw Malformed(description: "unknown op \(op)")
    }
}

/// The expectation as Swift values (numbers as Int64), comparable with runVector's.
private func expected(_ v: Vector) throws -> [String: AnyHashable] {
    let o: [String: Any] = try value(v, "expect")
    // The one boolean output is needs_write's (spec §10.1); Foundation's JSON numbers
    // and booleans are both NSNumber.
    return try Dictionary(uniqueKeysWithValues: o.map { k, x in
        guard k == "needs_write" else { return (k, try plain(x)) }
        guard let b = x as? NSNumber else { throw Malformed(description: "needs_write is \(x)") }
        return (k, AnyHashable(b.boolValue))
    })
}

private func plain(_ x: Any) throws -> AnyHashable {
    if let s = x as? String { return s }
    if let list = x as? [Any] { return try list.map(plain) as [AnyHashable] }
    if let object = x as? [String: Any] { return try object.mapValues(plain) as [String: AnyHashable] }
    guard let n = x as? NSNumber else { throw Malformed(description: "unexpected \(x)") }
    return n.int64Value
}

final class VectorTests: XCTestCase {
    func testEveryVector() throws {
        let override = ProcessInfo.processInfo.environment["SAMEKEY_VECTORS"] ?? ""
        let path = override.isEmpty ? defaultVectors : URL(fileURLWithPath: override)
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        XCTAssertEqual(doc["schema"] as? String, "samekey-test-vectors/1")
        let vectors = try XCTUnwrap(doc["vectors"] as? [Vector])
        XCTAssertFalse(vectors.isEmpty)
        var passed = 0, failed = 0
        var ids = Set<String>()
        for v in vectors {
            let id = v["id"] as? String ?? "(a vector without an id)"
            XCTAssertTrue(ids.insert(id).inserted, "duplicate vector id \(id)")
            let got: [String: AnyHashable]
            let want: [String: AnyHashable]
            do {
                want = try expected(v)
                do {
                    got = try runVector(v)
                } catch let error as SamekeyError {
                    got = ["error": error.code.rawValue]
                }
            } catch {
                // A malformed vector, or anything else: this vector fails alone.
                failed += 1
                XCTFail("\(id): \(error)")
                continue
            }
            if got == want { passed += 1 } else {
                failed += 1
                XCTFail("\(id): expected \(want), got \(got)")
            }
        }
        print("swift vectors (\(path.path)): \(passed) passed, \(failed) failed")
    }

    /// A malformed vector is reported as that vector's failure, and the run goes on.
    func testAMalformedVectorFailsAlone() throws {
        XCTAssertThrowsError(try runVector(["op": "ulid", "scheme": 1])) { XCTAssertTrue($0 is Malformed, "\($0)") }
        XCTAssertThrowsError(try runVector(["op": "no such op"])) { XCTAssertTrue($0 is Malformed, "\($0)") }
        XCTAssertThrowsError(try expected(["expect": "not an object"])) { XCTAssertTrue($0 is Malformed, "\($0)") }
    }
}
