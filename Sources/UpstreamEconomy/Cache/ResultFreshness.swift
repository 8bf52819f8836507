import Synchronization

/// How long one request's GraphQL result may be served again from the `UpstreamCache`: until
/// the first of the upstream responses it read expires, and not at all once one of them was
/// not cached (an error, a failure, a response too large or with no TTL). Shared by the
/// request's transports; thread-safe.
@usableFromInline
package final class ResultFreshness: Sendable {
    package init() {}
    private struct State {
        package var expires: ContinuousClock.Instant?
        package var reads = 0
        package var reusable = true
        package var staleAgeSeconds: Int?
    }

    private let state = Mutex(State())

    /// A read answered by, or stored in, the cache until `expires`.
    @usableFromInline
    package func noteCached(until expires: ContinuousClock.Instant) {
        state.withLock { state in
            state.reads += 1
            state.expires = min(state.expires ?? expires, expires)
        }
    }

    /// A read whose response the cache does not hold.
    package func noteUncached() {
        state.withLock { state in
            state.reads += 1
            state.reusable = false
        }
    }

    /// A read answered by a stale copy `ageSeconds` old: the result must not be reused.
    package func noteStale(ageSeconds: Int) {
        state.withLock { state in
            state.reads += 1
            state.reusable = false
            state.staleAgeSeconds = max(state.staleAgeSeconds ?? 0, ageSeconds)
        }
    }

    /// The age of the oldest stale copy read; nil when every read was fresh.
    package var staleAgeSeconds: Int? { state.withLock { $0.staleAgeSeconds } }

    /// The expiry of a result built from these reads and the number of reads; nil when the
    /// result must not be reused, or read nothing upstream (then there is nothing to save).
    package var reusableUntil: (expires: ContinuousClock.Instant, reads: Int)? {
        state.withLock { state in
            guard state.reusable, let expires = state.expires else { return nil }
            return (expires, state.reads)
        }
    }
}
