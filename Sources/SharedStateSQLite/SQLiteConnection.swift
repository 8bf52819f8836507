import CSQLite

/// One SQLite connection and its prepared statements. Not thread-safe: `SQLiteStore` touches
/// it from its own serial queue only.
final class SQLiteConnection {
    /// A value bound to a `?N` parameter.
    enum Value {
        case int(Int64)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// A failed SQLite call: the result code and SQLite's message.
    struct Failure: Error {
        var code: Int32
        var message: String
        /// The file is not a database, or its pages are damaged.
        var isCorruption: Bool { code & 0xff == SQLITE_CORRUPT || code & 0xff == SQLITE_NOTADB }
    }

    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating when missing) the database file at `path`.
    init(path: String, busyTimeoutMs: Int) throws(Failure) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw Failure(code: status, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeoutMs))
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` (one or more statements without parameters or rows to read).
    func execute(_ sql: String) throws(Failure) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        guard status == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw Failure(code: status, message: message)
        }
    }

    /// Runs the statement `sql` with `values` bound to `?1…`, calling `row` for each result row.
    /// - Returns: how many rows the statement changed (for INSERT, UPDATE, DELETE).
    @discardableResult
    func run(_ sql: String, _ values: [Value] = [], row: (Row) throws(Failure) -> Void = { _ in }) throws(Failure)
        -> Int
    {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .int(let number): status = sqlite3_bind_int64(statement, index, number)
            case .text(let text):
                var text = text
                status = text.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { chars in
                        guard let base = chars.baseAddress else { return mg_sqlite3_bind_text(statement, index, "", 0) }
                        return mg_sqlite3_bind_text(statement, index, base, Int32(clamping: chars.count))
                    }
                }
            case .blob(let bytes):
                // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
                status = bytes.withUnsafeBytes { raw in
                    mg_sqlite3_bind_blob(
                        statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(clamping: raw.count)
                    )
                }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(status) }
            try row(Row(statement: statement))
        }
        return Int(sqlite3_changes(handle))
    }

    /// The first column of the first row of `sql`, as an integer; nil when there is no row.
    func integer(_ sql: String, _ values: [Value] = []) throws(Failure) -> Int64? {
        var result: Int64?
        try run(sql, values) { row in if result == nil { result = row.int(0) } }
        return result
    }

    /// The current result code of the connection as a `Failure`.
    func failure(_ status: Int32) -> Failure {
        Failure(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }

    private func prepared(_ sql: String) throws(Failure) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        statements[sql] = statement
        return statement
    }

    /// Forgets the prepared statements (before a schema they were prepared against goes away).
    func finalizeStatements() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
    }

    /// One result row, valid only inside the `row` callback.
    struct Row {
        let statement: OpaquePointer

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        /// The column's bytes (a text or a blob); nil for NULL or a number.
        func bytes(_ column: Int32) -> [UInt8]? {
            let type = sqlite3_column_type(statement, column)
            guard type == SQLITE_BLOB || type == SQLITE_TEXT else { return nil }
            // The pointer first, then its length: SQLite's documented order for these two calls.
            let base = sqlite3_column_blob(statement, column)
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }

        func text(_ column: Int32) -> String? { bytes(column).map { String(decoding: $0, as: UTF8.self) } }
    }
}
