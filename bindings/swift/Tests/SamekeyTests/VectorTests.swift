// Every shared vector through the generated Swift API (SAMEKEY_VECTORS overrides the
// file), errors included; prints "N passed, M failed".
import Foundation
import XCTest
import Samekey

private let defaultVectors = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .appendingPathComponent("../../../../test-vectors/samekey.json").standardized

private func unhex(_ s: String) -> Data {
    var out = Data(capacity: s.utf8.count / 2)
    var it = s.utf8.makeIterator()
    while let hi = it.next(), let lo = it.next() {
        out.append(UInt8(String(bytes: [hi, lo], encoding: .ascii)!, radix: 16)!)
    }
    return out
}

private func hex(_ d: Data) -> String { d.map { String(format: "%02x", $0) }.joined() }

/// Text, or `{"utf16": ...}` code units (spec §10.1). A Swift String holds only valid
/// Unicode: the checked conversion fails on a lone surrogate, as the host conversion of
/// spec §2.2 does (`String(decoding:as:)` would repair it to U+FFFD).
private func text(_ t: Any) throws -> String {
    if let s = t as? String { return s }
    let raw = unhex((t as! [String: Any])["utf16"] as! String)
    let units = stride(from: 0, to: raw.count, by: 2).map { i in
        UInt16(raw[raw.startIndex + i]) << 8 | UInt16(raw[raw.startIndex + i + 1])
    }
    guard let s = String(validating: units, as: UTF16.self) else {
        throw SamekeyError.Failure(code: .invalidString, codeText: "invalid_string",
                                   detail: "a lone UTF-16 surrogate is not text")
    }
    return s
}

private func fields(_ v: [String: Any]) throws -> [Data] {
    try (v["fields"] as! [Any]).map { f in
        if let o = f as? [String: Any], let h = o["hex"] as? String { return unhex(h) }
        return Data(try text(f).utf8)
    }
}

private func parent(_ v: [String: Any]) throws -> String? {
    v["parent"] is NSNull || v["parent"] == nil ? nil : try text(v["parent"]!)
}

private func secret(_ v: [String: Any]) -> Data? { (v["secret_hex"] as? String).map(unhex) }

private func int64(_ x: Any?) -> Int64 { (x as! NSNumber).int64Value }

/// A vector's time as the Swift API takes it, an Int64. A fraction of a millisecond (spec
/// §10.1) has no Int64 and the API takes no floating-point time, so it fails here with the
/// code of that host conversion (spec §8.2).
/// Beyond Int64, the bound of the same sign, out of range as the value is (spec §10.1).
/// Foundation parses a non-integer into a decimal number whose `doubleValue` is not
/// correctly rounded (4503599627370495.5 became 2^52, an integer): such a number is read
/// as its Decimal, which holds it exactly, since the decimal value decides.
private func millis(_ v: [String: Any]) throws -> Int64 {
    let n = v["timestamp_ms"] as! NSNumber
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
    SamekeyError.Failure(code: .invalidTimestamp, codeText: "invalid_timestamp",
                         detail: "\(t) is not an integer number of milliseconds")
}

/// Every name converted, then the ring made (spec §9.1).
private func ring(_ v: [String: Any]) throws -> KeyRing {
    try KeyRing.fromAccept(accept: try (v["accepted"] as! [Any]).map(text))
}

/// Every string input is converted first (spec §2.2: before the time and every check).
private func runVector(_ v: [String: Any]) throws -> [String: AnyHashable] {
    let str = { (k: String) throws in try text(v[k]!) }
    switch v["op"] as! String {
    case "ulid":
        let (scheme, ns, fs) = (try str("scheme"), try text(v["namespace"]!), try fields(v))
        let id = try deriveUlid(schemeName: scheme, timestampMs: millis(v),
                                namespace: ns, fields: fs, secret: secret(v))
        let m = try ulidMessage(schemeName: scheme, namespace: ns, fields: fs)
        return ["ulid": id.ulid, "uuid": id.uuid, "message_hex": hex(m)]
    case "content":
        return ["hash": try contentHash(schemeName: str("scheme"), data: unhex(v["data_hex"] as! String))]
    case "content_json":
        // The hash first: it checks the scheme before the text (spec §6.1).
        let (scheme, json) = (try str("scheme"), try str("json"))
        let hash = try contentHashJsonText(schemeName: scheme, json: json)
        return ["canonical": try canonicalJsonText(json: json), "hash": hash]
    case "revision":
        let (scheme, p, hash) = (try str("scheme"), try parent(v), try str("content_hash"))
        let key = try revisionKey(schemeName: scheme, contentHash: hash, parent: p, secret: secret(v))
        let m = try revisionMessage(schemeName: scheme, contentHash: hash, parent: p)
        return ["key": key, "message_hex": hex(m)]
    case "timestamp":
        return ["timestamp_ms": try parseRfc3339(text: str("rfc3339"))]
    case "ulid_parse":
        let u = try parseUlid(text: str("text"))
        return ["ulid": u.ulid, "uuid": u.uuid, "timestamp_ms": u.timestampMs]
    case "key_parse":
        // A ring is checked when it is made, before it parses anything (spec §9.1).
        let r = v["accepted"] != nil ? try ring(v) : nil
        let k = try parseKey(text: str("text"))
        let scheme = try r?.schemeOfKey(key: str("text")) ?? k.scheme
        return ["kind": k.kind, "scheme": scheme, "canonical": k.canonical]
    case "verify":
        let r = try ring(v)
        let (id, ns, fs) = (try str("ulid"), try text(v["namespace"]!), try fields(v))
        let scheme = try r.verifyUlid(ulid: id, timestampMs: millis(v),
                                      namespace: ns, fields: fs, secret: secret(v))
        return ["scheme": scheme]
    case "candidates":
        let r = try ring(v)
        let (ns, fs) = (try text(v["namespace"]!), try fields(v))
        let found = try r.candidateUlids(timestampMs: millis(v), namespace: ns,
                                         fields: fs, secret: secret(v))
        let list: [AnyHashable] = found.map { ["scheme": $0.scheme, "ulid": $0.ulid.ulid] as [String: AnyHashable] }
        return ["candidates": list]
    case "ring_revision":
        let r = try ring(v)
        let (p, hash) = (try parent(v), try str("content_hash"))
        return ["key": try r.revisionKey(contentHash: hash, parent: p, secret: secret(v))]
    case "needs_write":
        let stored = v["stored"] is NSNull ? nil : try str("stored")
        return ["needs_write": try needsWrite(stored: stored, incoming: try str("incoming"))]
    case let op:
        XCTFail("unknown op \(op)")
        return [:]
    }
}

/// The expectation as Swift values (numbers as Int64), comparable with run()'s.
private func expected(_ o: [String: Any]) -> [String: AnyHashable] {
    // The one boolean output is needs_write's (spec §10.1); Foundation's JSON numbers
    // and booleans are both NSNumber.
    Dictionary(uniqueKeysWithValues: o.map { k, x in
        (k, k == "needs_write" ? AnyHashable((x as! NSNumber).boolValue) : plain(x))
    })
}

private func plain(_ x: Any) -> AnyHashable {
    if let s = x as? String { return s }
    if let list = x as? [Any] { return list.map(plain) as [AnyHashable] }
    if let object = x as? [String: Any] { return object.mapValues(plain) as [String: AnyHashable] }
    return int64(x)
}

final class VectorTests: XCTestCase {
    func testEveryVector() throws {
        let override = ProcessInfo.processInfo.environment["SAMEKEY_VECTORS"] ?? ""
        let path = override.isEmpty ? defaultVectors : URL(fileURLWithPath: override)
        let doc = try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as! [String: Any]
        XCTAssertEqual(doc["schema"] as? String, "samekey-test-vectors/1")
        let vectors = doc["vectors"] as! [[String: Any]]
        XCTAssertFalse(vectors.isEmpty)
        var passed = 0, failed = 0
        var ids = Set<String>()
        for v in vectors {
            let id = v["id"] as! String
            XCTAssertTrue(ids.insert(id).inserted, "duplicate vector id \(id)")
            let got: [String: AnyHashable]
            do {
                got = try runVector(v)
            } catch let SamekeyError.Failure(_, codeText, _) {
                got = ["error": codeText]
            } catch {
                // Anything else fails this vector alone (spec §10.1): the run goes on.
                got = ["exception": "\(error)"]
            }
            let want = expected(v["expect"] as! [String: Any])
            if got == want { passed += 1 } else {
                failed += 1
                XCTFail("\(id): expected \(want), got \(got)")
            }
        }
        print("swift vectors (\(path.path)): \(passed) passed, \(failed) failed")
    }
}
