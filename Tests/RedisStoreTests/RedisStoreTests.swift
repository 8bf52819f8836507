import Foundation
import RedisStore
import SharedState
import Synchronization
import TestSupport
import Testing

/// RedisStore against a real `redis-server` of each test's own: the `SharedStore` contract, then
/// what is Redis's own (key names, counter expiries, rates, outages).
@Suite(.enabled(if: RedisServer.binary != nil, Comment(rawValue: RedisServer.missing)), .serialized)
struct RedisStoreTests {
    static func store(_ server: RedisServer, commandTimeoutMs: Int = 2_000, clock: WallClock = .system) -> RedisStore {
        RedisStore(
            host: "127.0.0.1", port: server.port, commandTimeoutMs: commandTimeoutMs, reconnectDelayMs: 50,
            clock: clock)
    }

    /// The `SharedStore` contract (Tests/TestSupport/StoreContract.swift) on a server of each
    /// check's own, the peer a second instance; time really passes (Redis expires claims and
    /// counters by its own clock).
    @Test(arguments: StoreContract.everyStore) func keepsTheStoreContract(_ check: StoreContract) async throws {
        try await check.run(
            StoreFactory(keepsTimeByItsClock: false) { clock in
                let server = try RedisServer()
                return StoreUnderTest(
                    store: Self.store(server, clock: clock), peer: Self.store(server, clock: clock),
                    close: { server.stop() })
            })
    }

    @Test func anExpiredEntryIsDroppedByRedisItself() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        // Gone once its instant has passed (however loaded the machine, waiting longer only helps).
        try await store.putEntry("resp:short", StoredEntry(value: [1, 2], expiresAtMs: WallClock.system.nowMs() + 100))
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await store.entry("resp:short") == nil)
        #expect(try redisCLI(server, ["EXISTS", "musicgraph:v1:resp:short"]).hasPrefix("0"))
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

    @Test func aCounterHasNoTTLItsExpiryIsAScore() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        let end = WallClock.system.nowMs() + 60_000
        #expect(try await store.addToCounter("p", units: 100, limit: 1_000, expiresAtMs: end).applied)
        // No TTL, so the fleet's volatile-lru can never evict a quota count; the expiry is a score.
        let ttl = Int(
            try redisCLI(server, ["PTTL", "musicgraph:v1:{counters}p"]).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(ttl == -1)
        let score = try redisCLI(server, ["ZSCORE", "musicgraph:v1:{counters}expiries", "musicgraph:v1:{counters}p"])
        #expect(Int64(score.trimmingCharacters(in: .whitespacesAndNewlines)) == end)
    }

    @Test func aCounterPastItsExpiryLeavesTheSetOfExpiriesWithTheNextUpdate() async throws {
        let server = try RedisServer()
        let store = Self.store(server)
        let now = WallClock.system.nowMs()
        _ = try await store.addToCounter("yesterday", units: 5, limit: nil, expiresAtMs: now + 300)
        try await Task.sleep(for: .milliseconds(400))
        _ = try await store.addToCounter("today", units: 1, limit: nil, expiresAtMs: now + 60_000)
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
