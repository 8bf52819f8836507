import Synchronization

/// What one GraphQL request made its upstreams do: requests sent, retries included (by service
/// and outcome; a try that was sent again counts as `retried`), reads answered by the cache,
/// reads that shared a send already in flight (`deduplicated`), and the quota cost of the
/// requests sent (their upstream's `UpstreamTraits` price). Shared by the request's transports; thread-safe.
public final class UpstreamCounters: Sendable {
    /// A snapshot.
    public struct Counts: Sendable, Equatable {
        /// Requests sent, by upstream name and outcome
        /// (`UpstreamOutcome`: `ok`, `bad_response`, `http_error`, `timeout`, `too_large`,
        /// `unreachable`).
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
    /// Sends of this request not yet counted, and who waits for there to be none.
    private let unsettled = Mutex((sends: 0, waiters: [CheckedContinuation<Void, Never>]()))

    public init() {}

    public var snapshot: Counts { counts.withLock { $0 } }

    /// A call that sent its request `tries` times (retries included), each costing `cost`
    /// units: the last send is counted under the call's `outcome`, the ones before it (they
    /// failed and were sent again) under `retried`.
    package func recordRequest(service: UpstreamService, outcome: String, cost: Int, tries: Int = 1) {
        counts.withLock { counts in
            counts.requests[service.rawValue, default: [:]][outcome, default: 0] += 1
            if tries > 1 { counts.requests[service.rawValue, default: [:]]["retried", default: 0] += tries - 1 }
            counts.cost += cost * tries
        }
    }

    /// A send of this request went out in a task of its own; `sendEnded()` follows once it
    /// is counted, whatever became of it.
    package func sendStarted() {
        unsettled.withLock { $0.sends += 1 }
    }

    package func sendEnded() {
        let waiters = unsettled.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.sends -= 1
            guard state.sends == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once every send this request started is counted. A cancelled request stops
    /// waiting for its sends, which go on for whoever shares them; its log line and metrics
    /// are written after this, so that they count what was on the wire when it stopped.
    package func settled() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let now = unsettled.withLock { state -> Bool in
                guard state.sends > 0 else { return true }
                state.waiters.append(waiter)
                return false
            }
            if now { waiter.resume() }
        }
    }

    @usableFromInline
    package func recordCacheHit() {
        counts.withLock { $0.cacheHits += 1 }
    }

    package func recordDeduplicated() {
        counts.withLock { $0.deduplicated += 1 }
    }
}
