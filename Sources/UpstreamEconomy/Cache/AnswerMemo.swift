import Synchronization

/// One loader's answers kept across requests, by the loader's key (an id, a search's term and
/// limit), so a resolver whose key is known answers its field at once: no DataLoader batch, no
/// upstream URL built and looked up, no task suspended (a level of 50 lookups was 60 µs of
/// loader machinery for answers already decoded in the cache). Also saves
/// upstream requests: an id answered by an earlier batch is not asked for again in a batch of
/// other ids, whose URL the cache has never seen.
///
/// Same rules as the `UpstreamCache` it sits in front of:
/// - freshness: an answer is kept only when every upstream read that made it was a cached
///   response, until the first of those expires (`BatchReads`); errors are never kept;
/// - memory: each kept batch is charged to the cache's byte bound (`UpstreamCache.keep`) and
///   forgotten when the cache evicts it.
///
/// Read the memo at one instant per request (`MemoReading`): an answer fresh when the
/// request began serves all of its fields. Thread-safe; one per loader per `Gateway`.
package final class AnswerMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package struct Answer {
        package let value: Value
        package let expires: ContinuousClock.Instant
        /// The `KeptAnswers` it came in: a later batch answering the same key replaces it.
        package let batch: UInt64
    }

    private let answers = Mutex<[Key: Answer]>([:])
    private let cache: UpstreamCache
    private let batches: BatchCounter

    package init(cache: UpstreamCache, batches: BatchCounter) {
        self.cache = cache
        self.batches = batches
    }

    /// The answer kept for `key` and when it expires; nil when none is fresh at `now`.
    package func answer(_ key: Key, now: ContinuousClock.Instant) -> (value: Value, expires: ContinuousClock.Instant)? {
        answers.withLock { answers in
            guard let answer = answers[key], answer.expires > now else { return nil }
            return (answer.value, answer.expires)
        }
    }

    /// Keeps `pairs` until `expires`, charged as `bytes` to the cache (nothing is kept when the
    /// cache refuses them: expired, or larger than the whole cache).
    package func keep(_ pairs: [(key: Key, value: Value)], until expires: ContinuousClock.Instant, bytes: Int) {
        guard !pairs.isEmpty else { return }
        let batch = batches.next()
        let keys = pairs.map(\.key)
        // Stored before the cache holds their place: an eviction right after finds them to forget.
        answers.withLock { answers in
            for (key, value) in pairs { answers[key] = Answer(value: value, expires: expires, batch: batch) }
        }
        let kept = KeptAnswers(id: batch) { [weak self] in self?.forget(keys, batch: batch) }
        // The keys' own bytes and a dictionary slot each, beside the values' estimate.
        let charged = bytes + keys.count * (MemoryLayout<Key>.stride + MemoryLayout<Answer>.stride + 16)
        if !cache.keep(kept, bytes: charged, until: expires) { forget(keys, batch: batch) }
    }

    /// Drops the answers of `keys` that `batch` kept (not those a later batch replaced).
    private func forget(_ keys: [Key], batch: UInt64) {
        answers.withLock { answers in
            for key in keys where answers[key]?.batch == batch { answers[key] = nil }
        }
    }

    /// How many answers are kept, expired ones included until their batch leaves the cache (for tests).
    package var count: Int { answers.withLock { $0.count } }
}

/// A batch of memo answers as the `UpstreamCache` holds it: an id, and how its memo forgets it.
package final class KeptAnswers: Sendable {
    package let id: UInt64
    package let forget: @Sendable () -> Void

    package init(id: UInt64, forget: @escaping @Sendable () -> Void) {
        self.id = id
        self.forget = forget
    }
}

/// Numbers the kept batches of every memo of one gateway (their cache keys).
package final class BatchCounter: Sendable {
    private let last = Atomic<UInt64>(0)
    package func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
}

/// The memos of one gateway's loaders, made the first time a request's loader asks, by the
/// loader's number (`RequestLoaders.Slot`; each has one key and value type). Thread-safe.
package final class AnswerMemos: Sendable {
    private let cache: UpstreamCache
    private let batches = BatchCounter()
    /// By loader number: an index and a class cast per request's loader, where a table by name
    /// was a string hash and a cast of a generic existential.
    private let memos = Mutex<[(any AnyObject & Sendable)?]>([])

    package init(cache: UpstreamCache) {
        self.cache = cache
    }

    /// The memo of loader `number`.
    /// - Precondition: every call for one `number` asks for the same `Key` and `Value`.
    package func memo<Key: Hashable & Sendable, Value: Sendable>(
        _ number: Int, of _: Key.Type = Key.self, _: Value.Type = Value.self
    ) -> AnswerMemo<Key, Value> {
        memos.withLock { memos in
            if number < memos.count, let made = memos[number] {
                return unsafeDowncast(made, to: AnswerMemo<Key, Value>.self)
            }
            let made = AnswerMemo<Key, Value>(cache: cache, batches: batches)
            if memos.count <= number { memos.append(contentsOf: repeatElement(nil, count: number + 1 - memos.count)) }
            memos[number] = made
            return made
        }
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

/// How one request reads the memos of its loaders: at one instant (the request's), each answer
/// counted as a cache hit and noted in the request's freshness, as the cached read it stands
/// for. The same for every loader of a request; not generic, so a loader's teardown needs no
/// generic metadata for it.
package struct MemoReading: Sendable {
    package let now: ContinuousClock.Instant
    private let counters: UpstreamCounters
    private let freshness: ResultFreshness

    package init(now: ContinuousClock.Instant, counters: UpstreamCounters, freshness: ResultFreshness) {
        self.now = now
        self.counters = counters
        self.freshness = freshness
    }

    /// The answer kept in `memo` for `key`, or nil when the loader must fetch it.
    @inline(__always)
    package func answer<Key, Value>(_ key: Key, in memo: AnswerMemo<Key, Value>) -> Value? {
        guard let (value, expires) = memo.answer(key, now: now) else { return nil }
        counters.recordCacheHit()
        freshness.noteCached(until: expires)
        return value
    }
}
