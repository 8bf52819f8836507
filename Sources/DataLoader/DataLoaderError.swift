/// An error raised by a ``DataLoader`` itself (not by its batch function).
///
/// Built like a closed set of codes behind a struct, so adding a case breaks no caller:
/// compare with the static members (`error.code == DataLoaderError.Code.noValueForKey`) or
/// read `message`. Errors the batch function throws reach callers unchanged.
public struct DataLoaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; stable, without associated values, fit for metric labels.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidOption = "INVALID_OPTION"
            case noValueForKey = "NO_VALUE_FOR_KEY"
            case resultCountMismatch = "RESULT_COUNT_MISMATCH"
        }
        private let base: Base

        /// A construction option was out of range; thrown by the initializers.
        public static let invalidOption = Code(base: .invalidOption)
        /// The keyed batch function's answer lacked a key that was asked for (fails that key only).
        public static let noValueForKey = Code(base: .noValueForKey)
        /// The ordered batch function returned a different number of results than keys
        /// (fails every key of that batch).
        public static let resultCountMismatch = Code(base: .resultCountMismatch)

        /// `INVALID_OPTION`, `NO_VALUE_FOR_KEY` or `RESULT_COUNT_MISMATCH`.
        public var description: String { base.rawValue }
    }

    /// What went wrong, as a stable code.
    public let code: Code
    /// A sentence for humans naming the loader, the key or option, and the broken rule.
    public let message: String

    public var description: String { message }

    static func invalidOption(_ option: String, loader name: String, _ rule: String)
        -> DataLoaderError
    {
        DataLoaderError(
            code: .invalidOption,
            message: "DataLoader \(String(reflecting: name)): option \(option) \(rule).")
    }

    @usableFromInline
    static func noValueForKey(_ key: some Sendable, loader name: String) -> DataLoaderError {
        DataLoaderError(
            code: .noValueForKey,
            message: "DataLoader \"\(name)\" has no value for key \(String(reflecting: key)): "
                + "the batch function's answer did not include that key.")
    }

    @usableFromInline
    static func resultCountMismatch(
        keys: [some Sendable], resultCount: Int, loader name: String
    ) -> DataLoaderError {
        let shown = keys.prefix(10).map { String(reflecting: $0) }.joined(separator: ", ")
        let more = keys.count > 10 ? ", … (\(keys.count - 10) more)" : ""
        return DataLoaderError(
            code: .resultCountMismatch,
            message:
                "DataLoader \"\(name)\": a batch function in key order must return exactly one result "
                + "per key, in the order of the keys; it was given \(keys.count) keys and returned "
                + "\(resultCount) results. Keys: [\(shown)\(more)].")
    }
}
