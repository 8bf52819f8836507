import Synchronization

/// What every request of one `Gateway` shares on its way to the upstreams: the transport that
/// sends, the response cache, the requests in flight and the daily quota ledger. Each GraphQL
/// request reaches it through its own `RequestTransport`s, which add its counters, its
/// freshness notes and its budget.
package final class UpstreamExchange: Sendable {
    package let base: any UpstreamTransport
    /// The cross-request response cache; nil when caching is off.
    package let cache: UpstreamCache?
    /// The responses in the shared store, under `cache`: nil when caching is off or the store
    /// is this process's memory (the cache already is).
    package let shared: SharedResponses?
    package let inFlight = InFlightRequests()
    package let ledger: QuotaLedger
    /// Each upstream's prices and how it says its day is spent.
    package let traits: UpstreamTraitsTable
    /// Calls refused before sending, by service and reason (`budget`, `daily_quota`).
    package let refusals = Mutex<[RefusalKey: Int]>([:])

    package struct RefusalKey: Hashable, Comparable {
        package var service: String
        package var reason: String

        package static func < (lhs: RefusalKey, rhs: RefusalKey) -> Bool {
            (lhs.service, lhs.reason) < (rhs.service, rhs.reason)
        }
    }

    package init(
        base: any UpstreamTransport, cache: UpstreamCache?, shared: SharedResponses? = nil, ledger: QuotaLedger,
        traits: UpstreamTraitsTable = UpstreamTraitsTable()
    ) {
        self.traits = traits
        self.base = base
        self.cache = cache
        self.shared = cache == nil ? nil : shared
        self.ledger = ledger
    }

    package func recordRefusal(_ service: UpstreamService, reason: String) {
        refusals.withLock { $0[RefusalKey(service: service.rawValue, reason: reason), default: 0] += 1 }
    }

    /// Whether `response` says `service`'s quota for the day is spent, so that the ledger stops
    /// sending to it until its day ends.
    package func saysDailyQuotaIsSpent(_ service: UpstreamService, _ response: UpstreamResponse) -> Bool {
        traits[service].saysDailyQuotaIsSpent?(response.status, response.body) ?? false
    }
}
