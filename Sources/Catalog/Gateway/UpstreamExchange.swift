import Synchronization

/// What every request of one `Gateway` shares on its way to the upstreams: the transport that
/// sends, the response cache, the requests in flight and the daily quota ledger. Each GraphQL
/// request reaches it through its own `RequestTransport`s, which add its counters, its
/// freshness notes and its budget.
final class UpstreamExchange: Sendable {
    let base: any UpstreamTransport
    /// The cross-request response cache; nil when caching is off.
    let cache: UpstreamCache?
    /// The loaders' answers kept in front of `cache` (in its byte bound); nil without it.
    let memos: AnswerMemos?
    /// The responses in the shared store, under `cache`: nil when caching is off or the store
    /// is this process's memory (the cache already is).
    let shared: SharedResponses?
    let inFlight = InFlightRequests()
    let ledger: QuotaLedger
    /// Each upstream's prices and how it says its day is spent.
    let traits: UpstreamTraitsTable
    /// Calls refused before sending, by service and reason (`budget`, `daily_quota`).
    let refusals = Mutex<[RefusalKey: Int]>([:])

    struct RefusalKey: Hashable, Comparable {
        var service: String
        var reason: String

        static func < (lhs: RefusalKey, rhs: RefusalKey) -> Bool {
            (lhs.service, lhs.reason) < (rhs.service, rhs.reason)
        }
    }

    init(
        base: any UpstreamTransport, cache: UpstreamCache?, shared: SharedResponses? = nil, ledger: QuotaLedger,
        traits: UpstreamTraitsTable = UpstreamTraitsTable()
    ) {
        self.traits = traits
        self.base = base
        self.cache = cache
        self.memos = cache.map(AnswerMemos.init)
        self.shared = cache == nil ? nil : shared
        self.ledger = ledger
    }

    func recordRefusal(_ service: UpstreamService, reason: String) {
        refusals.withLock { $0[RefusalKey(service: service.rawValue, reason: reason), default: 0] += 1 }
    }

    /// Whether `response` says `service`'s quota for the day is spent, so that the ledger stops
    /// sending to it until its day ends.
    func saysDailyQuotaIsSpent(_ service: UpstreamService, _ response: UpstreamResponse) -> Bool {
        traits[service].saysDailyQuotaIsSpent?(response.status, response.body) ?? false
    }
}
