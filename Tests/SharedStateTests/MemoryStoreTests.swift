import SharedState
import Testing

@Suite struct MemoryStoreTests {
    @Test func entriesExpireAndTheLeastRecentlyUsedGoFirst() async throws {
        let time = TestClock()
        let store = MemoryStore(maxEntryBytes: 29, clock: time.clock)  // an entry here weighs 10: 9 + its key
        let now = time.clock.nowMs()
        try await store.putEntry("a", StoredEntry(value: Array(repeating: 1, count: 9), expiresAtMs: now + 1_000))
        try await store.putEntry("b", StoredEntry(value: Array(repeating: 2, count: 9), expiresAtMs: now + 5_000))
        #expect(try await store.entry("a")?.value.count == 9)  // a is now the most recently used
        try await store.putEntry("c", StoredEntry(value: Array(repeating: 3, count: 9), expiresAtMs: now + 5_000))
        #expect(try await store.entry("b") == nil)  // 30 bytes > 29: b (the oldest use) made room
        #expect(try await store.entry("a") != nil)
        time.advance(ms: 1_000)
        #expect(try await store.entry("a") == nil)  // expired at its instant
        #expect(try await store.entry("c")?.value == Array(repeating: 3, count: 9))
        try await store.removeEntry("c")
        #expect(try await store.entry("c") == nil)
        // Larger than the whole store, or already expired: not kept.
        try await store.putEntry("big", StoredEntry(value: Array(repeating: 0, count: 29), expiresAtMs: now + 9_000))
        try await store.putEntry("old", StoredEntry(value: [1], expiresAtMs: now))
        #expect(try await store.entry("big") == nil)
        #expect(try await store.entry("old") == nil)
    }

    @Test func countersAddWithinTheirLimitAndExpire() async throws {
        let time = TestClock()
        let store = MemoryStore(clock: time.clock)
        let end = time.clock.nowMs() + 60_000
        #expect(
            try await store.addToCounter("q", units: 600, limit: 1_000, expiresAtMs: end)
                == .init(applied: true, value: 600))
        #expect(
            try await store.addToCounter("q", units: 500, limit: 1_000, expiresAtMs: end)
                == .init(applied: false, value: 600))
        #expect(
            try await store.addToCounter("q", units: 400, limit: 1_000, expiresAtMs: end)
                == .init(applied: true, value: 1_000))
        #expect(
            try await store.addToCounter("q", units: -100, limit: nil, expiresAtMs: end)
                == .init(applied: true, value: 900))
        #expect(try await store.raiseCounter("q", to: 1_000, expiresAtMs: end) == 1_000)
        #expect(try await store.raiseCounter("q", to: 10, expiresAtMs: end) == 1_000)
        #expect(try await store.counter("q") == 1_000)
        #expect(try await store.counter("other") == 0)
        time.advance(ms: 60_000)
        #expect(try await store.counter("q") == 0)
    }

    @Test func concurrentAddsNeverPassTheLimit() async throws {
        let store = MemoryStore()
        let applied = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    (try? await store.addToCounter("q", units: 100, limit: 1_000, expiresAtMs: .max))?.applied ?? false
                }
            }
            var count = 0
            for await ok in group where ok { count += 1 }
            return count
        }
        #expect(applied == 10)
        #expect(try await store.counter("q") == 1_000)
    }

    @Test func aClaimHasOneHolderUntilReleasedOrExpired() async throws {
        let time = TestClock()
        let store = MemoryStore(clock: time.clock)
        #expect(try await store.claim("k", holder: "A", ttlMs: 1_000))
        #expect(try await !store.claim("k", holder: "B", ttlMs: 1_000))
        #expect(try await !store.awaitRelease("k", timeoutMs: 0))
        try await store.releaseClaim("k", holder: "B")  // not B's: nothing happens
        #expect(try await !store.claim("k", holder: "B", ttlMs: 1_000))
        try await store.releaseClaim("k", holder: "A")
        #expect(try await store.awaitRelease("k", timeoutMs: 0))
        #expect(try await store.claim("k", holder: "B", ttlMs: 1_000))
        time.advance(ms: 1_000)  // B crashed: its claim lapses with its TTL
        #expect(try await store.claim("k", holder: "C", ttlMs: 1_000))
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
