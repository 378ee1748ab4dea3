import Dispatch
import Foundation
import SamekeyFFI

/// Derives ids for one scheme, namespace and secret, checked once. Immutable, so one
/// deriver serves any number of threads and tasks at once (`Sendable`); each id is one
/// call into the core with its inputs packed on the stack: no heap allocation per id.
///
/// ```swift
/// let posts = try UlidDeriver(namespace: "posts")
/// let id = try posts.derive("hello-world", "en", at: published)   // 01HWT0D7G0NXVJZMMA9TW58EBH
/// ```
///
/// Fields are text (`String`: always valid Unicode, so samekey's `invalid_string` cannot
/// happen here; its UTF-8 is hashed) or bytes (`Data`).
public final class UlidDeriver: @unchecked Sendable {
    // @unchecked: the core's deriver behind `handle` is immutable once made, and the C ABI
    // lets any number of threads derive with it at once.

    /// The scheme every id is derived under.
    public let scheme: Scheme
    /// The namespace that separates kinds of thing sharing identity fields ("" for none).
    public let namespace: String
    /// The core's prepared deriver: the settings checked and the tag block hashed once.
    private let handle: OpaquePointer

    /// Checks the settings once: the scheme's name, v0's limits (no namespace, no secret),
    /// a secret's length (an empty one is ``ErrorCode/emptySecret``).
    public init(namespace: String = "", scheme: Scheme = .v1, secret: Data? = nil) throws {
        var handle: OpaquePointer?
        let secretBytes = secret.map { [UInt8]($0) }
        try withText(scheme.rawValue) { sp, sn in
            try withText(namespace) { np, nn in
                try withOptionalBytes(secretBytes) { kp, kn, has in
                    try check { samekey_deriver_new(sp, sn, np, nn, kp, kn, has, &handle, $0) }
                }
            }
        }
        self.scheme = scheme
        self.namespace = namespace
        self.handle = handle!
    }

    deinit { samekey_deriver_free(handle) }

    /// One id of fields packed as items: one C call, no heap allocation.
    @inline(__always)
    func deriveFields<F: Collection>(_ fields: F, milliseconds: Int64) throws -> Ulid where F.Element: Field {
        var size = 0
        for field in fields { size += 4 + field.byteCount }
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(size, 1)) { buffer in
            var out = Writer(buffer)
            for field in fields { out.putItem(field) }
            var raw = (UInt64(0), UInt64(0))
            try withUnsafeMutableBytes(of: &raw) { id in
                try check {
                    samekey_deriver_derive(handle, buffer.baseAddress, size, fields.count, milliseconds,
                                           id.baseAddress!.assumingMemoryBound(to: UInt8.self), $0)
                }
            }
            return Ulid(high: UInt64(bigEndian: raw.0), low: UInt64(bigEndian: raw.1))
        }
    }

    /// The id of text fields at a time (floored to the millisecond: ``milliseconds(of:)``).
    public func derive(_ fields: String..., at date: Date) throws -> Ulid {
        try derive(fields, milliseconds: Samekey.milliseconds(of: date))
    }

    /// The id of text fields at a time.
    public func derive(_ fields: [String], at date: Date) throws -> Ulid {
        try derive(fields, milliseconds: Samekey.milliseconds(of: date))
    }

    /// The id of text fields at milliseconds since the epoch. Seconds passed here give a
    /// valid id of January 1970 that nothing refuses: check numbers from elsewhere with
    /// ``likelySeconds(_:)``.
    public func derive(_ fields: [String], milliseconds: Int64) throws -> Ulid {
        try deriveFields(fields, milliseconds: milliseconds)
    }

    /// The id of byte fields at a time.
    public func derive(bytes fields: [Data], at date: Date) throws -> Ulid {
        try deriveFields(fields, milliseconds: Samekey.milliseconds(of: date))
    }

    /// The id of byte fields at milliseconds since the epoch.
    public func derive(bytes fields: [Data], milliseconds: Int64) throws -> Ulid {
        try deriveFields(fields, milliseconds: milliseconds)
    }

    /// The ids of many rows in one call into the core, in order: every row has the same
    /// number of fields, and `milliseconds` one time per row. Rows of at least
    /// ``parallelMinRows`` are spread over up to `maxThreads` threads (0: one per core; 1
    /// keeps the batch on the calling thread). `ids` is replaced by the result, keeping its
    /// storage when it is large enough; on an error it is left empty.
    public func derive(
        rows: [[String]], milliseconds: [Int64], into ids: inout [Ulid], maxThreads: Int = 0
    ) throws {
        let width = rows.first?.count ?? 0
        for row in rows where row.count != width {
            throw SamekeyError(code: .invalidArgument, message: "every row needs the same number of fields (\(width))")
        }
        try deriveMany(rows: rows.count, width: width, milliseconds: milliseconds, into: &ids, maxThreads: maxThreads,
                       size: { part in
                           var size = 0
                           for row in rows[part] { for field in row { size += 4 + field.utf8.count } }
                           return size
                       },
                       pack: { part, out in
                           for row in rows[part] { for field in row { out.putItem(field) } }
                       })
    }

    /// The ids of rows given as columns, one array per field (`[slugs, langs]`), each with
    /// one field per time: the layout of a table, read without making a row of each.
    public func derive(
        columns: [[String]], milliseconds: [Int64], into ids: inout [Ulid], maxThreads: Int = 0
    ) throws {
        let rows = milliseconds.count
        for column in columns where column.count != rows {
            throw SamekeyError(code: .invalidArgument, message: "a column of \(column.count) fields for \(rows) times")
        }
        try deriveMany(rows: rows, width: columns.count, milliseconds: milliseconds, into: &ids, maxThreads: maxThreads,
                       size: { part in
                           var size = 0
                           for column in columns { for field in column[part] { size += 4 + field.utf8.count } }
                           return size
                       },
                       pack: { part, out in
                           for row in part { for column in columns { out.putItem(column[row]) } }
                       })
    }

    /// `rows` rows of `width` fields, cut into parts (one per thread) that `size` measures and
    /// `pack` writes; the first failing part's error is the batch's, its first failing row's.
    private func deriveMany(
        rows: Int, width: Int, milliseconds: [Int64], into ids: inout [Ulid], maxThreads: Int,
        size: (Range<Int>) -> Int, pack: (Range<Int>, inout Writer) -> Void
    ) throws {
        guard rows == milliseconds.count else {
            throw SamekeyError(code: .invalidArgument, message: "\(rows) rows but \(milliseconds.count) times: one time per row")
        }
        guard maxThreads >= 0 else {
            throw SamekeyError(code: .invalidArgument, message: "maxThreads must be 0 (one per core) or more")
        }
        ids.removeAll(keepingCapacity: true)
        guard rows > 0 else { return }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let parts = rows < parallelMinRows
            ? 1 : max(1, min(maxThreads == 0 ? cores : maxThreads, cores, rows / (parallelMinRows / 2)))
        let per = (rows + parts - 1) / parts
        ids.append(contentsOf: repeatElement(Ulid(high: 0, low: 0), count: rows))
        var failures = [Error?](repeating: nil, count: parts)
        milliseconds.withUnsafeBufferPointer { times in
            ids.withUnsafeMutableBufferPointer { out in
                failures.withUnsafeMutableBufferPointer { failed in
                    // Each part writes only its own rows of `out` and its own slot of `failed`.
                    let part = { (p: Int) in p * per..<min(rows, (p + 1) * per) }
                    if parts == 1 {
                        failed[0] = failure { try derivePart(part(0), width, times, out, size, pack) }
                    } else {
                        DispatchQueue.concurrentPerform(iterations: parts) { p in
                            failed[p] = failure { try derivePart(part(p), width, times, out, size, pack) }
                        }
                    }
                }
            }
        }
        if let first = failures.lazy.compactMap({ $0 }).first {
            ids.removeAll(keepingCapacity: true)
            throw first
        }
    }

    /// One C call, on this thread, for the rows `part` of `times`, into the same rows of `out`.
    private func derivePart(
        _ part: Range<Int>, _ width: Int, _ times: UnsafeBufferPointer<Int64>, _ out: UnsafeMutableBufferPointer<Ulid>,
        _ size: (Range<Int>) -> Int, _ pack: (Range<Int>, inout Writer) -> Void
    ) throws {
        let size = size(part)
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size + 16 * part.count) { buffer in
            var writer = Writer(buffer)
            pack(part, &writer)
            let derived = buffer.baseAddress! + size
            try check {
                samekey_deriver_derive_many(handle, buffer.baseAddress, size, width, times.baseAddress! + part.lowerBound,
                                            part.count, 1, derived, $0)
            }
            let raw = UnsafeRawBufferPointer(start: derived, count: 16 * part.count)
            for (i, row) in part.enumerated() {
                out[row] = Ulid(high: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 16 * i, as: UInt64.self)),
                                low: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 16 * i + 8, as: UInt64.self)))
            }
        }
    }

    /// ``derive(rows:milliseconds:into:maxThreads:)`` into a new array.
    public func derive(rows: [[String]], milliseconds: [Int64], maxThreads: Int = 0) throws -> [Ulid] {
        var ids: [Ulid] = []
        try derive(rows: rows, milliseconds: milliseconds, into: &ids, maxThreads: maxThreads)
        return ids
    }

    /// ``derive(rows:milliseconds:into:maxThreads:)`` with a `Date` per row.
    public func derive(rows: [[String]], at dates: [Date], maxThreads: Int = 0) throws -> [Ulid] {
        try derive(rows: rows, milliseconds: dates.map(Samekey.milliseconds(of:)), maxThreads: maxThreads)
    }

    /// The exact bytes hashed for an id of these fields (spec §4), to explain a mismatch.
    public func message(_ fields: [String]) throws -> Data {
        try Ulid.message(fields, namespace: namespace, scheme: scheme)
    }
}

/// The error `body` throws, or nil.
private func failure(of body: () throws -> Void) -> Error? {
    do {
        try body()
        return nil
    } catch {
        return error
    }
}

/// The smallest batch that a deriver spreads over threads (Dispatch's pool, each thread a
/// part of at least half this many rows): below it, the hand-off costs more than it saves
/// (`just swift::bench` measures 10,000 rows on one thread and on every core).
public let parallelMinRows = 4096

extension Ulid {
    /// The id of text fields at a time, under `scheme` in `namespace`, keyed with `secret`
    /// when given. For many ids with the same settings, a ``UlidDeriver`` checks them once.
    ///
    /// ```swift
    /// let id = try Ulid(deriving: "hello-world", "en", at: published, namespace: "posts")
    /// ```
    public init(
        deriving fields: String..., at date: Date, namespace: String = "", scheme: Scheme = .v1, secret: Data? = nil
    ) throws {
        try self.init(deriving: fields, milliseconds: milliseconds(of: date), namespace: namespace, scheme: scheme,
                      secret: secret)
    }

    /// The id of text fields at milliseconds since the epoch.
    public init(
        deriving fields: [String], milliseconds: Int64, namespace: String = "", scheme: Scheme = .v1,
        secret: Data? = nil
    ) throws {
        self = try Ulid.derive(fields, milliseconds, namespace, scheme, secret)
    }

    /// The id of byte fields at milliseconds since the epoch.
    public init(
        deriving fields: [Data], milliseconds: Int64, namespace: String = "", scheme: Scheme = .v1,
        secret: Data? = nil
    ) throws {
        self = try Ulid.derive(fields, milliseconds, namespace, scheme, secret)
    }

    /// The one-call path: the request packed on the stack, one C call.
    @inline(__always)
    private static func derive<F: Collection>(
        _ fields: F, _ milliseconds: Int64, _ namespace: String, _ scheme: Scheme, _ secret: Data?
    ) throws -> Ulid where F.Element: Field {
        let code = try scheme.code()
        return try withPacked(codes: CollectionOfOne(code), namespace: namespace, secret: secret, fields) { p, n in
            try Ulid(packed: p, count: n, milliseconds: milliseconds)
        }
    }

    /// One id: one C call on a packed request.
    @inline(__always)
    init(packed: UnsafePointer<UInt8>, count: Int, milliseconds: Int64) throws {
        var raw = (UInt64(0), UInt64(0))
        try withUnsafeMutableBytes(of: &raw) { out in
            try check { samekey_derive(packed, count, milliseconds, out.baseAddress!.assumingMemoryBound(to: UInt8.self), $0) }
        }
        self.init(high: UInt64(bigEndian: raw.0), low: UInt64(bigEndian: raw.1))
    }
}

extension Ulid {
    /// The exact bytes hashed for an id of these fields (spec §4), to explain a mismatch;
    /// a secret's key is not part of them.
    public static func message(_ fields: [String], namespace: String = "", scheme: Scheme = .v1) throws -> Data {
        try message(of: fields, namespace, scheme)
    }

    /// ``message(_:namespace:scheme:)`` of byte fields.
    public static func message(bytes fields: [Data], namespace: String = "", scheme: Scheme = .v1) throws -> Data {
        try message(of: fields, namespace, scheme)
    }

    private static func message<F: Collection>(of fields: F, _ namespace: String, _ scheme: Scheme) throws -> Data
    where F.Element: Field {
        let code = try scheme.code()
        var pointer: UnsafeMutablePointer<UInt8>?
        var count = 0
        try withPacked(codes: CollectionOfOne(code), namespace: namespace, secret: nil, fields) { p, n in
            try check { samekey_ulid_message(p, n, &pointer, &count, $0) }
        }
        return Data(takenBytes(pointer, count))
    }
}
