import SharedState
import TestSupport
import Testing

@Suite struct MemoryStoreTests {
    /// The `SharedStore` contract (Tests/TestSupport/StoreContract.swift): one store is its own peer.
    @Test(arguments: StoreContract.allCases) func keepsTheStoreContract(_ check: StoreContract) async throws {
        try await check.run(StoreFactory { clock in StoreUnderTest(store: MemoryStore(clock: clock)) })
    }

    @Test func theLeastRecentlyUsedEntriesGoFirst() async throws {
        let time = TestClock()
        let store = MemoryStore(maxEntryBytes: 29, clock: time.clock)  // an entry here weighs 10: 9 + its key
        let now = time.clock.nowMs()
        try await store.putEntry("a", StoredEntry(value: Array(repeating: 1, count: 9), expiresAtMs: now + 1_000))
        try await store.putEntry("b", StoredEntry(value: Array(repeating: 2, count: 9), expiresAtMs: now + 5_000))
        #expect(try await store.entry("a")?.value.count == 9)  // a is now the most recently used
        try await store.putEntry("c", StoredEntry(value: Array(repeating: 3, count: 9), expiresAtMs: now + 5_000))
        #expect(try await store.entry("b") == nil)  // 30 bytes > 29: b (the oldest use) made room
        #expect(try await store.entry("a") != nil)
        #expect(try await store.entry("c")?.value == Array(repeating: 3, count: 9))
        // Larger than the whole store: not kept.
        try await store.putEntry("big", StoredEntry(value: Array(repeating: 0, count: 29), expiresAtMs: now + 9_000))
        #expect(try await store.entry("big") == nil)
    }

    @Test func documentsAreBoundedInNumber() async throws {
        let store = MemoryStore(maxDocuments: 2)
        try await store.putDocument(sha256: "1", text: "{ a }")
        try await store.putDocument(sha256: "2", text: "{ b }")
        #expect(try await store.document(sha256: "1") == "{ a }")  // 1 is now the most recently used
        try await store.putDocument(sha256: "3", text: "{ c }")
        #expect(try await store.document(sha256: "2") == nil)
        #expect(try await store.document(sha256: "1") == "{ a }")
        #expect(try await store.document(sha256: "3") == "{ c }")
    }
}
