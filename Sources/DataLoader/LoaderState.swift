// The loader's bookkeeping is `@usableFromInline` / `@inlinable` throughout so that a client
// module specializes it for its own key and value types: unspecialized generic code spent
// most of its time looking up generic metadata (W4 of bench/dataloader.py, measured).

/// Identifies one `load` / `loadMany` call while it waits, so cancellation can find its waiters.
@usableFromInline typealias RequestID = UInt64
/// Identifies one call of the batch function while it runs.
@usableFromInline typealias BatchID = UInt64

/// One slot of one waiting call: `slot` is the index in `loadMany`'s answer (0 for `load`).
@usableFromInline
struct Waiter<Sink> {
    @usableFromInline let request: RequestID
    @usableFromInline let slot: Int
    @usableFromInline let sink: Sink

    @inlinable
    init(request: RequestID, slot: Int, sink: Sink) {
        self.request = request
        self.slot = slot
        self.sink = sink
    }
}

/// A waiter and the position of its key (in the queue, or in its batch's keys).
@usableFromInline
struct KeyedWaiter<Sink> {
    @usableFromInline var keyIndex: Int
    @usableFromInline let waiter: Waiter<Sink>

    @inlinable
    init(keyIndex: Int, waiter: Waiter<Sink>) {
        self.keyIndex = keyIndex
        self.waiter = waiter
    }
}

/// What `LoaderState.register` decided for each key of a `loadMany`.
@usableFromInline
struct Registration<Value> {
    /// Slots answered from the cache at once (not registered).
    @usableFromInline var resolved: [(slot: Int, result: Result<Value, any Error>)] = []
    /// Slots not registered because the calling task was already cancelled.
    @usableFromInline var cancelled: [Int] = []
    /// How many slots now wait for a batch.
    @usableFromInline var waiting = 0
    /// The loader had no queued keys before this call: the caller must hand it to the
    /// scheduler, which dispatches it when no runnable work is left.
    @usableFromInline var schedule = false

    @inlinable init() {}
}

/// What `LoaderState.registerOne` decided for the single key of a `load`.
@usableFromInline
enum SingleRegistration<Value> {
    /// Answered from the cache (not registered).
    case resolved(Result<Value, any Error>)
    /// Not registered: the calling task was already cancelled.
    case cancelled
    /// Waiting for a batch; `schedule` as in `Registration`.
    case waiting(schedule: Bool)
}

/// The bookkeeping of one ``DataLoader``: cache, queue of keys not yet dispatched, and the
/// waiters of running batches. A pure state machine: no locks, no continuations of its own
/// (`Sink` is whatever wakes a waiter up), so it is unit-tested without tasks. The loader
/// keeps it in a `Mutex` and performs the returned actions outside the lock.
///
/// Life of a key (`CacheEntry`):
/// - absent → `queued` on the first `register` (key appended to `queue`);
/// - `queued` → `inFlight(batch)` when `takeQueue` cuts the queue into batches;
/// - `inFlight` → `resolved` when its batch answers (a value or a per-key error), or absent
///   again when the dispatch failed (the batch function threw or broke its contract);
/// - `clear`: `resolved` and `inFlight` → absent (the next load asks again); `queued` stays
///   queued but forgotten (its answer is not cached unless a load asks for it again), so a
///   key is never queued twice. Waiters already registered are always served by their batch.
///
/// Waiters live in flat lists (`queueWaiters`, `Batch.waiters`) that point at their key by
/// index, not in a list per key: one allocation per batch instead of one per key.
@usableFromInline
struct LoaderState<Key: Hashable, Value, Sink> {
    @usableFromInline
    enum CacheEntry {
        /// Waiting for the next dispatch at `queue[index]`; `forgotten` after a `clear`.
        case queued(index: Int, forgotten: Bool)
        /// Its batch function call is running; the key is `keys[index]` of that batch.
        case inFlight(BatchID, index: Int)
        case resolved(Result<Value, any Error>)
    }

    @usableFromInline
    struct Batch {
        @usableFromInline let keys: [Key]
        /// `keyIndex` points into `keys`.
        @usableFromInline var waiters: [KeyedWaiter<Sink>]

        @inlinable
        init(keys: [Key], waiters: [KeyedWaiter<Sink>]) {
            self.keys = keys
            self.waiters = waiters
        }
    }

    /// Distinct keys per batch; `Int.max` means unlimited.
    @usableFromInline let maxBatchSize: Int
    @usableFromInline var cache: [Key: CacheEntry] = [:]
    /// Keys waiting for the next dispatch, distinct, in the order first asked.
    @usableFromInline var queue: [Key] = []
    /// Waiters of queued keys; `keyIndex` points into `queue`.
    @usableFromInline var queueWaiters: [KeyedWaiter<Sink>] = []
    @usableFromInline var batches: [BatchID: Batch] = [:]
    @usableFromInline var lastRequest: RequestID = 0
    @usableFromInline var lastBatch: BatchID = 0
    /// True from the moment the loader is handed to the scheduler until it takes the queue.
    @usableFromInline var isScheduled = false

    @inlinable
    init(maxBatchSize: Int) {
        self.maxBatchSize = maxBatchSize
    }

    /// Keys queued and not yet dispatched, in dispatch order.
    @inlinable var queuedKeys: [Key] { queue }
    /// Number of batch function calls running.
    @inlinable var batchesInFlight: Int { batches.count }

    // MARK: - Loading

    /// The cached answer for `key`, or nil when the call has to wait.
    @inlinable
    func lookUp(_ key: Key) -> Result<Value, any Error>? {
        guard case .resolved(let result)? = cache[key] else { return nil }
        return result
    }

    /// The cached answers for `keys` when every key has one (the call need not wait), else nil.
    @inlinable
    func lookUp(_ keys: [Key]) -> [Result<Value, any Error>]? {
        // A first load of a level misses at its first key: no array for it.
        guard let first = keys.first, case .resolved? = cache[first] else { return keys.isEmpty ? [] : nil }
        var answers: [Result<Value, any Error>] = []
        answers.reserveCapacity(keys.count)
        for key in keys {
            guard case .resolved(let result)? = cache[key] else { return nil }
            answers.append(result)
        }
        return answers
    }

    /// A new id for a call that has to wait.
    @inlinable
    mutating func newRequest() -> RequestID {
        lastRequest &+= 1
        return lastRequest
    }

    /// Registers `sink` as waiting for every key of `keys` not answered by the cache.
    /// Equal keys share one queue entry; a key whose batch is running joins that batch.
    /// With `cancelled`, nothing is registered and uncached slots are reported cancelled.
    @inlinable
    mutating func register(
        _ keys: [Key], request: RequestID, sink: Sink, cancelled: Bool
    ) -> Registration<Value> {
        var registration = Registration<Value>()
        for (slot, key) in keys.enumerated() {
            switch enqueue(
                Waiter(request: request, slot: slot, sink: sink), for: key, cancelled: cancelled)
            {
            case .resolved(let result): registration.resolved.append((slot, result))
            case .cancelled: registration.cancelled.append(slot)
            case .waiting(let schedule):
                registration.waiting += 1
                if schedule { registration.schedule = true }
            }
        }
        return registration
    }

    /// `register` for the single key of a `load`, without the arrays.
    @inlinable
    mutating func registerOne(
        _ key: Key, request: RequestID, sink: Sink, cancelled: Bool
    ) -> SingleRegistration<Value> {
        enqueue(Waiter(request: request, slot: 0, sink: sink), for: key, cancelled: cancelled)
    }

    /// Answers `key` from the cache, or adds `waiter` to the running batch that loads it, else
    /// to the queue (`.waiting(schedule: true)` when this queued the loader's first key).
    @inlinable
    mutating func enqueue(_ waiter: Waiter<Sink>, for key: Key, cancelled: Bool)
        -> SingleRegistration<Value>
    {
        let entry = cache[key]
        if case .resolved(let result)? = entry { return .resolved(result) }
        if cancelled { return .cancelled }
        switch entry {
        case .queued(let index, let forgotten)?:
            // A load after a `clear` makes the queued answer cacheable again.
            if forgotten { cache[key] = .queued(index: index, forgotten: false) }
            queueWaiters.append(KeyedWaiter(keyIndex: index, waiter: waiter))
            return .waiting(schedule: false)
        case .inFlight(let id, let index)?:
            batches[id]?.waiters.append(KeyedWaiter(keyIndex: index, waiter: waiter))
            return .waiting(schedule: false)
        case .resolved?, nil:
            cache[key] = .queued(index: queue.count, forgotten: false)
            queueWaiters.append(KeyedWaiter(keyIndex: queue.count, waiter: waiter))
            queue.append(key)
            if isScheduled { return .waiting(schedule: false) }
            isScheduled = true
            return .waiting(schedule: true)
        }
    }

    /// Removes every waiter of `request` (a cancelled call) and returns them, so the caller
    /// wakes each one with `CancellationError`. Empty when the call was already answered.
    /// Scans the waiting lists: cancellation is rare, loading is not.
    @inlinable
    mutating func cancel(_ request: RequestID) -> [Waiter<Sink>] {
        var removed: [Waiter<Sink>] = []
        if queueWaiters.contains(where: { $0.waiter.request == request }) {
            queueWaiters.removeAll { keyed in
                guard keyed.waiter.request == request else { return false }
                removed.append(keyed.waiter)
                return true
            }
        }
        for id in batches.keys
        where batches[id]?.waiters.contains(where: { $0.waiter.request == request }) == true {
            batches[id]?.waiters.removeAll { keyed in
                guard keyed.waiter.request == request else { return false }
                removed.append(keyed.waiter)
                return true
            }
        }
        return removed
    }

    // MARK: - Dispatching

    /// Cuts the queue into batches of at most `maxBatchSize` distinct keys and marks them in
    /// flight. Keys nobody waits for any more (every caller was cancelled) are dropped: a
    /// cancelled request must not cost an upstream call.
    @inlinable
    mutating func takeQueue() -> [(id: BatchID, keys: [Key])] {
        isScheduled = false
        guard !queue.isEmpty else { return [] }
        var waiterCounts = [Int](repeating: 0, count: queue.count)
        for keyed in queueWaiters { waiterCounts[keyed.keyIndex] += 1 }
        // Where each queued key goes: (index into `taken`, index in that batch's keys).
        var placement = [(batch: Int, index: Int)](repeating: (-1, -1), count: queue.count)
        var taken: [(id: BatchID, keys: [Key])] = []
        var current: [Key] = []
        for (queueIndex, key) in queue.enumerated() {
            // Each key's entry is found once and changed in place (`values[i]`), not hashed again.
            let entry = cache.index(forKey: key)
            guard waiterCounts[queueIndex] > 0 else {
                if let entry, case .queued = cache.values[entry] { cache.remove(at: entry) }
                continue
            }
            if current.isEmpty {
                lastBatch &+= 1
                current.reserveCapacity(Swift.min(maxBatchSize, queue.count - queueIndex))
            }
            placement[queueIndex] = (taken.count, current.count)
            current.append(key)
            if let entry, case .queued(_, let forgotten) = cache.values[entry] {
                if forgotten {
                    cache.remove(at: entry)
                } else {
                    cache.values[entry] = .inFlight(lastBatch, index: current.count - 1)
                }
            }
            if current.count == maxBatchSize {
                taken.append((lastBatch, current))
                current = []
            }
        }
        if !current.isEmpty { taken.append((lastBatch, current)) }
        var waiters = [[KeyedWaiter<Sink>]](repeating: [], count: taken.count)
        for keyed in queueWaiters {
            let place = placement[keyed.keyIndex]
            waiters[place.batch].append(KeyedWaiter(keyIndex: place.index, waiter: keyed.waiter))
        }
        for (position, batch) in taken.enumerated() {
            batches[batch.id] = Batch(keys: batch.keys, waiters: waiters[position])
        }
        queue = []
        queueWaiters = []
        return taken
    }

    /// Records the answer of batch `id` (`results[i]` answers `keys[i]` of that batch) and
    /// returns every waiter with its result. With `cacheable` false (a failed dispatch) the
    /// batch's keys leave the cache, so a later load asks again.
    @inlinable
    mutating func complete(
        _ id: BatchID, results: [Result<Value, any Error>], cacheable: Bool
    ) -> [(waiter: Waiter<Sink>, result: Result<Value, any Error>)] {
        guard let batch = batches.removeValue(forKey: id) else { return [] }
        precondition(results.count == batch.keys.count, "one result per key of the batch")
        for (key, result) in zip(batch.keys, results) {
            guard let entry = cache.index(forKey: key), case .inFlight(let running, _) = cache.values[entry],
                running == id
            else { continue }
            if cacheable { cache.values[entry] = .resolved(result) } else { cache.remove(at: entry) }
        }
        return batch.waiters.map { ($0.waiter, results[$0.keyIndex]) }
    }

    // MARK: - Cache control

    /// Stores `value` for `key` unless the key already has an entry (queued, in flight or
    /// resolved). Returns whether it was stored.
    @inlinable
    mutating func prime(_ key: Key, _ value: Value) -> Bool {
        guard cache[key] == nil else { return false }
        cache[key] = .resolved(.success(value))
        return true
    }

    @inlinable
    mutating func clear(_ key: Key) {
        guard let entry = cache[key] else { return }
        cache[key] = Self.cleared(entry)
    }

    @inlinable
    mutating func clearAll() {
        cache = cache.compactMapValues { Self.cleared($0) }
    }

    /// What a cache entry becomes on `clear`: queued keys stay queued (forgotten) so they are
    /// never queued twice; everything else is dropped.
    @inlinable
    static func cleared(_ entry: CacheEntry) -> CacheEntry? {
        if case .queued(let index, _) = entry { return .queued(index: index, forgotten: true) }
        return nil
    }
}
