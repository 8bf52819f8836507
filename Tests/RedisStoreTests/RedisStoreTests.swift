import Foundation
import RedisStore
import RedisTestServer
import SharedState
import Synchronization
import Testing

/// RedisStore against a real `redis-server` of each test's own.
@Suite(.enabled(if: RedisServer.binary != nil, Comment(rawValue: RedisServer.missing)), .serialized)
struct RedisStoreTests {
    static func store(_ server: RedisServer, commandTimeoutMs: Int = 2_000) -> RedisStore {
        RedisStore(host: "127.0.0.1", port: server.port, commandTimeoutMs: commandTimeoutMs, reconnectDelayMs: 50)
    }

    @Test func entriesKeepTheirExpiryAndExpire() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        let now = WallClock.system.nowMs()
        let value: [UInt8] = [0, 1, 2, 255, 0, 10]
        try await store.putEntry("resp:k", StoredEntry(value: value, expiresAtMs: now + 60_000))
        #expect(try await store.entry("resp:k") == StoredEntry(value: value, expiresAtMs: now + 60_000))
        // A second store (another instance) sees it.
        let other = Self.store(server)
        #expect(try await other.entry("resp:k")?.value == value)
        // Gone once its instant has passed (however loaded the machine, waiting longer only helps).
        try await store.putEntry("resp:short", StoredEntry(value: value, expiresAtMs: WallClock.system.nowMs() + 100))
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await store.entry("resp:short") == nil)
        #expect(try redisCLI(server, ["EXISTS", "musicgraph:v1:resp:short"]).hasPrefix("0"))
        try await store.putEntry("old", StoredEntry(value: [1], expiresAtMs: now - 1))
        #expect(try await store.entry("old") == nil)
        try await store.putEntry("gone", StoredEntry(value: [1], expiresAtMs: now + 60_000))
        try await store.removeEntry("gone")
        #expect(try await store.entry("gone") == nil)
    }

    @Test func keysAreNamespacedAndForeignValuesAreMisses() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        try await store.putEntry("resp:a", StoredEntry(value: [7], expiresAtMs: WallClock.system.nowMs() + 60_000))
        _ = try await store.addToCounter("quota:youtube:2026-12-01", units: 100, limit: nil, expiresAtMs: .max / 2)
        let keys = try redisCLI(server, ["--raw", "KEYS", "*"]).split(separator: "\n").map(String.init).sorted()
        #expect(
            keys == [
                "musicgraph:v1:resp:a", "musicgraph:v1:{counters}expiries",
                "musicgraph:v1:{counters}quota:youtube:2026-12-01",
            ])
        // A value another program wrote (too short to hold an expiry): a miss, not an error.
        _ = try redisCLI(server, ["SET", "musicgraph:v1:resp:b", "xy"])
        #expect(try await store.entry("resp:b") == nil)
    }

    @Test func countersAddWithinTheirLimitAtomicallyAcrossStores() async throws {
        let server = try RedisServer()
        let stores = [Self.store(server), Self.store(server)]
        let end = WallClock.system.nowMs() + 60_000
        #expect(
            try await stores[0].addToCounter("q", units: 600, limit: 1_000, expiresAtMs: end)
                == CounterUpdate(applied: true, value: 600))
        #expect(
            try await stores[1].addToCounter("q", units: 500, limit: 1_000, expiresAtMs: end)
                == CounterUpdate(applied: false, value: 600))
        #expect(
            try await stores[1].addToCounter("q", units: -100, limit: nil, expiresAtMs: end)
                == CounterUpdate(applied: true, value: 500))
        #expect(try await stores[0].raiseCounter("q", to: 1_000, expiresAtMs: end) == 1_000)
        #expect(try await stores[1].raiseCounter("q", to: 10, expiresAtMs: end) == 1_000)
        #expect(try await stores[0].counter("q") == 1_000)
        #expect(try await stores[0].counter("none") == 0)

        let applied = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<200 {
                group.addTask {
                    (try? await stores[i % 2].addToCounter("p", units: 100, limit: 1_000, expiresAtMs: end))?.applied
                        ?? false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(applied == 10)
        #expect(try await stores[1].counter("p") == 1_000)
        // No TTL, so the fleet's volatile-lru can never evict a quota count; the expiry is a score.
        let ttl = Int(
            try redisCLI(server, ["PTTL", "musicgraph:v1:{counters}p"]).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(ttl == -1)
        let score = try redisCLI(server, ["ZSCORE", "musicgraph:v1:{counters}expiries", "musicgraph:v1:{counters}p"])
        #expect(Int64(score.trimmingCharacters(in: .whitespacesAndNewlines)) == end)
    }

    @Test func aCounterPastItsExpiryIsDroppedByTheNextUpdate() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        let now = WallClock.system.nowMs()
        _ = try await store.addToCounter("yesterday", units: 5, limit: nil, expiresAtMs: now + 300)
        _ = try await store.raiseCounter("today", to: 7, expiresAtMs: now + 60_000)
        #expect(try await store.counter("yesterday") == 5)
        try await Task.sleep(for: .milliseconds(400))
        _ = try await store.addToCounter("today", units: 1, limit: nil, expiresAtMs: now + 60_000)
        #expect(try await store.counter("yesterday") == 0)
        #expect(try await store.counter("today") == 8)
        let left = try redisCLI(server, ["ZRANGE", "musicgraph:v1:{counters}expiries", "0", "-1"])
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "musicgraph:v1:{counters}today")
    }

    @Test func everyKeyACounterScriptTouchesIsInOneClusterSlot() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        _ = try await store.addToCounter("quota:youtube:2026-12-01", units: 1, limit: nil, expiresAtMs: .max / 2)
        _ = try await store.addToCounter(
            "quota:youtube:2026-12-01:client:addr:192.0.2.1", units: 1, limit: 10, expiresAtMs: .max / 2)
        let keys = try redisCLI(server, ["--raw", "KEYS", "musicgraph:v1:{counters}*"]).split(separator: "\n")
        #expect(keys.count == 3)
        let slots = try Set(
            keys.map { try redisCLI(server, ["CLUSTER", "KEYSLOT", String($0)]) }.map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            })
        // CLUSTER KEYSLOT answers outside cluster mode too (Redis 7); older servers refuse it.
        if !slots.contains(where: { $0.contains("ERR") }) { #expect(slots.count == 1) }
    }

    @Test func rateChecksAreOneAllowanceForEveryStore() async throws {
        let server = try RedisServer()
        let stores = [Self.store(server), Self.store(server)]
        // 3 at once, then one per 10 s: whichever store is asked, the fourth is refused.
        var answers: [Bool] = []
        for i in 0..<4 {
            answers.append(
                try await stores[i % 2].rateLimit(
                    "client:key:web", emissionIntervalUs: 10_000_000, toleranceUs: 20_000_000
                )
                .admitted)
        }
        #expect(answers == [true, true, true, false])
        let refused = try await stores[0].rateLimit(
            "client:key:web", emissionIntervalUs: 10_000_000, toleranceUs: 20_000_000)
        #expect(!refused.admitted)
        #expect(refused.arrivalInUs > 20_000_000 && refused.arrivalInUs <= 30_000_000)
        // Another client has its own.
        #expect(
            try await stores[1].rateLimit("client:key:ci", emissionIntervalUs: 10_000_000, toleranceUs: 0).admitted)
        let ttl = try redisCLI(server, ["PTTL", "musicgraph:v1:rate:client:key:web"])
        #expect((Int(ttl.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0)
    }

    @Test func claimsHaveOneHolderUntilReleasedOrExpired() async throws {
        let server = try RedisServer()
        let (a, b) = (Self.store(server), Self.store(server))
        #expect(try await a.claim("c", holder: "A", ttlMs: 5_000))
        #expect(try await a.claim("c", holder: "A", ttlMs: 5_000))  // its own again
        #expect(try await b.claim("c", holder: "B", ttlMs: 5_000) == false)
        try await b.releaseClaim("c", holder: "B")  // not B's: nothing happens
        #expect(try await b.claim("c", holder: "B", ttlMs: 5_000) == false)

        let started = ContinuousClock.now
        async let released = b.awaitRelease("c", timeoutMs: 5_000)
        try await Task.sleep(for: .milliseconds(100))
        try await a.releaseClaim("c", holder: "A")
        #expect(try await released)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(try await b.claim("c", holder: "B", ttlMs: 5_000))

        // A holder that never lets go (it crashed) blocks nobody past its TTL.
        #expect(try await a.claim("d", holder: "crashed", ttlMs: 200))
        #expect(try await b.awaitRelease("d", timeoutMs: 5_000))
        #expect(try await b.claim("d", holder: "B", ttlMs: 1_000))
        #expect(try await b.awaitRelease("e", timeoutMs: 0))  // nothing held
        #expect(try await a.claim("f", holder: "A", ttlMs: 10_000))
        #expect(try await b.awaitRelease("f", timeoutMs: 50) == false)
    }

    @Test func documentsAreKeptByHash() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        let hash = String(repeating: "ab", count: 32)
        #expect(try await store.document(sha256: hash) == nil)
        try await store.putDocument(sha256: hash, text: "{ __typename }")
        #expect(try await Self.store(server).document(sha256: hash) == "{ __typename }")
    }

    @Test func aDeadRedisFailsEveryCallFastAndIsUsedAgainOnceBack() async throws {
        let server = try RedisServer()
        let transitions = Mutex<[Bool]>([])
        let store = RedisStore(
            host: "127.0.0.1", port: server.port, commandTimeoutMs: 2_000, reconnectDelayMs: 50,
            onStateChange: { connected, _ in transitions.withLock { $0.append(connected) } })
        _ = try await store.addToCounter("q", units: 1, limit: nil, expiresAtMs: .max / 2)
        server.stop()
        let started = ContinuousClock.now
        for _ in 0..<50 {
            await #expect(throws: SharedStoreError.self) { try await store.counter("q") }
        }
        #expect(ContinuousClock.now - started < .seconds(2))
        try server.restart()
        var back = false
        for _ in 0..<100 where !back {
            back = (try? await store.counter("q")) == 0  // a fresh server: the count is gone
            if !back { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(back)
        #expect(transitions.withLock { $0 } == [true, false, true])
    }

    @Test func aRedisThatStopsAnsweringTimesOutWithinTheBound() async throws {
        let server = try RedisServer()
        let store = Self.store(server, commandTimeoutMs: 200)
        #expect(try await store.counter("q") == 0)
        server.pause()
        defer { server.resume() }
        let started = ContinuousClock.now
        await #expect(throws: SharedStoreError.self) { try await store.counter("q") }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(150) && waited < .seconds(2))
        server.resume()
        var back = false
        for _ in 0..<100 where !back {
            back = (try? await store.counter("q")) == 0
            if !back { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(back)
    }

    @Test func aHungRedisBehindTheBreakerCostsOneTimeoutThenNothingAndIsUsedAgainOnceItAnswers() async throws {
        let server = try RedisServer()
        let store = CircuitBreakerStore(
            Self.store(server, commandTimeoutMs: 200), initialBackoffMs: 100, maxBackoffMs: 400)
        _ = try await store.addToCounter("q", units: 3, limit: nil, expiresAtMs: .max / 2)
        server.pause()
        defer { server.resume() }
        // The first call pays the bound once…
        let first = ContinuousClock.now
        await #expect(throws: SharedStoreError.self) { try await store.counter("q") }
        #expect(ContinuousClock.now - first < .seconds(2))
        #expect(store.isOpen)
        // …and the next ones nothing: without the breaker, 40 calls would wait 40 × 200 ms at least.
        let skipped = ContinuousClock.now
        for _ in 0..<40 {
            do {
                _ = try await store.entry("k")
                Issue.record("a hung Redis answered")
            } catch {
                #expect(error.message.contains("skipped while the redis store is failing"))
            }
            try await Task.sleep(for: .milliseconds(10))  // long enough for probes to start and fail
        }
        #expect(ContinuousClock.now - skipped < .seconds(4))
        #expect(store.skippedCalls >= 40)
        server.resume()
        // Back by itself: a probe in the background closes the breaker within a back-off or two.
        var value: Int?
        let resumed = ContinuousClock.now
        while value == nil, ContinuousClock.now - resumed < .seconds(10) {
            value = try? await store.counter("q")
            if value == nil { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(value == 3)
        #expect(!store.isOpen)
    }

    @Test func anUnreachableRedisIsAFailingStoreNotACrash() async throws {
        let port = try RedisServer.freePort()
        let store = RedisStore(host: "127.0.0.1", port: port, connectTimeoutMs: 200)
        await #expect(throws: SharedStoreError.self) { try await store.entry("x") }
        do {
            _ = try await store.entry("x")
        } catch {
            #expect(error.message.contains("127.0.0.1:\(port)"))
            #expect(error.message.contains("unreachable"))
        }
    }
}
