import CSQLite
import Dispatch
import SharedState

/// `SharedStore` in an SQLite file (`--store sqlite:PATH`, the embedded default): kept across
/// restarts and shared by the processes of one machine, each with its own connection.
///
/// The file is in WAL mode (readers never wait for the writer; `synchronous=NORMAL`, so a
/// power cut may lose the last writes but never corrupts the file), with a busy timeout for
/// the moments two processes write at once. Every read-modify-write is one transaction or one
/// UPSERT statement, so counters and claims are atomic across processes. Entries are bounded
/// in bytes (keys plus values): a write that takes them over the bound drops the expired
/// entries first, then the least recently used. SQLite calls block, so they run on one serial
/// queue per store, never on the caller's thread.
///
/// Instants are Unix milliseconds from `clock` (processes share them). Failing calls throw
/// `SharedStoreError` with SQLite's message; nothing is deleted because of one.
public final class SQLiteStore: SharedStore, @unchecked Sendable {
    // @unchecked: `connection` is only touched on `queue`, a serial queue; the rest is immutable.
    public var kind: String { "sqlite" }

    /// The database file.
    public let path: String
    /// The most entry bytes (values plus keys) kept at once.
    public let maxEntryBytes: Int
    /// The most persisted documents kept at once.
    public let maxDocuments: Int
    /// Where `reset` moved a file that was not a store (`PATH.bad`, `PATH.bad.1`, …); nil when
    /// nothing was moved.
    public let setAside: String?
    private let clock: WallClock
    private let connection: SQLiteConnection
    private let queue: DispatchQueue
    /// When expired rows were last purged (wall-clock ms); touched on `queue` only.
    private var purgedAtMs: Int64

    /// How long a call waits for another process's write to finish before it fails.
    public static let defaultBusyTimeoutMs = 2_000

    /// Opens the store file at `path`, creating it (and its directory) when missing.
    ///
    /// - Parameters:
    ///   - reset: replace a file that is not a MusicGraph store (a foreign or corrupt file):
    ///     it is renamed to `PATH.bad` (with its `-wal` and `-shm`; `PATH.bad.1`, `.bad.2` … when
    ///     an earlier reset's file is there: none is overwritten), and an empty store takes its
    ///     place (`setAside` names where it went). Without it such a file is left untouched and
    ///     the init throws.
    /// - Throws: `SQLiteStoreError` `.cannotOpen` (no such directory, no permission),
    ///   `.notAStore` (the file is not SQLite, is damaged, or is another application's
    ///   database), `.newerVersion` (written by a later MusicGraph).
    public init(
        path: String, maxEntryBytes: Int = 64 << 20, maxDocuments: Int = 10_000, reset: Bool = false,
        busyTimeoutMs: Int = SQLiteStore.defaultBusyTimeoutMs, clock: WallClock = .system
    ) throws(SQLiteStoreError) {
        self.path = path
        self.maxEntryBytes = max(0, maxEntryBytes)
        self.maxDocuments = max(0, maxDocuments)
        self.clock = clock
        self.queue = DispatchQueue(label: "musicgraph.sqlite-store")
        let now = clock.nowMs()
        self.purgedAtMs = now
        (self.connection, self.setAside) = try SQLiteSchema.open(
            path: path, reset: reset, busyTimeoutMs: busyTimeoutMs, nowMs: now)
    }

    /// After a write, on the queue: purges expired rows when the last purge is a minute old, so
    /// that an expired answer does not stay on disk until the bound evicts it.
    private func purgeIfDue(_ db: SQLiteConnection, now: Int64) {
        guard now - purgedAtMs >= SQLiteSchema.purgeIntervalMs else { return }
        purgedAtMs = now
        // The write stands whatever happens here; a purge that failed (another process held the
        // lock past the busy timeout) is tried again on a write a minute later.
        try? SQLiteSchema.purgeExpired(db, nowMs: now)
    }

    /// Runs `body` on the store's queue; after a `write` that succeeded, purges expired rows
    /// when it is time to (`purgeIfDue`).
    @discardableResult
    private func onQueue<T: Sendable>(
        _ what: String, write: Bool = false,
        _ body: @escaping @Sendable (SQLiteConnection) throws(SQLiteConnection.Failure) -> T
    ) async throws(SharedStoreError) -> T {
        let connection = UncheckedConnection(connection)
        let result: Result<T, SharedStoreError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(SQLiteConnection.Failure) {
                    let value = try body(connection.value)
                    if write { self.purgeIfDue(connection.value, now: self.clock.nowMs()) }
                    continuation.resume(returning: .success(value))
                } catch {
                    continuation.resume(
                        returning: .failure(SharedStoreError("sqlite store, \(what): \(error.message)")))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` in a write transaction taken at once (`BEGIN IMMEDIATE`: the busy timeout
    /// applies to getting the lock, not to a deadlock later), committed when it returns.
    private static func inTransaction<T>(
        _ db: SQLiteConnection, _ body: () throws(SQLiteConnection.Failure) -> T
    ) throws(SQLiteConnection.Failure) -> T {
        try db.run("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try db.run("COMMIT")
            return value
        } catch {
            _ = try? db.run("ROLLBACK")
            throw error
        }
    }

    // MARK: Entries

    public func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? {
        let now = clock.nowMs()
        return try await onQueue("entry") { db throws(SQLiteConnection.Failure) in
            var found: StoredEntry?
            var usedAt: Int64 = 0
            try db.run("SELECT value, expires_at_ms, used_at_ms FROM entries WHERE key = ?1", [.text(key)]) { row in
                // A value of another type (a file edited by hand) is a miss, like one that fails to decode.
                guard let value = row.bytes(0) else { return }
                found = StoredEntry(value: value, expiresAtMs: row.int(1))
                usedAt = row.int(2)
            }
            guard let entry = found, entry.expiresAtMs > now else { return nil }
            // Recency to the second is enough for eviction, and spares a write per hit.
            if now - usedAt >= 1_000 {
                try db.run("UPDATE entries SET used_at_ms = ?2 WHERE key = ?1", [.text(key), .int(now)])
            }
            return entry
        }
    }

    public func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        let bytes = entry.value.count + key.utf8.count
        let now = clock.nowMs()
        guard bytes <= maxEntryBytes, entry.expiresAtMs > now else { return }
        let maxBytes = Int64(maxEntryBytes)
        try await onQueue("putEntry", write: true) { db throws(SQLiteConnection.Failure) in
            try Self.inTransaction(db) { () throws(SQLiteConnection.Failure) in
                try db.run(
                    """
                    INSERT INTO entries (key, value, bytes, expires_at_ms, used_at_ms) VALUES (?1, ?2, ?3, ?4, ?5)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value, bytes = excluded.bytes,
                      expires_at_ms = excluded.expires_at_ms, used_at_ms = excluded.used_at_ms
                    """, [.text(key), .blob(entry.value), .int(Int64(bytes)), .int(entry.expiresAtMs), .int(now)])
                try Self.evict(db, toFit: maxBytes, now: now, keeping: key)
            }
        }
    }

    /// Drops expired entries, then least recently used ones, until the entries fit `maxBytes`.
    private static func evict(_ db: SQLiteConnection, toFit maxBytes: Int64, now: Int64, keeping key: String)
        throws(SQLiteConnection.Failure)
    {
        func total() throws(SQLiteConnection.Failure) -> Int64 {
            try db.integer("SELECT value FROM stats WHERE name = 'entry_bytes'") ?? 0
        }
        guard try total() > maxBytes else { return }
        try db.run("DELETE FROM entries WHERE expires_at_ms <= ?1", [.int(now)])
        while try total() > maxBytes {
            let removed = try db.run(
                """
                DELETE FROM entries WHERE key IN
                  (SELECT key FROM entries WHERE key != ?1 ORDER BY used_at_ms, rowid LIMIT 1)
                """, [.text(key)])
            if removed == 0 { break }
        }
    }

    public func removeEntry(_ key: String) async throws(SharedStoreError) {
        try await onQueue("removeEntry") { db throws(SQLiteConnection.Failure) in
            try db.run("DELETE FROM entries WHERE key = ?1", [.text(key)])
        }
    }

    // MARK: In-flight claims

    public func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        let now = clock.nowMs()
        let expires = now + Int64(max(1, ttlMs))
        return try await onQueue("claim", write: true) { db throws(SQLiteConnection.Failure) in
            // One statement: the check and the take are atomic for every process.
            let changed = try db.run(
                """
                INSERT INTO claims (key, holder, expires_at_ms) VALUES (?1, ?2, ?3)
                ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at_ms = excluded.expires_at_ms
                WHERE claims.expires_at_ms <= ?4 OR claims.holder = excluded.holder
                """, [.text(key), .text(holder), .int(expires), .int(now)])
            return changed > 0
        }
    }

    public func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        try await onQueue("releaseClaim") { db throws(SQLiteConnection.Failure) in
            try db.run("DELETE FROM claims WHERE key = ?1 AND holder = ?2", [.text(key), .text(holder)])
        }
    }

    public func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        // SQLite has no notifications between processes: poll, a few milliseconds apart.
        let deadline = clock.nowMs() + Int64(max(0, timeoutMs))
        while true {
            let now = clock.nowMs()
            let held = try await onQueue("awaitRelease") { db throws(SQLiteConnection.Failure) in
                try db.integer(
                    "SELECT 1 FROM claims WHERE key = ?1 AND expires_at_ms > ?2", [.text(key), .int(now)]) != nil
            }
            if !held { return true }
            if now >= deadline { return false }
            do {
                try await Task.sleep(for: .milliseconds(5))
            } catch {
                throw SharedStoreError("cancelled while waiting for a claim")
            }
        }
    }

    // MARK: Counters

    public func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64)
        async throws(SharedStoreError) -> CounterUpdate
    {
        let now = clock.nowMs()
        return try await onQueue("addToCounter", write: true) { db throws(SQLiteConnection.Failure) in
            try Self.inTransaction(db) { () throws(SQLiteConnection.Failure) in
                let current =
                    try db.integer(
                        "SELECT value FROM counters WHERE key = ?1 AND expires_at_ms > ?2", [.text(key), .int(now)])
                    ?? 0
                if let limit, units > 0, current + Int64(units) > Int64(limit) {
                    return CounterUpdate(applied: false, value: Int(current))
                }
                let value = try db.integer(
                    """
                    INSERT INTO counters (key, value, expires_at_ms) VALUES (?1, ?2, ?3)
                    ON CONFLICT (key) DO UPDATE SET
                      value = CASE WHEN counters.expires_at_ms <= ?4 THEN 0 ELSE counters.value END + excluded.value,
                      expires_at_ms = excluded.expires_at_ms
                    RETURNING value
                    """, [.text(key), .int(Int64(units)), .int(expiresAtMs), .int(now)])
                return CounterUpdate(applied: true, value: Int(value ?? current + Int64(units)))
            }
        }
    }

    public func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        let now = clock.nowMs()
        return try await onQueue("raiseCounter", write: true) { db throws(SQLiteConnection.Failure) in
            let raised = try db.integer(
                """
                INSERT INTO counters (key, value, expires_at_ms) VALUES (?1, ?2, ?3)
                ON CONFLICT (key) DO UPDATE SET
                  value = max(CASE WHEN counters.expires_at_ms <= ?4 THEN 0 ELSE counters.value END, excluded.value),
                  expires_at_ms = excluded.expires_at_ms
                RETURNING value
                """, [.text(key), .int(Int64(value)), .int(expiresAtMs), .int(now)])
            return Int(raised ?? Int64(value))
        }
    }

    public func counter(_ key: String) async throws(SharedStoreError) -> Int {
        let now = clock.nowMs()
        return try await onQueue("counter") { db throws(SQLiteConnection.Failure) in
            Int(
                try db.integer(
                    "SELECT value FROM counters WHERE key = ?1 AND expires_at_ms > ?2", [.text(key), .int(now)]) ?? 0)
        }
    }

    // MARK: Persisted documents

    public func document(sha256: String) async throws(SharedStoreError) -> String? {
        let now = clock.nowMs()
        return try await onQueue("document") { db throws(SQLiteConnection.Failure) in
            var text: String?
            var usedAt: Int64 = 0
            try db.run("SELECT text, used_at_ms FROM documents WHERE sha256 = ?1", [.text(sha256)]) { row in
                text = row.text(0)
                usedAt = row.int(1)
            }
            if text != nil, now - usedAt >= 1_000 {
                try db.run("UPDATE documents SET used_at_ms = ?2 WHERE sha256 = ?1", [.text(sha256), .int(now)])
            }
            return text
        }
    }

    public func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        guard maxDocuments > 0 else { return }
        let now = clock.nowMs()
        let maxDocuments = Int64(maxDocuments)
        try await onQueue("putDocument", write: true) { db throws(SQLiteConnection.Failure) in
            try Self.inTransaction(db) { () throws(SQLiteConnection.Failure) in
                try db.run(
                    """
                    INSERT INTO documents (sha256, text, used_at_ms) VALUES (?1, ?2, ?3)
                    ON CONFLICT (sha256) DO UPDATE SET text = excluded.text, used_at_ms = excluded.used_at_ms
                    """, [.text(sha256), .text(text), .int(now)])
                let count = try db.integer("SELECT value FROM stats WHERE name = 'documents'") ?? 0
                if count > maxDocuments {
                    try db.run(
                        """
                        DELETE FROM documents WHERE sha256 IN
                          (SELECT sha256 FROM documents WHERE sha256 != ?1 ORDER BY used_at_ms, rowid LIMIT ?2)
                        """, [.text(sha256), .int(count - maxDocuments)])
                }
            }
        }
    }

    // MARK: Upkeep

    /// Bytes of live and expired entries held now, and how many (for tests and metrics).
    public func usage() async throws(SharedStoreError) -> (bytes: Int, entries: Int) {
        try await onQueue("usage") { db throws(SQLiteConnection.Failure) in
            let bytes = try db.integer("SELECT value FROM stats WHERE name = 'entry_bytes'") ?? 0
            let count = try db.integer("SELECT count(*) FROM entries") ?? 0
            return (Int(bytes), Int(count))
        }
    }
}

/// The connection, carried to the store's queue. It is only used there.
private struct UncheckedConnection: @unchecked Sendable {
    let value: SQLiteConnection
    init(_ value: SQLiteConnection) { self.value = value }
}
