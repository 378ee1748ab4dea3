// Per-id cost of the Swift API against the core's own C calls in the same process, rounds
// interleaved (each round times every case once; the table shows medians), release-built.
// Inputs: a 20-byte slug and "en", v1, namespace "posts". Allocations per id are counted
// when count_malloc.so is preloaded (`just swift::bench` does), "-" otherwise.
//
//   SamekeyBench [rounds]      prints "case<TAB>ns per id<TAB>allocations per id" lines
import Foundation
import Samekey
import SamekeyFFI
#if canImport(Glibc)
import Glibc
#endif

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 7 : 7
let ids = 200_000
let slugs = (0..<1024).map { String(format: "post-%015d", $0) }  // 20 bytes each
let times = (0..<1024).map { 1_714_564_800_000 + Int64($0) }
let deriver = try UlidDeriver(namespace: "posts")
var sink = 0

typealias Counter = @convention(c) () -> UInt
// The process's own symbols, the preloaded counter's among them when it is there.
let counter: Counter? = dlsym(dlopen(nil, RTLD_NOW), "samekey_bench_allocations").map { unsafeBitCast($0, to: Counter.self) }

/// The core's own cost of one id: samekey_derive on a request packed once, outside the
/// timing (what a caller of the C ABI pays at least).
let packed: [[UInt8]] = slugs.map { slug in
    var p: [UInt8] = [1, 1, 0, 2, 0, 0, 0]
    for item in [Array("posts".utf8), Array(slug.utf8), Array("en".utf8)] {
        withUnsafeBytes(of: UInt32(item.count).littleEndian) { p.append(contentsOf: $0) }
        p.append(contentsOf: item)
    }
    return p
}

let megabyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131) })
// 10,000 posts, each its own slug (a batch of one slug repeated would have the threads of
// an every-core batch retaining the same strings, a contention real data does not have).
let batchRows = (0..<10_000).map { [String(format: "post-%015d", $0), "en"] }
let batchTimes = (0..<10_000).map { 1_714_564_800_000 + Int64($0) }
let batchColumns = [batchRows.map { $0[0] }, batchRows.map { $0[1] }]
/// The core's own batch: a prepared deriver of the C ABI and rows packed once.
let batchPacked: [UInt8] = batchRows.flatMap { row in
    row.flatMap { field -> [UInt8] in withUnsafeBytes(of: UInt32(field.utf8.count).littleEndian, Array.init) + Array(field.utf8) }
}
let cDeriver: OpaquePointer = {
    var d: OpaquePointer?
    _ = samekey_deriver_new("v1", 2, "posts", 5, nil, 0, false, &d, nil)
    return d!
}()
var batchOut: [Ulid] = []

struct Case {
    let name: String
    let perRound: Int  // ids (or MiB) a round times
    let run: () throws -> Void
}

let cases: [Case] = [
    Case(name: "C ABI: samekey_derive, request packed beforehand", perRound: ids) {
        var out = (UInt64(0), UInt64(0))
        for i in 0..<ids {
            packed[i & 1023].withUnsafeBufferPointer { p in
                withUnsafeMutableBytes(of: &out) { o in
                    _ = samekey_derive(p.baseAddress, p.count, times[i & 1023], o.baseAddress!.assumingMemoryBound(to: UInt8.self), nil)
                }
            }
            sink &+= Int(truncatingIfNeeded: out.1)
        }
    },
    Case(name: "Ulid(deriving:milliseconds:namespace:)", perRound: ids) {
        for i in 0..<ids {
            let id = try Ulid(deriving: [slugs[i & 1023], "en"], milliseconds: times[i & 1023], namespace: "posts")
            sink &+= Int(truncatingIfNeeded: id.timestampMs)
        }
    },
    Case(name: "UlidDeriver.derive (prepared)", perRound: ids) {
        for i in 0..<ids {
            sink &+= Int(truncatingIfNeeded: try deriver.derive([slugs[i & 1023], "en"], milliseconds: times[i & 1023]).timestampMs)
        }
    },
    Case(name: "UlidDeriver.derive, then its text", perRound: ids) {
        for i in 0..<ids {
            sink &+= try deriver.derive([slugs[i & 1023], "en"], milliseconds: times[i & 1023]).description.utf8.count
        }
    },
    Case(name: "C ABI: samekey_deriver_derive_many of 10,000, packed beforehand", perRound: 10_000 * 20) {
        var out = [UInt8](repeating: 0, count: 16 * 10_000)
        for _ in 0..<20 {
            batchPacked.withUnsafeBufferPointer { p in
                batchTimes.withUnsafeBufferPointer { t in
                    _ = samekey_deriver_derive_many(cDeriver, p.baseAddress, p.count, 2, t.baseAddress, 10_000, 1, &out, nil)
                }
            }
            sink &+= Int(out[16 * 9_999])
        }
    },
    Case(name: "UlidDeriver.derive(rows:) of 10,000, one thread", perRound: 10_000 * 20) {
        for _ in 0..<20 {
            try deriver.derive(rows: batchRows, milliseconds: batchTimes, into: &batchOut, maxThreads: 1)
            sink &+= batchOut.count
        }
    },
    Case(name: "UlidDeriver.derive(columns:) of 10,000, one thread", perRound: 10_000 * 20) {
        for _ in 0..<20 {
            try deriver.derive(columns: batchColumns, milliseconds: batchTimes, into: &batchOut, maxThreads: 1)
            sink &+= batchOut.count
        }
    },
    Case(name: "UlidDeriver.derive(rows:) of 10,000, every core", perRound: 10_000 * 20) {
        for _ in 0..<20 {
            try deriver.derive(rows: batchRows, milliseconds: batchTimes, into: &batchOut)
            sink &+= batchOut.count
        }
    },
    Case(name: "C ABI: samekey_content_hash of 1 MiB (per MiB)", perRound: 50) {
        var out = [CChar](repeating: 0, count: 72)
        for _ in 0..<50 {
            megabyte.withUnsafeBytes { d in
                _ = samekey_content_hash("v1", 2, d.baseAddress!.assumingMemoryBound(to: UInt8.self), d.count, &out, nil)
            }
            sink &+= Int(out[10])
        }
    },
    Case(name: "ContentHash(of:) of 1 MiB (per MiB)", perRound: 50) {
        for _ in 0..<50 { sink &+= try ContentHash(of: megabyte).description.utf8.count }
    },
]

var samples = Array(repeating: [Double](), count: cases.count)
var allocations = Array(repeating: "-", count: cases.count)
for c in cases { try c.run() }  // warm up
for round in 0..<rounds {
    for (i, c) in cases.enumerated() {
        let before = counter?() ?? 0
        let start = DispatchTime.now().uptimeNanoseconds
        try c.run()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        if round == 0, let counter { allocations[i] = String(format: "%.2f", Double(counter() - before) / Double(c.perRound)) }
        samples[i].append(elapsed / Double(c.perRound))
    }
}
for (i, c) in cases.enumerated() {
    let sorted = samples[i].sorted()
    print("\(c.name)\t\(String(format: "%.1f", sorted[sorted.count / 2]))\t\(allocations[i])")
}
if sink == 42 { print("") }
