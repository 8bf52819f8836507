import Synchronization

/// What one GraphQL request made its upstreams do: requests sent, retries included (by service
/// and outcome; a try that was sent again counts as `retried`), reads answered by the cache,
/// reads that shared a send already in flight (`deduplicated`), and the quota cost of the
/// requests sent (`QueryCost.unitCost(ofURL:)`). Shared by the request's transports; thread-safe.
public final class UpstreamCounters: Sendable {
    /// A snapshot.
    public struct Counts: Sendable, Equatable {
        /// Requests sent, by service raw value (`itunes`, `youtube`, …) and outcome (`ok`,
        /// `http_error`, `timeout`, `unreachable`).
        public var requests: [String: [String: Int]] = [:]
        public var cacheHits = 0
        /// Reads answered by a request another caller was sending at the time: free, like a hit.
        public var deduplicated = 0
        /// Quota units of the requests sent.
        public var cost = 0

        public init() {}

        public var totalRequests: Int { requests.values.reduce(0) { $0 + $1.values.reduce(0, +) } }
    }

    private let counts = Mutex(Counts())

    public init() {}

    public var snapshot: Counts { counts.withLock { $0 } }

    /// A call that sent its request `tries` times (retries included), each costing `cost`
    /// units: the last send is counted under the call's `outcome`, the ones before it (they
    /// failed and were sent again) under `retried`.
    func recordRequest(service: UpstreamService, outcome: String, cost: Int, tries: Int = 1) {
        counts.withLock { counts in
            counts.requests[service.rawValue, default: [:]][outcome, default: 0] += 1
            if tries > 1 { counts.requests[service.rawValue, default: [:]]["retried", default: 0] += tries - 1 }
            counts.cost += cost * tries
        }
    }

    func recordCacheHit() {
        counts.withLock { $0.cacheHits += 1 }
    }

    func recordDeduplicated() {
        counts.withLock { $0.deduplicated += 1 }
    }
}
