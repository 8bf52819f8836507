import Foundation
import SharedState
import TestSupport
import Testing

@testable import SharedStateSQLite

/// The store file on disk: its owner's alone, and an expired answer gone from every byte of it.
@Suite struct StoreFilePrivacyTests {
    typealias Directory = SQLiteStoreTests.Directory

    /// The permission bits of `path` (nil when it is missing).
    static func mode(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_mode & 0o7777)
    }

    /// The files of the store at `file` (itself, `-wal`, `-shm`) that hold `marker`'s bytes.
    static func holding(_ marker: String, store file: String) -> [String] {
        ["", "-wal", "-shm"].filter { suffix in
            guard let bytes = FileManager.default.contents(atPath: file + suffix) else { return false }
            return bytes.range(of: Data(marker.utf8)) != nil
        }
    }

    @Test func theDirectoriesItMakesAndTheFileItsWALAndSHMAreTheOwnersAlone() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = directory.path + "/inner/store.sqlite"
        let store = try SQLiteStore(path: file)
        try await store.putEntry("u:a", StoredEntry(value: Array("answer".utf8), expiresAtMs: .max))
        #expect(Self.mode(directory.path) == 0o700)
        #expect(Self.mode(directory.path + "/inner") == 0o700)
        // Open, in WAL mode, with a write done: all three files are there.
        #expect(Self.mode(file) == 0o600)
        #expect(Self.mode(file + "-wal") == 0o600)
        #expect(Self.mode(file + "-shm") == 0o600)
    }

    @Test func filesOfOursThatOthersCouldReadAreMadePrivateOnOpen() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let first = try SQLiteStore(path: directory.file)
        try await first.putEntry("u:a", StoredEntry(value: Array("answer".utf8), expiresAtMs: .max))
        for suffix in ["", "-wal", "-shm"] { #expect(chmod(directory.file + suffix, 0o644) == 0) }
        // An existing directory is not ours to change (it may be /tmp).
        #expect(chmod(directory.path, 0o755) == 0)
        let second = try SQLiteStore(path: directory.file)
        #expect(try await second.entry("u:a")?.value == Array("answer".utf8))
        for suffix in ["", "-wal", "-shm"] { #expect(Self.mode(directory.file + suffix) == 0o600, "\(suffix)") }
        #expect(Self.mode(directory.path) == 0o755)
    }

    @Test func anExpiredEntryIsPurgedFromTheFileAndItsWALAMinuteAfterTheLastPurge() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let time = TestClock()
        let store = try SQLiteStore(path: directory.file, clock: time.clock)
        let now = time.clock.nowMs()
        // A small value and one spilling onto overflow pages, the marker in keys and values.
        let small = "EXPIRED-MARKER-small-4b1d"
        let large = "EXPIRED-MARKER-large-9c2e"
        try await store.putEntry("u:" + small, StoredEntry(value: Array(small.utf8), expiresAtMs: now + 5_000))
        try await store.putEntry(
            "u:large", StoredEntry(value: Array(String(repeating: large, count: 800).utf8), expiresAtMs: now + 5_000))
        try await store.putEntry(
            "u:live", StoredEntry(value: Array("LIVE-MARKER-7a3f".utf8), expiresAtMs: now + 600_000))
        _ = try await store.addToCounter("quota:COUNTER-MARKER-5e6f", units: 1, limit: nil, expiresAtMs: now + 5_000)
        #expect(Self.holding(small, store: directory.file) != [])
        #expect(Self.holding(large, store: directory.file) != [])

        // Expired, but the last purge (on open) is less than a minute old: nothing yet.
        time.advance(ms: 30_000)
        try await store.putEntry("u:b", StoredEntry(value: [1], expiresAtMs: now + 600_000))
        #expect(try await store.usage().entries == 4)

        time.advance(ms: 30_000)
        try await store.putEntry("u:c", StoredEntry(value: [2], expiresAtMs: now + 600_000))
        #expect(try await store.usage().entries == 3)
        for marker in [small, large, "COUNTER-MARKER-5e6f"] {
            #expect(Self.holding(marker, store: directory.file) == [], "\(marker)")
        }
        #expect(Self.holding("LIVE-MARKER-7a3f", store: directory.file) != [])
        #expect(try await store.entry("u:live")?.value == Array("LIVE-MARKER-7a3f".utf8))
    }

    @Test func anExpiredEntryIsPurgedWhenTheStoreIsOpened() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let time = TestClock()
        let marker = "EXPIRED-ON-OPEN-MARKER-3d8a"
        do {
            let store = try SQLiteStore(path: directory.file, clock: time.clock)
            let now = time.clock.nowMs()
            try await store.putEntry("u:old", StoredEntry(value: Array(marker.utf8), expiresAtMs: now + 1_000))
            try await store.putEntry("u:live", StoredEntry(value: [7], expiresAtMs: now + 600_000))
        }
        // Closed: the entry is on disk, expired a second later.
        #expect(Self.holding(marker, store: directory.file) != [])
        time.advance(ms: 2_000)
        let reopened = try SQLiteStore(path: directory.file, clock: time.clock)
        #expect(Self.holding(marker, store: directory.file) == [])
        #expect(try await reopened.usage().entries == 1)
        #expect(try await reopened.entry("u:live")?.value == [7])
    }
}
