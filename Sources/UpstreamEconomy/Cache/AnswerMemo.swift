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
///
/// Generic over each loader's key and value, with its read path public and inlinable, so that
/// every loader's reads are specialized with its own types in the module that declares it
/// rather than looked up through generic metadata at each field: `package` declarations,
/// inlinable or not, are not specialized across modules.
public final class AnswerMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Answer: Sendable {
        @usableFromInline let value: Value
        @usableFromInline let expires: ContinuousClock.Instant
        /// The `KeptAnswers` it came in: a later batch answering the same key replaces it.
        @usableFromInline let batch: UInt64

        @inlinable
        init(value: Value, expires: ContinuousClock.Instant, batch: UInt64) {
            self.value = value
            self.expires = expires
            self.batch = batch
        }
    }

    @usableFromInline let answers = Mutex<[Key: Answer]>([:])
    let cache: UpstreamCache
    let batches: BatchCounter

    @usableFromInline
    init(cache: UpstreamCache, batches: BatchCounter) {
        self.cache = cache
        self.batches = batches
    }

    /// The answer kept for `key` and when it expires; nil when none is fresh at `now`.
    @inlinable
    public func answer(_ key: Key, now: ContinuousClock.Instant) -> (
        value: Value, expires: ContinuousClock.Instant
    )? {
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

/// Numbers the kept batches of every memo of one gateway (their cache keys).
public final class BatchCounter: Sendable {
    private let last = Atomic<UInt64>(0)
    package init() {}
    package func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
}

/// The memos of one gateway's loaders, made the first time a request's loader asks, by the
/// loader's number (`RequestLoaders.Slot`; each has one key and value type). Thread-safe.
public final class AnswerMemos: Sendable {
    @usableFromInline let cache: UpstreamCache
    @usableFromInline let batches = BatchCounter()
    /// By loader number: an index and a class cast per request's loader, where a table by name
    /// was a string hash and a cast of a generic existential.
    @usableFromInline let memos = Mutex<[(any AnyObject & Sendable)?]>([])

    package init(cache: UpstreamCache) {
        self.cache = cache
    }

    /// The memo of loader `number`.
    /// - Precondition: every call for one `number` asks for the same `Key` and `Value`.
    @inlinable
    public func memo<Key: Hashable & Sendable, Value: Sendable>(
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

/// How one request reads the memos of its loaders: at one instant (the request's), each answer
/// counted as a cache hit and noted in the request's freshness, as the cached read it stands
/// for. The same for every loader of a request; not generic, so a loader's teardown needs no
/// generic metadata for it.
public struct MemoReading: Sendable {
    public let now: ContinuousClock.Instant
    @usableFromInline let counters: UpstreamCounters
    @usableFromInline let freshness: ResultFreshness

    package init(now: ContinuousClock.Instant, counters: UpstreamCounters, freshness: ResultFreshness) {
        self.now = now
        self.counters = counters
        self.freshness = freshness
    }

    /// The answer kept in `memo` for `key`, or nil when the loader must fetch it.
    @inlinable @inline(__always)
    public func answer<Key, Value>(_ key: Key, in memo: AnswerMemo<Key, Value>) -> Value? {
        guard let (value, expires) = memo.answer(key, now: now) else { return nil }
        counters.recordCacheHit()
        freshness.noteCached(until: expires)
        return value
    }
}
