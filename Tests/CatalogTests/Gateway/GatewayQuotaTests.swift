import Foundation
import GraphQL
import SharedState
import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// The daily quota ledger: the units sent per provider per provider day, and a call that
    /// would cross the limit refused before it is sent.
    @Suite struct GatewayDailyQuota {
        static func youTubeSearches(_ h: GatewayHarness) async throws -> Int {
            try await h.loopback.requestLog().entries.filter { $0.path == "/youtube/v3/search" }.count
        }

        static func quotaErrors(_ response: GatewayResponse) -> [GraphQLError] {
            response.result.errors.filter { $0.extensions["code"] == .string("UPSTREAM_QUOTA_EXCEEDED") }
        }

        @Test func atMostTenSearchesReachYouTubeOnAThousandUnitDay() async throws {
            try await GatewayHarness.configured({ $0.dailyQuota = [.youTube: 1_000] }).run { h in
                let first = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(try await Self.youTubeSearches(h) == 10)
                #expect(first.result.data?["artist", "name"] == .string("Iron Maiden"))
                let refused = Self.quotaErrors(first)
                #expect(refused.count == first.result.errors.count)
                #expect(refused.count == 213 - GatewayBudget.tracksWithAVideo(first))
                for error in refused {
                    #expect(error.path?.last == .key("videos"))
                    #expect(error.extensions["service"] == .string("youtube"))
                    #expect(error.extensions["dailyQuota"] == .int(1_000))
                    #expect(error.extensions["used"] == .int(1_000))
                    #expect(
                        error.extensions["resetsAt"]
                            == .string(QuotaDay.of(.youTube, atMs: WallClock.system.nowMs()).resetsAt))
                }
                #expect(first.quota == [QuotaUsage(service: .youTube, used: 1_000, limit: 1_000)])
                #expect(
                    first.extensions["quota"]
                        == .object(
                            JSONObject([
                                ("youtube", .object(JSONObject([("used", .int(1_000)), ("limit", .int(1_000))])))
                            ])))

                // However many more ask, nothing more reaches YouTube today; other providers still answer.
                for name in ["Thunderstruck", "Back in Black", "Hells Bells"] {
                    let later = try await h.query(
                        #"{ artist(name: "AC/DC") { name } videos(query: "\#(name)", first: 1) { title } }"#)
                    #expect(later.result.data == .null)  // `videos` is non-null: its error nulls the root
                    #expect(Self.quotaErrors(later).first?.path == [.key("videos")])
                }
                let track = try await h.query(
                    #"{ track(id: "itunes:track:300001") { title videos(first: 1) { title } } }"#)
                #expect(track.result.data?["track", "title"] != nil)
                #expect(Self.quotaErrors(track).first?.path == [.key("track"), .key("videos")])
                #expect(try await Self.youTubeSearches(h) == 10)
            }
        }

        @Test func youTubeSayingItsQuotaIsSpentStopsEveryLaterCall() async throws {
            try await GatewayHarness.configured({ $0.dailyQuota = [.youTube: 10_000] }).run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search":{"status":403}}"#)
                let spent = try await h.query(#"{ videos(query: "Back in Black", first: 1) { title } }"#)
                #expect(spent.result.errors.first?.extensions["code"] == .string("UPSTREAM_QUOTA_EXCEEDED"))
                #expect(spent.result.errors.first?.extensions["status"] == .int(403))  // YouTube's own answer
                #expect(spent.quota == [QuotaUsage(service: .youTube, used: 10_000, limit: 10_000)])
                try await h.loopback.setFaults("{}")
                let later = try await h.query(#"{ videos(query: "Thunderstruck", first: 1) { title } }"#)
                #expect(later.result.errors.first?.extensions["code"] == .string("UPSTREAM_QUOTA_EXCEEDED"))
                #expect(later.result.errors.first?.extensions["dailyQuota"] == .int(10_000))  // the ledger's refusal
                #expect(try await h.loopback.requestLog().entries.count == 1)
            }
        }

        @Test func unlimitedProvidersAreNotCountedAndRefusedDocumentsShowTheQuota() async throws {
            try await GatewayHarness.configured({ $0.dailyQuota = [.youTube: 500] }).run { h in
                _ = try await h.query(#"{ videos(query: "Back in Black", first: 1) { title } }"#)
                _ = try await h.query(#"{ artist(name: "AC/DC") { name } }"#)
                #expect(h.gateway.ledger.usage() == [QuotaUsage(service: .youTube, used: 100, limit: 500)])
                #expect(
                    h.gateway.notExecutedExtensions()["quota"]
                        == .object(
                            JSONObject([("youtube", .object(JSONObject([("used", .int(100)), ("limit", .int(500))])))]))
                )
                #expect(
                    h.gateway.metricsText().contains(#"musicgraph_upstream_quota_remaining{service="youtube"} 400"#))
            }
        }
    }
}

@Suite struct QuotaLedgerTests {
    /// 2026-03-07 23:30 in Los Angeles (PST, UTC−8): half an hour before the day the clocks spring forward.
    static let lateSaturday: Int64 = 1_772_955_000_000

    @Test func youTubesDayEndsAtMidnightPacificTimeThroughDaylightSaving() {
        let saturday = QuotaDay.of(.youTube, atMs: Self.lateSaturday)
        #expect(saturday.label == "2026-03-07")
        #expect(saturday.resetsAt == "2026-03-08T08:00:00Z")
        let sunday = QuotaDay.of(.youTube, atMs: saturday.endMs)
        #expect(sunday.label == "2026-03-08")
        #expect(sunday.endMs - sunday.startMs == 23 * 3_600_000)  // 02:00 PST became 03:00 PDT
        #expect(sunday.resetsAt == "2026-03-09T07:00:00Z")
        // The other providers count in UTC days: at the same instant it is already Sunday there.
        #expect(QuotaDay.of(.tmdb, atMs: Self.lateSaturday).label == "2026-03-08")
        #expect(QuotaDay.of(.tmdb, atMs: Self.lateSaturday).resetsAt == "2026-03-09T00:00:00Z")
    }

    @Test func aReservationThatWouldCrossTheLimitIsRefusedUntilTheDayEnds() async {
        let time = ManualClock(Self.lateSaturday)
        let ledger = QuotaLedger(
            limits: [.youTube: 250, .tmdb: 0], store: MemoryStore(clock: time.clock), clock: time.clock,
            traits: UpstreamTraits.builtIn)
        let day = QuotaDay.of(.youTube, atMs: Self.lateSaturday)
        #expect(await ledger.reserve(.youTube, units: 100) == .granted(day: day))
        #expect(await ledger.reserve(.youTube, units: 100) == .granted(day: day))
        #expect(await ledger.reserve(.youTube, units: 100) == .refused(used: 200, limit: 250, day: day))
        #expect(await ledger.reserve(.youTube, units: 1) == .granted(day: day))  // 50 units are left
        await ledger.refund(.youTube, units: 1, day: day)
        #expect(await ledger.reserve(.tmdb, units: 1_000_000) == .unlimited)
        #expect(ledger.usage() == [QuotaUsage(service: .youTube, used: 200, limit: 250)])
        await ledger.markExhausted(.youTube)
        #expect(ledger.usage() == [QuotaUsage(service: .youTube, used: 250, limit: 250)])
        #expect(await ledger.reserve(.youTube, units: 1) == .refused(used: 250, limit: 250, day: day))
        time.advance(ms: 30 * 60_000)  // midnight in Los Angeles
        #expect(ledger.usage() == [QuotaUsage(service: .youTube, used: 0, limit: 250)])
        #expect(await ledger.reserve(.youTube, units: 100) == .granted(day: QuotaDay.of(.youTube, atMs: day.endMs)))
    }

    @Test func twoLedgersOnOneStoreShareTheDay() async {
        let store = MemoryStore()
        let a = QuotaLedger(limits: [.youTube: 300], store: store, traits: UpstreamTraits.builtIn)
        let b = QuotaLedger(limits: [.youTube: 300], store: store, traits: UpstreamTraits.builtIn)
        var granted = 0
        for ledger in [a, b, a, b, a, b] {
            if case .granted = await ledger.reserve(.youTube, units: 100) { granted += 1 }
        }
        #expect(granted == 3)
        await a.refresh()
        #expect(a.usage().first?.used == 300)
    }

    @Test func aReplyThatComesBackLateDoesNotLowerTheCountSeen() async {
        let time = ManualClock(Self.lateSaturday)
        let store = LateFirstReplyStore(clock: time.clock)
        let ledger = QuotaLedger(
            limits: [.youTube: 1_000], store: store, clock: time.clock, traits: UpstreamTraits.builtIn)
        // The first reservation is counted (100) but its reply is held back until the second
        // one (200) has come back, as concurrent replies from SQLite or Redis can be.
        async let first = ledger.reserve(.youTube, units: 100)
        await store.firstApplied.wait()
        _ = await ledger.reserve(.youTube, units: 100)
        store.releaseFirst()
        _ = await first
        #expect(ledger.usage() == [QuotaUsage(service: .youTube, used: 200, limit: 1_000)])
        // A refund's reply lowers it again.
        let day = QuotaDay.of(.youTube, atMs: Self.lateSaturday)
        await ledger.refund(.youTube, units: 100, day: day)
        #expect(ledger.usage() == [QuotaUsage(service: .youTube, used: 100, limit: 1_000)])
    }

    @Test func aFailingStoreFallsBackToTheLedgersOwnCount() async {
        let ledger = QuotaLedger(limits: [.youTube: 200], store: FailingStore(), traits: UpstreamTraits.builtIn)
        #expect(await ledger.reserve(.youTube, units: 100) != .unlimited)
        if case .refused = await ledger.reserve(.youTube, units: 100) { Issue.record("the second 100 fit in 200") }
        guard case .refused(let used, let limit, _) = await ledger.reserve(.youTube, units: 100) else {
            Issue.record("an outage must not lift the limit")
            return
        }
        #expect(used == 200)
        #expect(limit == 200)
    }

    /// Found by a black-box fleet run: two gateways on one Redis spent 8 searches against a
    /// 300-unit day, because what each granted while Redis hung never reached the shared count.
    @Test func unitsGrantedInAnOutageCountOnceTheStoreIsBack() async throws {
        let store = OutageStore()
        let a = QuotaLedger(limits: [.youTube: 300], store: store, traits: UpstreamTraits.builtIn)
        let b = QuotaLedger(limits: [.youTube: 300], store: store, traits: UpstreamTraits.builtIn)
        #expect(await a.reserve(.youTube, units: 100) != .unlimited)
        store.down.store(true, ordering: .sequentiallyConsistent)
        var grantedInOutage = 0
        for ledger in [a, a, a, b, b, b] {
            if case .granted = await ledger.reserve(.youTube, units: 100) { grantedInOutage += 1 }
        }
        #expect(grantedInOutage == 5)  // A: 200 on its 100; B: 300 on the 0 it knew (the documented degraded mode)
        store.down.store(false, ordering: .sequentiallyConsistent)
        for ledger in [a, b, a, b] {
            guard case .refused = await ledger.reserve(.youTube, units: 100) else {
                Issue.record("a day spent in the outage still granted a search")
                continue
            }
        }
        let day = QuotaDay.of(.youTube, atMs: WallClock.system.nowMs())
        #expect(try await store.inner.counter(QuotaLedger.counterKey(.youTube, day)) == 600)
        #expect(a.usage().first?.used == 600)
        #expect(b.usage().first?.used == 600)
    }

    @Test func aRefundInAnOutageLowersTheSharedCountOnceTheStoreIsBack() async throws {
        let store = OutageStore()
        let ledger = QuotaLedger(limits: [.youTube: 1_000], store: store, traits: UpstreamTraits.builtIn)
        guard case .granted(let day) = await ledger.reserve(.youTube, units: 100) else {
            Issue.record("not granted")
            return
        }
        store.down.store(true, ordering: .sequentiallyConsistent)
        await ledger.refund(.youTube, units: 100, day: day)
        store.down.store(false, ordering: .sequentiallyConsistent)
        await ledger.loadStoredCounts()
        #expect(try await store.inner.counter(QuotaLedger.counterKey(.youTube, day)) == 0)
    }

    /// A process that spends nothing itself still reports what the others on its store spend,
    /// at most `staleAfterMs` behind (before: its start-up count, all day).
    @Test func aLedgerReadsTheSharedCountAgainOnceItsCountIsStale() async {
        let time = ManualClock(Self.lateSaturday)
        let store = MemoryStore(clock: time.clock)
        let spender = QuotaLedger(
            limits: [.youTube: 1_000], store: store, clock: time.clock, traits: UpstreamTraits.builtIn)
        let watcher = QuotaLedger(
            limits: [.youTube: 1_000], store: store, clock: time.clock, traits: UpstreamTraits.builtIn)
        await watcher.loadStoredCounts()
        #expect(watcher.knowsStoredCounts())
        _ = await spender.reserve(.youTube, units: 300)
        #expect(watcher.usage().first?.used == 0)
        time.advance(ms: QuotaLedger.staleAfterMs)
        #expect(!watcher.knowsStoredCounts())
        await watcher.loadStoredCounts()
        #expect(watcher.usage().first?.used == 300)
        #expect(watcher.knowsStoredCounts())
    }

    @Test func dailyQuotaListsParseOrNameTheirBadEntry() throws {
        #expect(
            try GatewayConfiguration.dailyQuota(parsing: "youtube=1000, tmdb=50000", over: [.youTube: 10_000])
                == [.youTube: 1_000, .tmdb: 50_000])
        #expect(try GatewayConfiguration.dailyQuota(parsing: "youtube=0", over: [.youTube: 10_000]) == [:])
        #expect(
            try GatewayConfiguration.dailyQuota(parsing: "TMDB=5", over: [.youTube: 10_000]) == [
                .youTube: 10_000, .tmdb: 5,
            ])
        for (text, named) in [
            ("youtube=abc", "'youtube=abc'"), ("youtube", "'youtube'"), ("vimeo=10", "'vimeo=10'"),
            ("youtube=1,youtube=2", "'youtube=2' repeats"), ("youtube=-5", "'youtube=-5'"), ("youtube=1,", "''"),
        ] {
            #expect(throws: GatewayConfigurationError.self) { try GatewayConfiguration.dailyQuota(parsing: text) }
            do {
                _ = try GatewayConfiguration.dailyQuota(parsing: text)
            } catch {
                #expect(error.message.contains(named), "\(error.message)")
            }
        }
        let configuration = try GatewayConfiguration.fromEnvironment(["MUSICGRAPH_DAILY_QUOTA": "tmdb=7"])
        #expect(configuration.dailyQuota == [.youTube: 10_000, .tmdb: 7])
        #expect(GatewayConfiguration().dailyQuota == [.youTube: 10_000])
    }
}

/// A wall clock tests move by hand.
final class ManualClock: Sendable {
    private let now: Mutex<Int64>

    init(_ start: Int64) {
        now = Mutex(start)
    }

    var clock: WallClock { WallClock { self.now.withLock { $0 } } }

    func advance(ms: Int64) {
        now.withLock { $0 += ms }
    }
}

/// A store that is down: every call fails.
struct FailingStore: SharedStore {
    var kind: String { "failing" }
    static let down = SharedStoreError("store down")
    func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? { throw Self.down }
    func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) { throw Self.down }
    func removeEntry(_ key: String) async throws(SharedStoreError) { throw Self.down }
    func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool { throw Self.down }
    func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) { throw Self.down }
    func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool { throw Self.down }
    func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64) async throws(SharedStoreError)
        -> CounterUpdate
    { throw Self.down }
    func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        throw Self.down
    }
    func counter(_ key: String) async throws(SharedStoreError) -> Int { throw Self.down }
    func document(sha256: String) async throws(SharedStoreError) -> String? { throw Self.down }
    func putDocument(sha256: String, text: String) async throws(SharedStoreError) { throw Self.down }
}

/// A real MemoryStore that fails every call while `down` is set (an outage, then recovery).
final class OutageStore: SharedStore {
    let inner = MemoryStore()
    let down = Atomic<Bool>(false)
    var kind: String { "outage" }
    private func check() throws(SharedStoreError) {
        if down.load(ordering: .sequentiallyConsistent) { throw FailingStore.down }
    }
    func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? {
        try check()
        return try await inner.entry(key)
    }
    func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        try check()
        try await inner.putEntry(key, entry)
    }
    func removeEntry(_ key: String) async throws(SharedStoreError) {
        try check()
        try await inner.removeEntry(key)
    }
    func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        try check()
        return try await inner.claim(key, holder: holder, ttlMs: ttlMs)
    }
    func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        try check()
        try await inner.releaseClaim(key, holder: holder)
    }
    func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        try check()
        return try await inner.awaitRelease(key, timeoutMs: timeoutMs)
    }
    func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64) async throws(SharedStoreError)
        -> CounterUpdate
    {
        try check()
        return try await inner.addToCounter(key, units: units, limit: limit, expiresAtMs: expiresAtMs)
    }
    func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        try check()
        return try await inner.raiseCounter(key, to: value, expiresAtMs: expiresAtMs)
    }
    func counter(_ key: String) async throws(SharedStoreError) -> Int {
        try check()
        return try await inner.counter(key)
    }
    func document(sha256: String) async throws(SharedStoreError) -> String? {
        try check()
        return try await inner.document(sha256: sha256)
    }
    func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        try check()
        try await inner.putDocument(sha256: sha256, text: text)
    }
}

/// A real MemoryStore whose first `addToCounter` is applied at once but answers only after
/// `releaseFirst()`: replies that come back out of order.
final class LateFirstReplyStore: SharedStore {
    let inner: MemoryStore
    let firstApplied = Signal()
    private let gate = Signal()
    private let calls = Mutex(0)
    init(clock: WallClock) { inner = MemoryStore(clock: clock) }
    var kind: String { "late-first-reply" }
    func releaseFirst() { gate.fire() }
    func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? { try await inner.entry(key) }
    func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        try await inner.putEntry(key, entry)
    }
    func removeEntry(_ key: String) async throws(SharedStoreError) { try await inner.removeEntry(key) }
    func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        try await inner.claim(key, holder: holder, ttlMs: ttlMs)
    }
    func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        try await inner.releaseClaim(key, holder: holder)
    }
    func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        try await inner.awaitRelease(key, timeoutMs: timeoutMs)
    }
    func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64) async throws(SharedStoreError)
        -> CounterUpdate
    {
        let update = try await inner.addToCounter(key, units: units, limit: limit, expiresAtMs: expiresAtMs)
        let call = calls.withLock { calls in
            calls += 1
            return calls
        }
        if call == 1 {
            firstApplied.fire()
            await gate.wait()
        }
        return update
    }
    func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        try await inner.raiseCounter(key, to: value, expiresAtMs: expiresAtMs)
    }
    func counter(_ key: String) async throws(SharedStoreError) -> Int { try await inner.counter(key) }
    func document(sha256: String) async throws(SharedStoreError) -> String? { try await inner.document(sha256: sha256) }
    func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        try await inner.putDocument(sha256: sha256, text: text)
    }
}

/// A one-shot event: `wait()` returns once `fire()` has been called, before or after.
final class Signal: Sendable {
    private let state = Mutex<(fired: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    func fire() {
        let waiters = state.withLock { state in
            state.fired = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let fired = state.withLock { state in
                if !state.fired { state.waiters.append(continuation) }
                return state.fired
            }
            if fired { continuation.resume() }
        }
    }
}

extension QuotaDay {
    /// The quota day of a built-in API at Unix time `ms`, in its time zone.
    static func of(_ service: UpstreamService, atMs ms: Int64) -> QuotaDay {
        .of(timeZone: UpstreamTraits.builtIn[service].timeZone, atMs: ms)
    }
}
