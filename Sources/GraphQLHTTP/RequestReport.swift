/// What one GraphQL request cost behind the gateway, for `/metrics` and the request log.
/// Filled in by the application's execute closure; never sent to the client.
public struct RequestReport: Sendable, Equatable {
    /// One metric series of upstream requests: the upstream service (`itunes`, `youtube`, …)
    /// and how the request ended (`ok`, `timeout`, `http_error`, …; the gateway counts a
    /// try that failed and was sent again as `retried`). Both become Prometheus
    /// label values, so keep them to small fixed sets: never URLs, keys or query text.
    public struct UpstreamKey: Sendable, Hashable, Comparable {
        public var service: String
        public var outcome: String

        public init(service: String, outcome: String) {
            self.service = service
            self.outcome = outcome
        }

        public static func < (lhs: UpstreamKey, rhs: UpstreamKey) -> Bool {
            (lhs.service, lhs.outcome) < (rhs.service, rhs.outcome)
        }
    }

    /// Upstream HTTP requests sent for this GraphQL request, by service and outcome.
    public var upstreamRequests: [UpstreamKey: Int]
    /// Upstream reads answered from the gateway's cache instead of an upstream request.
    public var cacheHits: Int
    /// Upstream reads answered by a request another caller was sending at the time.
    public var deduplicated: Int

    public init(upstreamRequests: [UpstreamKey: Int] = [:], cacheHits: Int = 0, deduplicated: Int = 0) {
        self.upstreamRequests = upstreamRequests
        self.cacheHits = cacheHits
        self.deduplicated = deduplicated
    }

    /// Counts `count` upstream requests to `service` that ended with `outcome`.
    public mutating func recordUpstream(service: String, outcome: String, count: Int = 1) {
        upstreamRequests[UpstreamKey(service: service, outcome: outcome), default: 0] += count
    }

    /// All upstream requests of this report, whatever their service and outcome.
    public var totalUpstreamRequests: Int { upstreamRequests.values.reduce(0, +) }
}
