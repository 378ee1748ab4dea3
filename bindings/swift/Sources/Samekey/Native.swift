// The C ABI (crates/samekey-ffi) as this package calls it: every text a pointer and a
// length (a NUL inside reaches the core), identity inputs packed into one flat buffer
// (samekey-wire's format), results into caller buffers. Nothing here is public.
import SamekeyFFI

/// Runs a C call that reports failure through its status and an allocated message.
@inline(__always)
func check(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> SamekeyStatus) throws {
    var message: UnsafeMutablePointer<CChar>?
    let status = call(&message)
    if status != SAMEKEY_STATUS_OK {
        throw SamekeyError(status: status, message: message)
    }
}

/// `text`'s UTF-8 bytes for the duration of `body`: a native string's own storage, no copy.
@inline(__always)
func withText<R>(_ text: String, _ body: (UnsafePointer<UInt8>?, Int) throws -> R) rethrows -> R {
    var text = text
    return try text.withUTF8 { try body($0.baseAddress, $0.count) }
}

/// `bytes` for the duration of `body`, or a NULL pointer and `false` for none.
@inline(__always)
func withOptionalBytes<R>(_ bytes: [UInt8]?, _ body: (UnsafePointer<UInt8>?, Int, Bool) throws -> R) rethrows -> R {
    guard let bytes else { return try body(nil, 0, false) }
    return try bytes.withUnsafeBufferPointer { try body($0.baseAddress, $0.count, true) }
}

/// An optional text for the duration of `body`, with its presence flag.
@inline(__always)
func withOptionalText<R>(_ text: String?, _ body: (UnsafePointer<UInt8>?, Int, Bool) throws -> R) rethrows -> R {
    guard let text else { return try body(nil, 0, false) }
    return try withText(text) { try body($0, $1, true) }
}

/// A C string the library wrote into a caller buffer of `capacity` bytes.
@inline(__always)
func textOut(capacity: Int, _ call: (UnsafeMutablePointer<CChar>) throws -> Void) rethrows -> String {
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
        buffer.initialize(repeating: 0)
        try call(buffer.baseAddress!)
        return String(cString: buffer.baseAddress!)
    }
}

/// A string the library allocated, freed once read.
func taken(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "" }
    defer { samekey_string_free(pointer) }
    return String(cString: pointer)
}

/// The space-separated words of a string the library allocated (ASCII: schemes and
/// ULIDs), freed once read: split as bytes, where `String.split` walks grapheme clusters
/// (a ring's candidates cost 3.8 µs that way, 1.3 µs split as bytes: `just bench-matrix`).
func takenWords(_ pointer: UnsafeMutablePointer<CChar>?) -> [String] {
    guard let pointer else { return [] }
    defer { samekey_string_free(pointer) }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
    var words: [String] = []
    var start = 0
    for i in bytes.indices where bytes[i] == 0x20 {
        words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        start = i + 1
    }
    words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
    return words
}

/// Bytes the library allocated, freed once copied.
func takenBytes(_ pointer: UnsafeMutablePointer<UInt8>?, _ count: Int) -> [UInt8] {
    guard let pointer else { return [] }
    defer { samekey_bytes_free(pointer, count) }
    return Array(UnsafeBufferPointer(start: pointer, count: count))
}

// Results of bounded size (crates/samekey-ffi): hashes and keys, ULID and UUID text.
let keyCapacity = 72
let schemeCapacity = 3

/// A request packed (samekey-wire's format: the scheme codes, primary first, the secret
/// flag, the field count as a u32 LE, then length-prefixed items: namespace, secret,
/// fields) for the duration of `body`, on the stack when small: no heap allocation, each
/// text's bytes read from its own storage.
@inline(__always)
func withPacked<C: Collection, F: Collection, R>(
    codes: C, namespace: String, secret: Data?, _ fields: F, _ body: (UnsafePointer<UInt8>, Int) throws -> R
) rethrows -> R where C.Element == UInt8, F.Element: Field {
    var size = 1 + codes.count + 1 + 4 + 4 + namespace.byteCount + (secret.map { 4 + $0.count } ?? 0)
    for field in fields { size += 4 + field.byteCount }
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { buffer in
        var out = Writer(buffer)
        out.putByte(UInt8(codes.count))
        for code in codes { out.putByte(code) }
        out.putByte(secret == nil ? 0 : 1)
        out.putLength(fields.count)
        out.putItem(namespace)
        if let secret { out.putItem(secret) }
        for field in fields { out.putItem(field) }
        return try body(UnsafePointer(buffer.baseAddress!), size)
    }
}

/// Writes a packed request into a buffer sized for it beforehand.
struct Writer {
    let base: UnsafeMutableRawPointer
    var at = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { base = UnsafeMutableRawPointer(buffer.baseAddress!) }

    @inline(__always) mutating func put(_ bytes: UnsafeRawBufferPointer) {
        if let from = bytes.baseAddress, bytes.count > 0 {
            (base + at).copyMemory(from: from, byteCount: bytes.count)
        }
        at += bytes.count
    }

    @inline(__always) mutating func putByte(_ byte: UInt8) {
        base.storeBytes(of: byte, toByteOffset: at, as: UInt8.self)
        at += 1
    }

    @inline(__always) mutating func putLength(_ n: Int) {
        base.storeBytes(of: UInt32(truncatingIfNeeded: n).littleEndian, toByteOffset: at, as: UInt32.self)
        at += 4
    }

    @inline(__always) mutating func putItem<F: Field>(_ field: F) {
        putLength(field.byteCount)
        let start = at
        field.withBytes { bytes in
            if let from = bytes.baseAddress, bytes.count > 0 {
                (base + start).copyMemory(from: from, byteCount: bytes.count)
            }
        }
        at += field.byteCount
    }
}

/// An identity field as the core takes it: its bytes (a text's UTF-8).
protocol Field {
    var byteCount: Int { get }
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void)
}

extension String: Field {
    var byteCount: Int { utf8.count }
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        if utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) == nil {
            Array(utf8).withUnsafeBytes(body)  // a bridged string that is not UTF-8 inside
        }
    }
}

extension Substring: Field {
    var byteCount: Int { utf8.count }
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) {
        if utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) == nil {
            Array(utf8).withUnsafeBytes(body)
        }
    }
}

#if canImport(Foundation)
import Foundation

extension Data: Field {
    var byteCount: Int { count }
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) { withUnsafeBytes(body) }
}
#endif

extension Array: Field where Element == UInt8 {
    var byteCount: Int { count }
    func withBytes(_ body: (UnsafeRawBufferPointer) -> Void) { withUnsafeBytes(body) }
}
