import Synchronization

/// A batch of memo answers as the `UpstreamCache` holds it: an id, and how its memo forgets it.
package final class KeptAnswers: Sendable {
    package let id: UInt64
    package let forget: @Sendable () -> Void

    package init(id: UInt64, forget: @escaping @Sendable () -> Void) {
        self.id = id
        self.forget = forget
    }
}

/// What the upstream reads of one fetch were (a lookup batch, one search): the first expiry of
/// their cached responses and their body bytes, or that one of them was not cached. The
/// `RequestTransport`s of the fetch's task note into `current`; `AnswerMemo` keeps the fetch's
/// answers only when `keepableUntil` says so. Thread-safe (a fetch's reads may run in child tasks).
package final class BatchReads: Sendable {
    package init() {}
    @TaskLocal package static var current: BatchReads?

    private struct State {
        package var expires: ContinuousClock.Instant?
        package var bytes = 0
        package var uncached = false
        package var staleAgeSeconds: Int?
    }

    private let state = Mutex(State())

    /// A read answered by, or stored in, the cache until `expires`, of `bytes` body bytes.
    package func noteCached(until expires: ContinuousClock.Instant, bytes: Int) {
        state.withLock { state in
            state.expires = min(state.expires ?? expires, expires)
            state.bytes += bytes
        }
    }

    /// A read whose response the cache does not hold: the fetch's answers are not kept.
    package func noteUncached() {
        state.withLock { $0.uncached = true }
    }

    /// A read answered by a stale copy `ageSeconds` old (its upstream could not answer): the
    /// fetch's answers are not kept, and its keys' fields are listed as stale.
    package func noteStale(ageSeconds: Int) {
        state.withLock { state in
            state.uncached = true
            state.staleAgeSeconds = max(state.staleAgeSeconds ?? 0, ageSeconds)
        }
    }

    /// The age of the oldest stale copy the fetch read; nil when it read none.
    package var staleAgeSeconds: Int? { state.withLock { $0.staleAgeSeconds } }

    /// Until when the fetch's answers may be kept, and their estimated bytes (their responses'
    /// body bytes, as `DecodedValues` estimates decoded models); nil when a read was not
    /// cached or there were none.
    package var keepableUntil: (expires: ContinuousClock.Instant, bytes: Int)? {
        state.withLock { state in
            guard !state.uncached, let expires = state.expires else { return nil }
            return (expires, state.bytes)
        }
    }

    /// Runs `fetch` with its reads noted here.
    package static func noting<T, E: Error>(_ reads: BatchReads, _ fetch: () async throws(E) -> T) async throws(E) -> T
    {
        try await $current.withValue(reads, typed: fetch)
    }
}
