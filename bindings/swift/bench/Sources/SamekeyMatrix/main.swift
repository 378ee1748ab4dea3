// Swift's column of `just bench-matrix` (bench/matrix/protocol.md): every operation through
// the Samekey package's public API, timed the way every runner times.
import Foundation
import Samekey

struct Cases: Decodable {
    let time_ms: Int64
    let namespace: String
    let fields: [String]
    let ulid: String
    let json: String
    let small: String
    let large_bytes: Int
    let rfc3339: String
    let parent: String
    let ring: [String]
}

let c = try JSONDecoder().decode(Cases.self, from: Data(contentsOf: URL(fileURLWithPath: ProcessInfo.processInfo.environment["SAMEKEY_MATRIX_CASES"]!)))
let small = Data(c.small.utf8)
let large = Data((0..<c.large_bytes).map { UInt8(truncatingIfNeeded: $0 &* 131) })
let deriver = try UlidDeriver(namespace: c.namespace)
let ring = try KeyRing(accept: c.ring.map { Scheme(rawValue: $0) })
let stored = try ContentHash(of: small).description
let incoming = try ContentHash(json: c.json).description
let old = try Ulid(deriving: c.fields, milliseconds: c.time_ms, namespace: c.namespace)
let id = try Ulid(parsing: c.ulid)

let ops: [(String, () throws -> Int)] = [
    ("crossing", { likelySeconds(c.time_ms) ? 1 : 0 }),
    ("ulid", { Int(try Ulid(deriving: c.fields, milliseconds: c.time_ms, namespace: c.namespace).timestampMs) }),
    ("ulid_v2", { Int(try Ulid(deriving: c.fields, milliseconds: c.time_ms, namespace: c.namespace, scheme: .v2).timestampMs) }),
    ("ulid_prepared", { Int(try deriver.derive(c.fields, milliseconds: c.time_ms).timestampMs) }),
    ("ulid_parse", { Int(try Ulid(parsing: c.ulid).timestampMs) }),
    ("ulid_text", { id.description.utf8.count }),
    ("ulid_bytes", { id.bytes.count }),
    ("hash_40", { try ContentHash(of: small).description.utf8.count }),
    ("hash_1m", { try ContentHash(of: large).description.utf8.count }),
    ("content_json", { try ContentHash(json: c.json).description.utf8.count }),
    ("canonical_json", { try canonicalJSON(c.json).utf8.count }),
    ("revision_key", { try RevisionKey(contentHash: stored, parent: c.parent).description.utf8.count }),
    ("key_parse", { try ParsedKey(parsing: stored).canonical.utf8.count }),
    ("ring_verify", { try ring.verify(old, c.fields, milliseconds: c.time_ms, namespace: c.namespace).rawValue.utf8.count }),
    ("ring_candidates", { try ring.candidates(c.fields, milliseconds: c.time_ms, namespace: c.namespace).count }),
    ("needs_write", { try needsWrite(stored: stored, incoming: incoming) ? 1 : 0 }),
    ("rfc3339", { Int(try milliseconds(rfc3339: c.rfc3339)) }),
]

var sink = 0
while let line = readLine() {
    let budget = UInt64(line.trimmingCharacters(in: .whitespaces))! * 1_000_000
    var cells: [String] = []
    for (name, op) in ops {
        var n = 1
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { sink &+= try op() }
            let took = DispatchTime.now().uptimeNanoseconds - start
            if took >= budget {
                cells.append(String(format: "\"%@\":%.1f", name, Double(took) / Double(n)))
                break
            }
            n *= 2
        }
    }
    print("{\(cells.joined(separator: ",")),\"sink\":\(sink & 1)}")
    fflush(stdout)
}
