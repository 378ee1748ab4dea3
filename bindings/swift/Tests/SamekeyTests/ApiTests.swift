// The API as the README shows it: a typed error code, the key ring, the write guard.
import Foundation
import XCTest
import Samekey

final class ApiTests: XCTestCase {
    func testTypedCodeMatchesItsText() {
        XCTAssertThrowsError(try parseUlid(text: "8ZZZZZZZZZZZZZZZZZZZZZZZZZ")) { error in
            guard case let SamekeyError.Failure(code, codeText, detail) = error else {
                return XCTFail("not a SamekeyError: \(error)")
            }
            XCTAssertEqual(code, .invalidUlid)
            XCTAssertEqual(codeText, "invalid_ulid")
            XCTAssertFalse(detail.isEmpty)
        }
    }

    func testSameInputSameIdAndRoundTrip() throws {
        let publishedAt = try parseRfc3339(text: "2024-05-01T12:00:00Z")
        let fields = [Data("hello-world".utf8), Data("en".utf8)]
        let a = try deriveUlid(schemeName: "v1", timestampMs: publishedAt, namespace: "posts", fields: fields, secret: nil)
        let b = try deriveUlid(schemeName: "v1", timestampMs: publishedAt, namespace: "posts", fields: fields, secret: nil)
        XCTAssertEqual(a, b)
        XCTAssertEqual(try parseUlid(text: a.ulid), a)
        XCTAssertEqual(a.timestampMs, publishedAt)
        let other = try deriveUlid(schemeName: "v1", timestampMs: publishedAt, namespace: "posts",
                                   fields: [Data("hello-world".utf8), Data("fr".utf8)], secret: nil)
        XCTAssertNotEqual(a.ulid, other.ulid)
    }

    func testKeyRingRecognisesTheOldScheme() throws {
        let fields = [Data("hello-world".utf8), Data("en".utf8)]
        let old = try deriveUlid(schemeName: "v1", timestampMs: 1_714_564_800_000, namespace: "posts", fields: fields, secret: nil)
        let ring = try KeyRing(primary: "v2", accepted: ["v1"])
        XCTAssertEqual(ring.accepted(), ["v2", "v1"])
        XCTAssertEqual(try ring.verifyUlid(ulid: old.ulid, timestampMs: 1_714_564_800_000, namespace: "posts", fields: fields, secret: nil), "v1")
        XCTAssertNotEqual(try ring.deriveUlid(timestampMs: 1_714_564_800_000, namespace: "posts", fields: fields, secret: nil).ulid, old.ulid)
    }

    func testNeedsWriteSkipsUnchangedContent() throws {
        let hash = try contentHashJsonText(schemeName: "v1", json: #"{"b":1,"a":"x"}"#)
        XCTAssertEqual(hash, try contentHashJsonText(schemeName: "v1", json: #"{"a":"x","b":1.0}"#))
        XCTAssertFalse(try needsWrite(stored: hash, incoming: hash))
        XCTAssertTrue(try needsWrite(stored: nil, incoming: hash))
    }

    func testSecondsAreToldFromMilliseconds() {
        // A Unix time in seconds (2024-05-01) given where milliseconds go: a valid id of
        // January 1970 that no call refuses, so the check is one to opt into.
        XCTAssertTrue(likelySeconds(timestampMs: 1_714_564_800))
        XCTAssertFalse(likelySeconds(timestampMs: 1_714_564_800_000))
        XCTAssertFalse(likelySeconds(timestampMs: -1_714_564_800))
    }

    func testVersionIsTheWorkspaceVersion() throws {
        let cargo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../Cargo.toml").standardized
        let text = try String(contentsOf: cargo, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "[workspace.package]"))
        let line = try XCTUnwrap(text[section.upperBound...].split(separator: "\n").first { $0.hasPrefix("version") })
        XCTAssertEqual("version = \"\(version())\"", String(line))
    }
}
