/// Why an SQLite store file cannot be used. The file is never deleted because of one: only
/// `--store-reset` (`SQLiteStore(reset: true)`) replaces it, after renaming it aside.
public struct SQLiteStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// The file or its directory cannot be opened or created (permissions, a missing parent).
        case cannotOpen
        /// The file is not SQLite, is damaged, or is another application's database.
        case notAStore
        /// A later MusicGraph wrote the file, in a layout this one does not know.
        case newerVersion
    }

    public var code: Code
    /// One line naming the file and the reason.
    public var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
