import Foundation
import SamekeyFFI

/// Every failure samekey reports: a stable ``code`` (the same string in every language, and
/// in the registry's problem documents) and the core's message, which says what was wrong
/// with which input.
///
/// ```swift
/// do {
///     _ = try Ulid(parsing: "not an id")
/// } catch let error as SamekeyError where error.code == .invalidULID {
///     print(error.localizedDescription)
/// }
/// ```
public struct SamekeyError: Error, LocalizedError, CustomStringConvertible, Sendable, Hashable {
    /// What kind of failure it is; switch on it, never on the message.
    public let code: ErrorCode
    /// The core's explanation, for people: its words may change between versions.
    public let message: String

    public init(code: ErrorCode, message: String) {
        self.code = code
        self.message = message
    }

    init(status: SamekeyStatus, message pointer: UnsafeMutablePointer<CChar>?) {
        let name = String(cString: samekey_status_code(status))
        self.init(code: ErrorCode(rawValue: name) ?? .panic, message: taken(pointer))
    }

    /// "code: message", the form every samekey binding prints.
    public var errorDescription: String? { "\(code.rawValue): \(message)" }
    public var description: String { errorDescription! }
}
