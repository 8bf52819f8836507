import Synchronization

/// What one GraphQL request made its upstreams do: requests sent, retries included (by service
/// and outcome; a try that was sent again counts as `retried`),
/// reads answered by the cache, and the quota cost of the requests sent (YouTube search 100
/// units, every other call 1). Shared by the request's transports; thread-safe.
public final class UpstreamCounters: Sendable {
    /// A snapshot.
    public struct Counts: Sendable, Equatable {
        /// Requests sent, by service raw value (`itunes`, `youtube`, …) and outcome (`ok`,
        /// `http_error`, `timeout`, `unreachable`).
        public var requests: [String: [String: Int]] = [:]
        public var cacheHits = 0
        /// Quota units of the requests sent.
        public var cost = 0

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
}

/// The transport seam of one provider within one GraphQL request: answers from the shared
/// `UpstreamCache` when it can, else sends through `base` and stores 2xx answers; counts
/// both in the request's `UpstreamCounters` and notes in its `ResultFreshness` how long the
/// request's result could be reused.
struct RequestTransport: UpstreamTransport {
    let service: UpstreamService
    let base: any UpstreamTransport
    let cache: UpstreamCache?
    /// Seconds a response of this provider stays cached when it sends no `max-age`.
    let ttlSeconds: Int
    let counters: UpstreamCounters
    let freshness: ResultFreshness

    /// The quota units a GET of `url` costs: YouTube search.list 100, anything else 1.
    static func cost(of url: String) -> Int {
        url.contains("/youtube/v3/search") ? 100 : 1
    }

    func discard(url: String, headers: [(name: String, value: String)]) {
        cache?.remove(
            UpstreamCache.cacheKey(
                url: url, headers: headers, secretParameters: HTTPClientTransport.secretQueryParameters))
    }

    func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        let key = cache.map { _ in
            UpstreamCache.cacheKey(
                url: url, headers: headers, secretParameters: HTTPClientTransport.secretQueryParameters)
        }
        if let cache, let key, let hit = cache.lookUpWithExpiry(key) {
            counters.recordCacheHit()
            freshness.noteCached(until: hit.expires)
            return hit.response
        }
        let response: UpstreamResponse
        do {
            response = try await base.get(url: url, headers: headers)
        } catch {
            let failure = error as? TransportFailure
            let outcome = failure?.underlying == .timedOut ? "timeout" : "unreachable"
            counters.recordRequest(
                service: service, outcome: outcome, cost: Self.cost(of: url), tries: failure?.tries ?? 1)
            freshness.noteUncached()
            throw error
        }
        let ok = (200..<300).contains(response.status)
        counters.recordRequest(
            service: service, outcome: ok ? "ok" : "http_error", cost: Self.cost(of: url), tries: response.tries)
        if ok, let cache, let key,
            let expires = cache.store(
                response, for: key, ttlSeconds: UpstreamCache.maxAge(response.headers) ?? ttlSeconds)
        {
            freshness.noteCached(until: expires)
        } else {
            freshness.noteUncached()
        }
        return response
    }
}
