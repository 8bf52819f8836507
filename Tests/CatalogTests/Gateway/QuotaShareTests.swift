import Foundation
import GraphQL
import HTTPTypes
import SharedState
import Testing
import UpstreamEconomy

@testable import Catalog

/// Shares of a provider's day: what one client may spend, counted in the ledger's store so that
/// every instance on it sees the same counts.
@Suite struct QuotaShareTests {
    static let shares = QuotaShares(keyed: ["small": [.youTube: 0.3], "large": [.youTube: 0.7]])

    /// Reserves 100 units for `client` until refused, alternating between `ledgers`.
    static func spendAll(_ client: RequestClient, _ ledgers: [QuotaLedger]) async -> (
        units: Int, last: QuotaLedger.Reservation?
    ) {
        var spent = 0
        var index = 0
        while true {
            let reservation = await ledgers[index % ledgers.count].reserve(.youTube, units: 100, client: client)
            index += 1
            guard case .granted = reservation else { return (spent, reservation) }
            spent += 100
            if spent > 10_000 { return (spent, nil) }
        }
    }

    @Test func twoKeyedClientsOnTwoInstancesSpendExactlyTheirShares() async throws {
        let store = MemoryStore()
        let ledgers = (0..<2).map { _ in
            QuotaLedger(limits: [.youTube: 1_000], shares: Self.shares, store: store, traits: UpstreamTraits.builtIn)
        }
        let small = await Self.spendAll(.keyed("small"), ledgers)
        #expect(small.units == 300)
        guard case .shareRefused(let owner, let used, let limit, _) = small.last else {
            Issue.record("not refused by the share: \(String(describing: small.last))")
            return
        }
        #expect(owner == "small")
        #expect(used == 300)
        #expect(limit == 300)
        let large = await Self.spendAll(.keyed("large"), ledgers)
        #expect(large.units == 700)
        // The day is spent now, and a request with no client is refused by the day itself.
        guard case .refused(let dayUsed, 1_000, _) = await ledgers[0].reserve(.youTube, units: 100, client: nil) else {
            Issue.record("the day was not spent")
            return
        }
        #expect(dayUsed == 1_000)
        #expect(ledgers[1].shareUsage(.youTube, client: .keyed("small"))?.limit == 300)
    }

    @Test func anonymousAddressesHaveAShareEachAndAPoolTogether() async throws {
        let ledger = QuotaLedger(
            limits: [.youTube: 1_000], shares: QuotaShares(anonymousShare: 0.2, anonymousPool: 0.5),
            store: MemoryStore(), traits: UpstreamTraits.builtIn)
        let first = await Self.spendAll(.anonymous(address: "192.0.2.1"), [ledger])
        #expect(first.units == 200)
        let second = await Self.spendAll(.anonymous(address: "192.0.2.2"), [ledger])
        #expect(second.units == 200)
        // The pool (500) has 100 left for the third address.
        let third = await Self.spendAll(.anonymous(address: "192.0.2.3"), [ledger])
        #expect(third.units == 100)
        guard case .shareRefused(let owner, 500, 500, _) = third.last else {
            Issue.record("not refused by the pool: \(String(describing: third.last))")
            return
        }
        #expect(owner == "anonymous clients")
        // What the pool refused was not counted in the address's own share, nor in the day.
        #expect(ledger.shareUsage(.youTube, client: .anonymous(address: "192.0.2.3"))?.used == 100)
        // The rest of the day stays for keyed clients (default share: half of it).
        #expect(await Self.spendAll(.keyed("app"), [ledger]).units == 500)
    }

    @Test func aClientWhoseShareAndDayAreBothSpentIsToldTheDayIsSpent() async throws {
        let ledger = QuotaLedger(
            limits: [.youTube: 300], shares: QuotaShares(keyedShare: 1), store: MemoryStore(),
            traits: UpstreamTraits.builtIn)
        #expect(await Self.spendAll(.keyed("app"), [ledger]).units == 300)
        guard case .refused(300, 300, _) = await ledger.reserve(.youTube, units: 100, client: .keyed("app")) else {
            Issue.record("not refused by the day")
            return
        }
        // Another client's share is not spent, but the day is: the day's refusal too.
        guard case .refused = await ledger.reserve(.youTube, units: 100, client: .keyed("other")) else {
            Issue.record("not refused by the day")
            return
        }
    }

    @Test func theDaySpentOnAnotherInstanceIsTheRefusalOnEvery() async throws {
        let store = MemoryStore()
        let ledgers = (0..<2).map { _ in
            QuotaLedger(
                limits: [.youTube: 400], shares: QuotaShares(keyedShare: 1), store: store,
                traits: UpstreamTraits.builtIn)
        }
        #expect(await Self.spendAll(.keyed("app"), ledgers).units == 400)
        // Each instance says the day is spent, also the one that did not spend its last units.
        for ledger in ledgers {
            guard case .refused(400, 400, _) = await ledger.reserve(.youTube, units: 100, client: .keyed("app")) else {
                Issue.record("not refused by the day")
                continue
            }
        }
    }

    @Test func aRefusalByTheDayGivesTheSharesBack() async throws {
        let store = MemoryStore()
        let ledger = QuotaLedger(
            limits: [.youTube: 1_000], shares: QuotaShares(keyedShare: 1), store: store, traits: UpstreamTraits.builtIn)
        // Another process without clients spent 950 of the day.
        _ = try await store.addToCounter(
            QuotaLedger.counterKey(.youTube, QuotaDay.of(.youTube, atMs: WallClock.system.nowMs())), units: 950,
            limit: nil, expiresAtMs: WallClock.system.nowMs() + 86_400_000)
        guard case .refused = await ledger.reserve(.youTube, units: 100, client: .keyed("app")) else {
            Issue.record("not refused by the day")
            return
        }
        #expect(ledger.shareUsage(.youTube, client: .keyed("app"))?.used == 0)
    }

    @Test func aProviderWithoutADailyQuotaHasNoShares() async {
        let ledger = QuotaLedger(limits: [.youTube: 1_000], store: MemoryStore(), traits: UpstreamTraits.builtIn)
        #expect(await ledger.reserve(.tmdb, units: 1, client: .anonymous(address: "192.0.2.1")) == .unlimited)
        #expect(ledger.shareUsage(.tmdb, client: .anonymous(address: "192.0.2.1")) == nil)
    }
}

extension LoopbackTests {
    /// The default shares on the nested example query: an anonymous client cannot spend the day.
    @Suite struct GatewayQuotaShares {
        @Test func anAnonymousNestedQuerySpendsItsShareAndLeavesVideosForOthers() async throws {
            try await GatewayHarness.configured({ $0.dailyQuota = GatewayConfiguration.defaultDailyQuota }).run { h in
                let first = try await RequestClient.$current.withValue(.anonymous(address: "192.0.2.1")) {
                    try await h.query(GatewayRequestCounts.ironMaiden)
                }
                let searches = try await h.loopback.requestLog().entries.filter { $0.path == "/youtube/v3/search" }
                // A fifth of YouTube's 10,000 units: 20 searches of 100.
                #expect(searches.count == 20)
                let refused = first.result.errors.filter { $0.extensions["code"] == .string("CLIENT_QUOTA_EXCEEDED") }
                #expect(refused.count == first.result.errors.count)
                #expect(!refused.isEmpty)
                for error in refused {
                    #expect(error.path?.last == .key("videos"))
                    #expect(error.extensions["client"] == .string("anonymous"))
                    #expect(error.extensions["share"] == .int(2_000))
                    #expect(error.extensions["used"] == .int(2_000))
                }
                #expect(first.result.data?["artist", "name"] == .string("Iron Maiden"))

                let second = try await RequestClient.$current.withValue(.anonymous(address: "192.0.2.2")) {
                    try await h.query(#"{ videos(query: "AC/DC", first: 1) { title } }"#)
                }
                #expect(second.result.errors == [])
                #expect(
                    try await h.loopback.requestLog().entries.filter { $0.path == "/youtube/v3/search" }.count == 21)
                #expect(second.result.data?["videos", 0, "title"] != nil)
            }
        }
    }
}
