// The API as the README shows it, and what the vectors cannot show: the Date rule,
// Codable, ordering, one deriver shared by many tasks, the batch, errors, the version.
import Foundation
import XCTest
@testable import Samekey

final class ApiTests: XCTestCase {
    let published = Date(timeIntervalSince1970: 1_714_564_800)  // 2024-05-01T12:00:00Z

    func testOneCallAPreparedDeriverAndAKeyRingAgree() throws {
        let id = try Ulid(deriving: "hello-world", "en", at: published, namespace: "posts")
        let posts = try UlidDeriver(namespace: "posts")
        XCTAssertEqual(try posts.derive("hello-world", "en", at: published), id)
        XCTAssertEqual(try posts.derive(bytes: [Data("hello-world".utf8), Data("en".utf8)], at: published), id)
        XCTAssertEqual(try KeyRing(.v1).derive("hello-world", "en", at: published, namespace: "posts"), id)
        XCTAssertEqual(id.timestampMs, 1_714_564_800_000)
        XCTAssertEqual(id.date, published)
        XCTAssertNotEqual(try posts.derive("hello-world", "fr", at: published), id)
    }

    /// A Date's sub-millisecond part is floored; Double's error around a whole millisecond
    /// is not (spec §4.4 takes whole milliseconds).
    func testADateIsFlooredToTheMillisecond() throws {
        XCTAssertEqual(milliseconds(of: Date(timeIntervalSince1970: 1.123)), 1123)
        XCTAssertEqual(milliseconds(of: Date(timeIntervalSince1970: 1_714_564_800.123)), 1_714_564_800_123)
        XCTAssertEqual(milliseconds(of: Date(timeIntervalSince1970: 1_714_564_800.1239)), 1_714_564_800_123)
        XCTAssertEqual(milliseconds(of: Date(timeIntervalSince1970: 0.0005)), 0)
        XCTAssertEqual(milliseconds(of: Date(timeIntervalSince1970: -0.0005)), -1)
        for ms: Int64 in [0, 1, 999, 1_714_564_800_001, 1_714_564_800_999, 253_402_300_799_999] {
            XCTAssertEqual(milliseconds(of: Date(timeIntervalSince1970: Double(ms) / 1000)), ms, "\(ms)")
        }
        let posts = try UlidDeriver(namespace: "posts")
        XCTAssertEqual(try posts.derive("a", at: Date(timeIntervalSince1970: 1_714_564_800.1239)),
                       try posts.derive(["a"], milliseconds: 1_714_564_800_123))
        XCTAssertThrowsError(try posts.derive("a", at: .distantPast)) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .timestampOutOfRange)
        }
    }

    func testTextBytesUUIDAndCodableRoundTrip() throws {
        let id = try Ulid(deriving: "hello-world", "en", at: published, namespace: "posts")
        XCTAssertEqual(try Ulid(parsing: id.description), id)
        XCTAssertEqual(try Ulid(parsing: id.description.lowercased()), id)
        XCTAssertEqual(Ulid(id.description), id)
        XCTAssertNil(Ulid("8ZZZZZZZZZZZZZZZZZZZZZZZZZ"))
        XCTAssertEqual(try Ulid(bytes: id.bytes), id)
        XCTAssertEqual(Ulid(uuid: id.uuid), id)
        struct Post: Codable, Equatable { let id: Ulid; let hash: ContentHash }
        let post = Post(id: id, hash: try ContentHash(json: "{}"))
        let json = try JSONEncoder().encode(post)
        XCTAssertTrue(String(decoding: json, as: UTF8.self).contains("\"\(id)\""))
        XCTAssertEqual(try JSONDecoder().decode(Post.self, from: json), post)
        XCTAssertThrowsError(try JSONDecoder().decode(Post.self, from: Data(#"{"id":"nope","hash":"x"}"#.utf8))) {
            guard case DecodingError.dataCorrupted = $0 else { return XCTFail("\($0)") }
        }
    }

    /// ULID order: time first, then the hash bits; the order of the text and of the bytes.
    func testOrderIsTheTextsOrder() throws {
        let posts = try UlidDeriver(namespace: "posts")
        var ids: [Ulid] = []
        for i in 0..<200 {
            ids.append(try posts.derive(["post-\(i)"], milliseconds: 1_714_564_800_000 + Int64(i % 7)))
        }
        XCTAssertEqual(ids.sorted().map(\.description), ids.map(\.description).sorted())
        XCTAssertEqual(ids.sorted().map(\.bytes), ids.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) })
        XCTAssertEqual(Set(ids).count, 200)
    }

    /// One deriver, many tasks at once: it is immutable, so every task gets the id a
    /// deriver of its own would give.
    func testOneDeriverServesManyTasksAtOnce() async throws {
        let posts = try UlidDeriver(namespace: "posts", scheme: .v2)
        let want = try (0..<64).map { try UlidDeriver(namespace: "posts", scheme: .v2).derive(["post-\($0)", "en"], at: published) }
        let got = try await withThrowingTaskGroup(of: (Int, Ulid).self) { group in
            for round in 0..<8 {
                for i in 0..<64 {
                    group.addTask { (i, try posts.derive(["post-\(i)", "en"], at: self.published)) }
                }
                _ = round
            }
            var seen: [(Int, Ulid)] = []
            for try await result in group { seen.append(result) }
            return seen
        }
        XCTAssertEqual(got.count, 512)
        for (i, id) in got { XCTAssertEqual(id, want[i]) }
    }

    func testABatchIsTheSingleIdsInOrder() throws {
        let posts = try UlidDeriver(namespace: "posts")
        for count in [0, 1, 3, parallelMinRows + 5] {
            let rows = (0..<count).map { ["post-\($0)", $0 % 2 == 0 ? "en" : "fr"] }
            let times = (0..<count).map { 1_714_564_800_000 + Int64($0) }
            var ids = [try Ulid(parsing: "01HWT0D7G0NXVJZMMA9TW58EBH")]
            try posts.derive(rows: rows, milliseconds: times, into: &ids)
            XCTAssertEqual(ids, try zip(rows, times).map { try posts.derive($0, milliseconds: $1) }, "\(count) rows")
            var byColumns: [Ulid] = []
            try posts.derive(columns: [rows.map { $0[0] }, rows.map { $0[1] }], milliseconds: times, into: &byColumns)
            XCTAssertEqual(byColumns, ids, "\(count) rows as columns")
        }
        var none: [Ulid] = []
        XCTAssertThrowsError(try posts.derive(columns: [["a"], ["b", "c"]], milliseconds: [0], into: &none)) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .invalidArgument)
        }
        XCTAssertThrowsError(try posts.derive(rows: [["a"], ["b", "c"]], milliseconds: [0, 0])) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .invalidArgument)
        }
        XCTAssertThrowsError(try posts.derive(rows: [["a"]], milliseconds: [])) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .invalidArgument)
        }
    }

    func testABatchOverThreadsIsTheBatchOnOneThread() throws {
        let posts = try UlidDeriver(namespace: "posts")
        // Parts of at least half parallelMinRows: three or more wherever there are cores.
        let count = 3 * parallelMinRows + 7
        let rows = (0..<count).map { [$0 % 3 == 0 ? "post-\($0)-\u{e9}" : "post-\($0)", "en"] }
        var times = (0..<count).map { 1_714_564_800_000 + 13 * Int64($0) }
        let one = try posts.derive(rows: rows, milliseconds: times, maxThreads: 1)
        XCTAssertEqual(one, try zip(rows, times).map { try posts.derive($0, milliseconds: $1) })
        for threads in 0...4 {
            XCTAssertEqual(try posts.derive(rows: rows, milliseconds: times, maxThreads: threads), one, "maxThreads \(threads)")
        }
        // A bad time in the first part and one in the last: the first row's is the error.
        times[10] = -5
        times[count - 5] = -7
        for threads in [0, 1, 3] {
            var ids = one
            XCTAssertThrowsError(try posts.derive(rows: rows, milliseconds: times, into: &ids, maxThreads: threads)) {
                XCTAssertEqual(($0 as? SamekeyError)?.code, .timestampOutOfRange)
                XCTAssertTrue("\($0)".contains("-5") && !"\($0)".contains("-7"), "\($0)")
            }
            XCTAssertEqual(ids, [], "maxThreads \(threads)")
        }
        XCTAssertThrowsError(try posts.derive(rows: rows, milliseconds: times, maxThreads: -1)) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .invalidArgument)
        }
    }

    func testErrorsHaveTheirCodeAndText() {
        XCTAssertThrowsError(try UlidDeriver(namespace: "posts", scheme: .v0)) { error in
            guard let e = error as? SamekeyError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.code, .namespaceNotSupported)
            XCTAssertEqual(e.code.rawValue, "namespace_not_supported")
            XCTAssertTrue(e.localizedDescription.hasPrefix("namespace_not_supported: "), e.localizedDescription)
        }
        XCTAssertThrowsError(try UlidDeriver(scheme: "v9")) { XCTAssertEqual(($0 as? SamekeyError)?.code, .unknownScheme) }
        XCTAssertThrowsError(try UlidDeriver(secret: Data())) { XCTAssertEqual(($0 as? SamekeyError)?.code, .emptySecret) }
        XCTAssertThrowsError(try Ulid(deriving: [String](), milliseconds: 0)) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .noFields)
        }
    }

    /// A NUL is text like any other character: it reaches the core (Go's binding once cut
    /// text there).
    func testANulInsideTextIsHashed() throws {
        XCTAssertNotEqual(try Ulid(deriving: "a\u{0}b", at: published), try Ulid(deriving: "a", at: published))
        XCTAssertThrowsError(try UlidDeriver(scheme: "v1\u{0}")) { XCTAssertEqual(($0 as? SamekeyError)?.code, .unknownScheme) }
    }

    func testKeyRingRecognisesTheOldScheme() throws {
        let old = try Ulid(deriving: "hello-world", "en", at: published, namespace: "posts")
        let ring = try KeyRing(.v2, accepting: [.v1])
        XCTAssertEqual(ring.accepted, [.v2, .v1])
        XCTAssertEqual(try ring.verify(old, "hello-world", "en", at: published, namespace: "posts"), .v1)
        XCTAssertThrowsError(try ring.verify(old, "hello-world", "fr", at: published, namespace: "posts")) {
            XCTAssertEqual(($0 as? SamekeyError)?.code, .identityMismatch)
        }
        let found = try ring.candidates("hello-world", "en", at: published, namespace: "posts")
        XCTAssertEqual(found.map(\.scheme), [.v2, .v1])
        XCTAssertEqual(found[1].id, old)
    }

    struct Post: Encodable { let title: String; let views: Int; let score: Double; let published: Date }

    /// An Encodable value hashes as its canonical JSON: key order, spacing and `1.0`
    /// against `1` do not count; non-ASCII text and dates as the encoder writes them.
    func testContentHashOfEncodableIsCanonical() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let post = Post(title: "Grüße, 世界", views: 3, score: 1.0, published: published)
        let hash = try ContentHash(encoding: post, encoder: encoder)
        let text = #"{ "views": 3, "title": "Grüße, 世界", "published": "2024-05-01T12:00:00Z", "score": 1 }"#
        XCTAssertEqual(hash, try ContentHash(json: text))
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        XCTAssertEqual(try ContentHash(encoding: post, encoder: encoder), hash)
        XCTAssertFalse(try needsWrite(stored: hash.description, incoming: hash.description))
        XCTAssertTrue(try needsWrite(stored: nil, incoming: hash.description))
        XCTAssertEqual(try canonicalJSON(text), #"{"published":"2024-05-01T12:00:00Z","score":1,"title":"Grüße, 世界","views":3}"#)
    }

    func testAFileHashesAsItsBytes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("samekey-\(UUID()).bin")
        let data = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try ContentHash(contentsOf: url, scheme: .v2), try ContentHash(of: data, scheme: .v2))
    }

    func testRevisionKeys() throws {
        let data = try ContentHash(json: #"{"rows": 3}"#)
        let first = try RevisionKey(content: data)
        let next = try RevisionKey(content: data, parent: first)
        XCTAssertNotEqual(first, next)
        XCTAssertEqual(try RevisionKey(parsing: first.description), first)
        XCTAssertThrowsError(try RevisionKey(parsing: data.description)) { XCTAssertEqual(($0 as? SamekeyError)?.code, .invalidKey) }
        XCTAssertEqual(try KeyRing(.v1).revisionKey(of: data, parent: first), next)
    }

    func testSecondsAreToldFromMilliseconds() {
        XCTAssertTrue(likelySeconds(1_714_564_800))
        XCTAssertFalse(likelySeconds(1_714_564_800_000))
    }

    /// The generated codes are the linked library's, in its order.
    func testErrorCodesAreTheLibrarysCodes() {
        XCTAssertEqual(ErrorCode.core.map(\.rawValue), String(cString: samekeyErrorCodes()).split(separator: ",").map(String.init))
    }

    func testVersionIsTheWorkspaceVersion() throws {
        let cargo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../Cargo.toml").standardized
        let text = try String(contentsOf: cargo, encoding: .utf8)
        let section = try XCTUnwrap(text.range(of: "[workspace.package]"))
        let line = try XCTUnwrap(text[section.upperBound...].split(separator: "\n").first { $0.hasPrefix("version") })
        XCTAssertEqual("version = \"\(version)\"", String(line))
    }
}
