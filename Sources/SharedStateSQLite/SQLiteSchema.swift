import CSQLite
import Foundation

/// The store file's layout, and the checks that a file is one before it is written to.
///
/// A store file carries `PRAGMA application_id` 0x4D475354 ("MGST") and `user_version` 1. An
/// empty file (no tables, no id) becomes a store; any other file is reported, never changed.
/// Running totals (entry bytes, documents) are kept by triggers in `stats`, so the bound is
/// checked without a scan and stays right whichever process writes.
enum SQLiteSchema {
    static let applicationId: Int64 = 0x4D47_5354
    static let version: Int64 = 1

    private static let create = """
        CREATE TABLE IF NOT EXISTS entries (
          key TEXT PRIMARY KEY, value BLOB NOT NULL, bytes INTEGER NOT NULL,
          expires_at_ms INTEGER NOT NULL, used_at_ms INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS entries_by_use ON entries (used_at_ms);
        CREATE INDEX IF NOT EXISTS entries_by_expiry ON entries (expires_at_ms);
        CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at_ms INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, expires_at_ms INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS documents (sha256 TEXT PRIMARY KEY, text TEXT NOT NULL, used_at_ms INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS documents_by_use ON documents (used_at_ms);
        CREATE TABLE IF NOT EXISTS stats (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        INSERT OR IGNORE INTO stats (name, value) VALUES ('entry_bytes', 0), ('documents', 0);
        CREATE TRIGGER IF NOT EXISTS entries_insert AFTER INSERT ON entries BEGIN
          UPDATE stats SET value = value + NEW.bytes WHERE name = 'entry_bytes'; END;
        CREATE TRIGGER IF NOT EXISTS entries_delete AFTER DELETE ON entries BEGIN
          UPDATE stats SET value = value - OLD.bytes WHERE name = 'entry_bytes'; END;
        CREATE TRIGGER IF NOT EXISTS entries_update AFTER UPDATE OF bytes ON entries BEGIN
          UPDATE stats SET value = value + NEW.bytes - OLD.bytes WHERE name = 'entry_bytes'; END;
        CREATE TRIGGER IF NOT EXISTS documents_insert AFTER INSERT ON documents BEGIN
          UPDATE stats SET value = value + 1 WHERE name = 'documents'; END;
        CREATE TRIGGER IF NOT EXISTS documents_delete AFTER DELETE ON documents BEGIN
          UPDATE stats SET value = value - 1 WHERE name = 'documents'; END;
        PRAGMA application_id = \(applicationId);
        PRAGMA user_version = \(version);
        """

    /// A connection to the store file at `path`, checked (and laid out when new), in WAL mode,
    /// with the rows expired at `nowMs` purged, and where a file that was not a store went
    /// (`reset`), else nil.
    static func open(path: String, reset: Bool, busyTimeoutMs: Int, nowMs: Int64) throws(SQLiteStoreError)
        -> (connection: SQLiteConnection, setAside: String?)
    {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try makeDirectory(directory) }
        do {
            return (try openChecked(path: path, busyTimeoutMs: busyTimeoutMs, nowMs: nowMs), nil)
        } catch let error where error.code == .notAStore && reset {
            let aside = asideName(path)
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
                do {
                    try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
                } catch {
                    throw SQLiteStoreError(
                        .cannotOpen, "--store-reset cannot move \(path + suffix) aside: \(error.localizedDescription)")
                }
            }
            return (try openChecked(path: path, busyTimeoutMs: busyTimeoutMs, nowMs: nowMs), aside)
        }
    }

    // MARK: Files private to their owner

    /// Creates `directory` and its missing parents with mode 0700: what the store keeps (the
    /// upstream answers, the quota spent) is its owner's alone. A directory that exists is left
    /// as it is (it may be a shared one, such as /tmp).
    static func makeDirectory(_ directory: String) throws(SQLiteStoreError) {
        var missing: [String] = []
        var current = directory
        while !current.isEmpty, !FileManager.default.fileExists(atPath: current) {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { break }
            current = parent
        }
        for created in missing.reversed() {
            if mkdir(created, 0o700) == 0 {
                // The umask may have taken bits away; the owner needs all three.
                _ = chmod(created, 0o700)
            } else if errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw SQLiteStoreError(.cannotOpen, "cannot create the store's directory \(directory): \(reason)")
            }
        }
    }

    /// The store file at `path` readable and writable by its owner alone before SQLite opens it:
    /// created with mode 0600 when missing (SQLite gives the `-wal` and `-shm` it creates the
    /// main file's mode), and an existing file, `-wal` or `-shm` of ours that others may read
    /// set to 0600. A failure here is left for SQLite's open to report.
    static func makePrivate(path: String) {
        let created = Foundation.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        for file in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            guard stat(file, &status) == 0, status.st_uid == geteuid(), status.st_mode & S_IFMT == S_IFREG,
                status.st_mode & 0o077 != 0
            else { continue }
            _ = chmod(file, 0o600)
        }
    }

    // MARK: Expired rows

    /// How often, at most, a store purges expired rows after a write (it also does on open).
    static let purgeIntervalMs: Int64 = 60_000

    /// Deletes the entries, claims and counters expired at `nowMs`, then checkpoints the WAL
    /// into the file and truncates it. With `secure_delete` on (set on every connection) the
    /// deleted content is overwritten with zeros in the file's pages, and after the checkpoint
    /// no frame of the -wal holds it either: an answer that has expired is gone from the disk.
    static func purgeExpired(_ db: SQLiteConnection, nowMs: Int64) throws(SQLiteConnection.Failure) {
        try db.run("BEGIN IMMEDIATE")
        do {
            try db.run("DELETE FROM entries WHERE expires_at_ms <= ?1", [.int(nowMs)])
            try db.run("DELETE FROM claims WHERE expires_at_ms <= ?1", [.int(nowMs)])
            try db.run("DELETE FROM counters WHERE expires_at_ms <= ?1", [.int(nowMs)])
            try db.run("COMMIT")
        } catch {
            _ = try? db.run("ROLLBACK")
            throw error
        }
        // Its row (busy, frames, checkpointed) is not needed: a reader of an older snapshot only
        // delays the truncation to the next purge.
        try db.run("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Where `--store-reset` moves a file that is not a store: `PATH.bad`, or `PATH.bad.1`,
    /// `PATH.bad.2` … when that is taken, so that an earlier reset's file is never overwritten.
    static func asideName(_ path: String) -> String {
        let taken = { (name: String) in
            ["", "-wal", "-shm"].contains { FileManager.default.fileExists(atPath: name + $0) }
        }
        var name = path + ".bad"
        var number = 0
        while taken(name) {
            number += 1
            name = path + ".bad.\(number)"
        }
        return name
    }

    private static func openChecked(path: String, busyTimeoutMs: Int, nowMs: Int64) throws(SQLiteStoreError)
        -> SQLiteConnection
    {
        makePrivate(path: path)
        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: path, busyTimeoutMs: busyTimeoutMs)
        } catch {
            throw SQLiteStoreError(.cannotOpen, "cannot open the store file \(path): \(error.message)")
        }
        do {
            if try !isStore(db, path: path) {
                // New (or created by a process that has not laid it out yet): lay it out, then look again.
                try db.run("BEGIN IMMEDIATE")
                do {
                    if try !isStore(db, path: path) { try db.execute(create) }
                    try db.run("COMMIT")
                } catch {
                    _ = try? db.run("ROLLBACK")
                    throw error
                }
                db.finalizeStatements()
            }
            // Changes only on a file that is ours; kept by the file, so later openers find it set.
            var mode = ""
            try db.run("PRAGMA journal_mode = WAL") { row in mode = row.text(0) ?? "" }
            guard mode.lowercased() == "wal" else {
                throw SQLiteStoreError(.cannotOpen, "the store file \(path) cannot use WAL mode (journal_mode \(mode))")
            }
            try db.execute("PRAGMA synchronous = NORMAL")
            // Per connection: what any delete removes is zeroed, not left in free space.
            try db.execute("PRAGMA secure_delete = ON")
            // Expired answers, claims of crashed holders and the counters of past days.
            try purgeExpired(db, nowMs: nowMs)
        } catch let failure as SQLiteConnection.Failure {
            if failure.isCorruption {
                throw SQLiteStoreError(
                    .notAStore,
                    "the store file \(path) is not a MusicGraph store (\(failure.message)); move it away, "
                        + "point --store elsewhere, or pass --store-reset to replace it (it is kept as \(path).bad, or .bad.1, .bad.2 … when that is taken)"
                )
            }
            throw SQLiteStoreError(.cannotOpen, "cannot use the store file \(path): \(failure.message)")
        } catch let error as SQLiteStoreError {
            throw error
        } catch {
            throw SQLiteStoreError(.cannotOpen, "cannot use the store file \(path): \(error)")
        }
        return db
    }

    /// Whether the file is a store already; false for an empty file.
    /// - Throws: `SQLiteStoreError.notAStore` for someone else's database, `.newerVersion`.
    private static func isStore(_ db: SQLiteConnection, path: String) throws -> Bool {
        let id = try db.integer("PRAGMA application_id") ?? 0
        let version = try db.integer("PRAGMA user_version") ?? 0
        let objects = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
        if id == 0, version == 0, objects == 0 { return false }
        guard id == applicationId else {
            throw SQLiteStoreError(
                .notAStore,
                "the store file \(path) is another application's SQLite database (application_id \(id), "
                    + "\(objects) schema objects); point --store elsewhere, or pass --store-reset to replace it "
                    + "(it is kept as \(path).bad, or .bad.1, .bad.2 … when that is taken)")
        }
        guard version <= Self.version else {
            throw SQLiteStoreError(
                .newerVersion,
                "the store file \(path) has layout version \(version), written by a later MusicGraph (this one "
                    + "knows \(Self.version)); point --store elsewhere")
        }
        return true
    }
}
