import SharedState
import Testing

/// A store made for one contract check: `store`, a `peer` on the same data (a second connection
/// or instance; the store itself for one that lives in one process), and `close`, which the
/// check calls when it is done (to remove a file, stop a server).
public struct StoreUnderTest: Sendable {
    public let store: any SharedStore
    public let peer: any SharedStore
    public let close: @Sendable () -> Void

    public init(store: any SharedStore, peer: (any SharedStore)? = nil, close: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.peer = peer ?? store
        self.close = close
    }
}

/// How a check gets a fresh store of the kind under test, on the clock it gives.
public struct StoreFactory: Sendable {
    /// False when part of the store's time is not its clock's (Redis expires claims and
    /// counters by its own): time then really passes, rather than a `TestClock` moving.
    public let keepsTimeByItsClock: Bool
    public let make: @Sendable (WallClock) throws -> StoreUnderTest

    public init(keepsTimeByItsClock: Bool = true, make: @escaping @Sendable (WallClock) throws -> StoreUnderTest) {
        self.keepsTimeByItsClock = keepsTimeByItsClock
        self.make = make
    }
}

/// What every `SharedStore` (memory, SQLite, Redis) must do, written once: each store's tests
/// run it with `@Test(arguments: StoreContract.everyStore)` and a `StoreFactory`. How a store
/// bounds itself (eviction), keeps its data (files, keys) or fails stays in its own tests.
public enum StoreContract: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case entriesComeBackUntilTheirExpiry
    case valuesComeBackByteForByte
    case aClaimHasOneHolderUntilReleasedOrExpired
    case aWaiterWakesWhenTheHolderReleasesOrItsClaimLapses
    case countersAddWithinTheirLimitAndRaise
    case concurrentAddsNeverPassTheLimit
    case anExpiredCounterIsGoneByTheNextUpdate
    /// Not Redis, which drops an expired counter at the next update, not when it is read.
    case anExpiredCounterReadsZeroAndStartsAgainFromZero
    case documentsAreKeptByHash

    /// The checks every store passes.
    public static let everyStore = allCases.filter { $0 != .anExpiredCounterReadsZeroAndStartsAgainFromZero }

    public var testDescription: String { rawValue }

    /// How long the short-lived entries, claims and counters of the checks live.
    static let lapseMs: Int64 = 1_000

    /// Runs this check on a fresh store from `factory`.
    public func run(_ factory: StoreFactory) async throws {
        // Waits that time out run on the system clock whatever the store.
        let waits = self == .aWaiterWakesWhenTheHolderReleasesOrItsClaimLapses
        let time = factory.keepsTimeByItsClock && !waits ? TestClock() : nil
        let subject = try factory.make(time?.clock ?? .system)
        defer { subject.close() }
        let now = { time?.clock.nowMs() ?? WallClock.system.nowMs() }
        let pass = { (ms: Int64) async throws in
            if let time { time.advance(ms: ms) } else { try await Task.sleep(for: .milliseconds(ms + 100)) }
        }
        switch self {
        case .entriesComeBackUntilTheirExpiry: try await Self.entries(subject, now: now, pass: pass)
        case .valuesComeBackByteForByte: try await Self.bytes(subject)
        case .aClaimHasOneHolderUntilReleasedOrExpired: try await Self.claims(subject, pass: pass)
        case .aWaiterWakesWhenTheHolderReleasesOrItsClaimLapses: try await Self.waiters(subject)
        case .countersAddWithinTheirLimitAndRaise: try await Self.counters(subject, now: now)
        case .concurrentAddsNeverPassTheLimit: try await Self.concurrentAdds(subject, now: now)
        case .anExpiredCounterIsGoneByTheNextUpdate: try await Self.counterExpiry(subject, now: now, pass: pass)
        case .anExpiredCounterReadsZeroAndStartsAgainFromZero:
            try await Self.counterRestart(subject, now: now, pass: pass)
        case .documentsAreKeptByHash: try await Self.documents(subject)
        }
    }

    static func entries(
        _ subject: StoreUnderTest, now: () -> Int64, pass: (Int64) async throws -> Void
    ) async throws {
        let (store, peer) = (subject.store, subject.peer)
        let start = now()
        let value: [UInt8] = [0, 1, 2, 255, 0, 10]
        try await store.putEntry("a", StoredEntry(value: value, expiresAtMs: start + lapseMs))
        try await store.putEntry("c", StoredEntry(value: Array(repeating: 3, count: 9), expiresAtMs: start + 60_000))
        #expect(try await store.entry("a") == StoredEntry(value: value, expiresAtMs: start + lapseMs))
        #expect(try await peer.entry("a")?.value == value)  // what one writes the other reads at once
        #expect(try await store.entry("missing") == nil)
        try await store.putEntry("b", StoredEntry(value: [1], expiresAtMs: start + 60_000))
        try await store.putEntry("b", StoredEntry(value: [2], expiresAtMs: start + 60_000))  // replaces the first
        #expect(try await peer.entry("b")?.value == [2])
        try await store.removeEntry("b")
        #expect(try await store.entry("b") == nil)
        #expect(try await peer.entry("b") == nil)
        try await pass(lapseMs)
        #expect(try await store.entry("a") == nil)  // expired at its instant
        #expect(try await store.entry("c")?.value == Array(repeating: 3, count: 9))
        // Already expired: not kept.
        try await store.putEntry("old", StoredEntry(value: [1], expiresAtMs: now()))
        try await store.putEntry("older", StoredEntry(value: [1], expiresAtMs: now() - 1))
        #expect(try await store.entry("old") == nil)
        #expect(try await store.entry("older") == nil)
    }

    static func bytes(_ subject: StoreUnderTest) async throws {
        let store = subject.store
        let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await store.putEntry("empty", StoredEntry(value: [], expiresAtMs: .max))
        try await store.putEntry("large\n\u{0}key", StoredEntry(value: large, expiresAtMs: .max))
        #expect(try await store.entry("empty") == StoredEntry(value: [], expiresAtMs: .max))
        #expect(try await store.entry("large\n\u{0}key")?.value == large)
    }

    static func claims(_ subject: StoreUnderTest, pass: (Int64) async throws -> Void) async throws {
        let (store, other) = (subject.store, subject.peer)
        let ttl = Int(lapseMs)
        #expect(try await store.claim("k", holder: "A", ttlMs: ttl))
        #expect(try await !other.claim("k", holder: "B", ttlMs: ttl))
        #expect(try await !other.awaitRelease("k", timeoutMs: 0))
        try await other.releaseClaim("k", holder: "B")  // not B's: nothing happens
        #expect(try await !other.claim("k", holder: "B", ttlMs: ttl))
        #expect(try await store.claim("k", holder: "A", ttlMs: ttl))  // the holder renews its own
        try await store.releaseClaim("k", holder: "A")
        #expect(try await other.awaitRelease("k", timeoutMs: 0))
        #expect(try await other.claim("k", holder: "B", ttlMs: ttl))
        try await pass(lapseMs)  // B crashed: its claim lapses with its TTL
        #expect(try await store.claim("k", holder: "C", ttlMs: ttl))
        #expect(try await other.awaitRelease("free", timeoutMs: 0))  // nothing held
    }

    static func waiters(_ subject: StoreUnderTest) async throws {
        let (store, other) = (subject.store, subject.peer)
        #expect(try await store.claim("k", holder: "A", ttlMs: 60_000))
        let started = ContinuousClock.now
        async let released = other.awaitRelease("k", timeoutMs: 10_000)
        try await Task.sleep(for: .milliseconds(50))
        try await store.releaseClaim("k", holder: "A")
        #expect(try await released)
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(try await store.claim("k", holder: "A", ttlMs: 60_000))
        #expect(try await !other.awaitRelease("k", timeoutMs: 30))  // held throughout: the timeout answers
        // A holder that never lets go (it crashed) blocks nobody past its TTL.
        #expect(try await store.claim("d", holder: "crashed", ttlMs: 200))
        #expect(try await other.awaitRelease("d", timeoutMs: 5_000))
        #expect(try await other.claim("d", holder: "B", ttlMs: 1_000))
    }

    static func counters(_ subject: StoreUnderTest, now: () -> Int64) async throws {
        let (store, other) = (subject.store, subject.peer)
        let end = now() + 60_000
        #expect(
            try await store.addToCounter("q", units: 600, limit: 1_000, expiresAtMs: end)
                == .init(applied: true, value: 600))
        #expect(
            try await other.addToCounter("q", units: 500, limit: 1_000, expiresAtMs: end)
                == .init(applied: false, value: 600))
        #expect(
            try await store.addToCounter("q", units: 400, limit: 1_000, expiresAtMs: end)
                == .init(applied: true, value: 1_000))
        #expect(
            try await other.addToCounter("q", units: -100, limit: nil, expiresAtMs: end)
                == .init(applied: true, value: 900))
        #expect(try await store.raiseCounter("q", to: 1_000, expiresAtMs: end) == 1_000)
        #expect(try await other.raiseCounter("q", to: 10, expiresAtMs: end) == 1_000)
        #expect(try await store.counter("q") == 1_000)
        #expect(try await other.counter("q") == 1_000)
        #expect(try await store.counter("other") == 0)
        #expect(
            try await store.addToCounter("new", units: 2_000, limit: 1_000, expiresAtMs: end)
                == .init(applied: false, value: 0))
    }

    static func concurrentAdds(_ subject: StoreUnderTest, now: () -> Int64) async throws {
        let stores = [subject.store, subject.peer]
        let end = now() + 60_000
        let applied = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                let store = stores[index % 2]
                group.addTask {
                    (try? await store.addToCounter("q", units: 100, limit: 1_000, expiresAtMs: end))?.applied ?? false
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(applied == 10)
        #expect(try await stores[0].counter("q") == 1_000)
        #expect(try await stores[1].counter("q") == 1_000)
    }

    static func counterExpiry(
        _ subject: StoreUnderTest, now: () -> Int64, pass: (Int64) async throws -> Void
    ) async throws {
        let store = subject.store
        let start = now()
        #expect(
            try await store.addToCounter("yesterday", units: 5, limit: nil, expiresAtMs: start + lapseMs)
                == .init(applied: true, value: 5))
        #expect(try await store.raiseCounter("today", to: 7, expiresAtMs: start + 60_000) == 7)
        #expect(try await store.counter("yesterday") == 5)
        try await pass(lapseMs)
        #expect(
            try await store.addToCounter("today", units: 1, limit: nil, expiresAtMs: start + 60_000)
                == .init(applied: true, value: 8))
        #expect(try await store.counter("yesterday") == 0)
        #expect(try await subject.peer.counter("yesterday") == 0)
        #expect(try await store.counter("today") == 8)
    }

    static func counterRestart(
        _ subject: StoreUnderTest, now: () -> Int64, pass: (Int64) async throws -> Void
    ) async throws {
        let store = subject.store
        let end = now() + lapseMs
        #expect(
            try await store.addToCounter("q", units: 1_000, limit: 1_000, expiresAtMs: end)
                == .init(applied: true, value: 1_000))
        #expect(try await store.raiseCounter("r", to: 700, expiresAtMs: end) == 700)
        try await pass(lapseMs)
        #expect(try await store.counter("q") == 0)  // read alone, no update needed
        // A new day's counter starts from 0, not from the expired value.
        #expect(
            try await store.addToCounter("q", units: 5, limit: 1_000, expiresAtMs: end + 60_000)
                == .init(applied: true, value: 5))
        #expect(try await store.raiseCounter("r", to: 3, expiresAtMs: end + 60_000) == 3)
    }

    static func documents(_ subject: StoreUnderTest) async throws {
        let hash = String(repeating: "ab", count: 32)
        #expect(try await subject.store.document(sha256: hash) == nil)
        try await subject.store.putDocument(sha256: hash, text: "{ __typename }")
        #expect(try await subject.store.document(sha256: hash) == "{ __typename }")
        #expect(try await subject.peer.document(sha256: hash) == "{ __typename }")
        #expect(try await subject.store.document(sha256: String(repeating: "cd", count: 32)) == nil)
    }
}
