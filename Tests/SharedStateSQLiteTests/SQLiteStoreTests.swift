import Foundation
import SharedState
import TestSupport
import Testing

@testable import SharedStateSQLite

/// `SQLiteStore` on real files in a fresh directory each: the `SharedStore` contract (two
/// connections on one file), how it bounds itself, what a restart keeps, and files that are not a store.
@Suite struct SQLiteStoreTests {
    /// A fresh directory, removed when the test's `defer` calls `remove()`.
    struct Directory {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mg-sqlite-\(UUID().uuidString)").path
        var file: String { path + "/store.sqlite" }
        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The `SharedStore` contract (Tests/TestSupport/StoreContract.swift): the peer is a second
    /// connection on the same file.
    @Test(arguments: StoreContract.allCases) func keepsTheStoreContract(_ check: StoreContract) async throws {
        try await check.run(
            StoreFactory { clock in
                let directory = Directory()
                return StoreUnderTest(
                    store: try SQLiteStore(path: directory.file, clock: clock),
                    peer: try SQLiteStore(path: directory.file, clock: clock), close: { directory.remove() })
            })
    }

    @Test func theLeastRecentlyUsedEntriesGoFirst() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let time = TestClock()
        // An entry here weighs 10 (9 bytes plus a 1-byte key): three do not fit in 29.
        let store = try SQLiteStore(path: directory.file, maxEntryBytes: 29, clock: time.clock)
        let now = time.clock.nowMs()
        try await store.putEntry("a", StoredEntry(value: Array(repeating: 1, count: 9), expiresAtMs: now + 10_000))
        time.advance(ms: 1_000)
        try await store.putEntry("b", StoredEntry(value: Array(repeating: 2, count: 9), expiresAtMs: now + 50_000))
        time.advance(ms: 1_000)
        #expect(try await store.entry("a")?.value.count == 9)  // a is now the most recently used
        time.advance(ms: 1_000)
        try await store.putEntry("c", StoredEntry(value: Array(repeating: 3, count: 9), expiresAtMs: now + 50_000))
        #expect(try await store.entry("b") == nil)  // 30 bytes > 29: b (the oldest use) made room
        #expect(try await store.entry("a") != nil)
        #expect(try await store.usage() == (20, 2))
        #expect(try await store.entry("c")?.value == Array(repeating: 3, count: 9))
        // Larger than the whole store: not kept.
        try await store.putEntry("big", StoredEntry(value: Array(repeating: 0, count: 29), expiresAtMs: now + 90_000))
        #expect(try await store.entry("big") == nil)
    }

    @Test func expiredEntriesMakeRoomBeforeTheLeastRecentlyUsed() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let time = TestClock()
        let store = try SQLiteStore(path: directory.file, maxEntryBytes: 29, clock: time.clock)
        let now = time.clock.nowMs()
        try await store.putEntry("a", StoredEntry(value: Array(repeating: 1, count: 9), expiresAtMs: now + 60_000))
        time.advance(ms: 1_000)
        try await store.putEntry("b", StoredEntry(value: Array(repeating: 2, count: 9), expiresAtMs: now + 2_000))
        time.advance(ms: 2_000)  // b has expired; a is the least recently used
        try await store.putEntry("c", StoredEntry(value: Array(repeating: 3, count: 9), expiresAtMs: now + 60_000))
        #expect(try await store.entry("a") != nil)
        #expect(try await store.usage() == (20, 2))
    }

    @Test func documentsAreBoundedInNumber() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let time = TestClock()
        let store = try SQLiteStore(path: directory.file, maxDocuments: 2, clock: time.clock)
        try await store.putDocument(sha256: "1", text: "{ a }")
        time.advance(ms: 1_000)
        try await store.putDocument(sha256: "2", text: "{ b }")
        time.advance(ms: 1_000)
        #expect(try await store.document(sha256: "1") == "{ a }")  // 1 is now the most recently used
        time.advance(ms: 1_000)
        try await store.putDocument(sha256: "3", text: "{ c }")
        #expect(try await store.document(sha256: "2") == nil)
        #expect(try await store.document(sha256: "1") == "{ a }")
        #expect(try await store.document(sha256: "3") == "{ c }")
    }

    @Test func aReopenedFileKeepsEntriesCountersAndDocuments() async throws {
        let directory = Directory()
        defer { directory.remove() }
        do {
            let store = try SQLiteStore(path: directory.file)
            try await store.putEntry("k", StoredEntry(value: [1, 2, 3], expiresAtMs: .max))
            _ = try await store.addToCounter("q", units: 300, limit: 1_000, expiresAtMs: .max)
            try await store.putDocument(sha256: "abc", text: "{ a }")
        }
        let reopened = try SQLiteStore(path: directory.file)
        #expect(try await reopened.entry("k") == StoredEntry(value: [1, 2, 3], expiresAtMs: .max))
        #expect(try await reopened.counter("q") == 300)
        #expect(try await reopened.document(sha256: "abc") == "{ a }")
        var mode = ""
        let probe = try SQLiteConnection(path: directory.file, busyTimeoutMs: 100)
        try probe.run("PRAGMA journal_mode") { row in mode = row.text(0) ?? "" }
        #expect(mode == "wal")
    }

    @Test func aValueOfAnotherTypeIsAMiss() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let store = try SQLiteStore(path: directory.file)
        try await store.putEntry("k", StoredEntry(value: [1], expiresAtMs: .max))
        let editor = try SQLiteConnection(path: directory.file, busyTimeoutMs: 1_000)
        try editor.run("UPDATE entries SET value = 42 WHERE key = 'k'")
        #expect(try await store.entry("k") == nil)
    }

    @Test func aForeignDatabaseIsReportedAndLeftAloneUnlessReset() async throws {
        let directory = Directory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        do {
            let foreign = try SQLiteConnection(path: directory.file, busyTimeoutMs: 1_000)
            try foreign.execute(
                "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total INTEGER); INSERT INTO invoices VALUES (1, 99);")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file))
        #expect {
            _ = try SQLiteStore(path: directory.file)
        } throws: { error in
            guard let error = error as? SQLiteStoreError else { return false }
            return error.code == .notAStore && error.message.contains("another application's SQLite database")
                && error.message.contains("--store-reset")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file)) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.file + "-wal"))

        let reset = try SQLiteStore(path: directory.file, reset: true)
        #expect(try await reset.entry("k") == nil)
        try await reset.putEntry("k", StoredEntry(value: [1], expiresAtMs: .max))
        let kept = try SQLiteConnection(path: directory.file + ".bad", busyTimeoutMs: 1_000)
        #expect(try kept.integer("SELECT total FROM invoices WHERE id = 1") == 99)
    }

    @Test func aFileThatIsNotSQLiteIsReportedAndLeftAloneUnlessReset() async throws {
        let directory = Directory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let garbage = Data(String(repeating: "not a database, just some notes\n", count: 100).utf8)
        try garbage.write(to: URL(fileURLWithPath: directory.file))
        #expect {
            _ = try SQLiteStore(path: directory.file)
        } throws: { error in
            guard let error = error as? SQLiteStoreError else { return false }
            return error.code == .notAStore && error.message.contains("is not a MusicGraph store")
                && error.message.contains(directory.file)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file)) == garbage)
        let reset = try SQLiteStore(path: directory.file, reset: true)
        try await reset.putEntry("k", StoredEntry(value: [1], expiresAtMs: .max))
        #expect(try await reset.entry("k")?.value == [1])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file + ".bad")) == garbage)
    }

    @Test func aSecondResetKeepsTheFirstResetsFileAndNumbersItsOwn() throws {
        let directory = Directory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let file = URL(fileURLWithPath: directory.file)
        var kept: [Data] = []
        for round in 0..<3 {
            let garbage = Data("not a database, round \(round)\n".utf8)
            try garbage.write(to: file)
            kept.append(garbage)
            let store = try SQLiteStore(path: directory.file, reset: true)
            #expect(store.setAside == directory.file + (round == 0 ? ".bad" : ".bad.\(round)"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file + ".bad")) == kept[0])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file + ".bad.1")) == kept[1])
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file + ".bad.2")) == kept[2])
        // A store that is fine is opened, not moved.
        #expect(try SQLiteStore(path: directory.file, reset: true).setAside == nil)
    }

    @Test func aMissingDirectoryIsCreatedAndAnUnwritableOneIsACannotOpen() throws {
        let directory = Directory()
        defer { directory.remove() }
        _ = try SQLiteStore(path: directory.path + "/a/b/store.sqlite")
        #expect(FileManager.default.fileExists(atPath: directory.path + "/a/b/store.sqlite"))
        #expect {
            _ = try SQLiteStore(path: "/proc/musicgraph-store/store.sqlite")
        } throws: { error in (error as? SQLiteStoreError)?.code == .cannotOpen }
    }
}
