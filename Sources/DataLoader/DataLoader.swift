import Synchronization

/// Batching, deduplication and a per-request cache in front of a batch function, after
/// graphql/dataloader's contract (README "Batch Function", "Caching Per-Request").
///
/// Every `load(key)` made while the request has runnable work is queued; when the request's
/// ``BatchScheduler`` sees that all its work waits, the queued keys go to the batch function
/// in one call (or one call per `maxBatchSize` distinct keys). Answers are memoised per key:
/// equal keys are fetched once, within and across batches.
///
/// Contract of the batch function (`[Key]` → answers), called with distinct keys, never more
/// than `maxBatchSize` of them:
/// - keyed form (`batch:`): a dictionary from key to `Result`; answers are matched by key, so
///   an upstream may answer fewer keys or in any order. A key missing from the dictionary fails
///   with ``DataLoaderError/Code/noValueForKey`` (that key only, cached like any per-key error).
/// - ordered form (`orderedBatch:`): one `Result` per key, in key order. Another count fails
///   every key of that batch with ``DataLoaderError/Code/resultCountMismatch``.
/// - A `.failure` fails only its key and stays cached (graphql/dataloader "Caching Errors").
/// - Throwing fails every key of the batch with the thrown error; those keys are not cached,
///   so a later load asks again. So is a count mismatch.
///
/// Create one loader per request and never share it between requests: the cache lives as
/// long as the loader and is not an application cache.
public final class DataLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The answer per key of the keyed batch function form.
    public typealias KeyedBatchFunction =
        @Sendable ([Key]) async throws -> [Key: Result<Value, any Error>]
    /// The answer of the ordered batch function form: one result per key, in key order.
    public typealias OrderedBatchFunction =
        @Sendable ([Key]) async throws -> [Result<Value, any Error>]

    @usableFromInline
    enum BatchFunction: Sendable {
        case keyed(KeyedBatchFunction)
        case ordered(OrderedBatchFunction)
    }

    /// How a waiting call is woken: `load`'s continuation or `loadMany`'s collector.
    /// Unsafe (unchecked) continuations are safe here: a waiter is resumed only by whoever
    /// removed it from `state` under the lock (its batch, or its cancellation), so exactly once;
    /// the checked kind cost an allocation per load.
    @usableFromInline
    enum WaiterSink: Sendable {
        case single(UnsafeContinuation<Value, any Error>)
        case many(ResultCollector<Value>)
    }

    /// Names this loader in error messages and logs (e.g. `"itunes.albumsByArtist"`).
    public let name: String
    /// The most distinct keys one batch function call receives; `Int.max` for no limit.
    public let maxBatchSize: Int
    @usableFromInline let scheduler: BatchScheduler
    @usableFromInline let batchFunction: BatchFunction
    @usableFromInline let state: Mutex<LoaderState<Key, Value, WaiterSink>>

    /// A loader whose batch function answers by key.
    ///
    /// - Parameters:
    ///   - name: for error messages and logs; non-empty, one line.
    ///   - maxBatchSize: the most distinct keys per batch function call, ≥ 1; default
    ///     `Int.max` (no limit, as graphql/dataloader's `Infinity`). Set it to the upstream's
    ///     limit on ids per request.
    ///   - scheduler: the request's scheduler, which decides when queued keys dispatch.
    ///   - batch: called with distinct keys; answers by key (see the type's contract).
    /// - Throws: ``DataLoaderError`` with code `invalidOption` naming the bad option.
    @inlinable
    public convenience init(
        name: String, maxBatchSize: Int = .max, scheduler: BatchScheduler,
        batch: @escaping KeyedBatchFunction
    ) throws(DataLoaderError) {
        try self.init(
            name: name, maxBatchSize: maxBatchSize, scheduler: scheduler, function: .keyed(batch))
    }

    /// A loader whose batch function answers one result per key, in key order.
    ///
    /// - Parameters: as the keyed initializer; `orderedBatch` must return exactly one result
    ///   per key in the order of the keys, else the whole batch fails with
    ///   ``DataLoaderError/Code/resultCountMismatch``.
    /// - Throws: ``DataLoaderError`` with code `invalidOption` naming the bad option.
    @inlinable
    public convenience init(
        name: String, maxBatchSize: Int = .max, scheduler: BatchScheduler,
        orderedBatch: @escaping OrderedBatchFunction
    ) throws(DataLoaderError) {
        try self.init(
            name: name, maxBatchSize: maxBatchSize, scheduler: scheduler, function: .ordered(orderedBatch)
        )
    }

    // Inlinable so a request's loaders are made by code specialized for their key and value:
    // made generically, the empty state's types were looked up in the runtime's metadata
    // cache, under its lock, for every loader of every request.
    @inlinable
    init(
        name: String, maxBatchSize: Int, scheduler: BatchScheduler, function: BatchFunction
    ) throws(DataLoaderError) {
        self.name = try validName(name)
        self.maxBatchSize = try validMaxBatchSize(maxBatchSize, loader: name)
        self.scheduler = scheduler
        self.batchFunction = function
        self.state = Mutex(LoaderState(maxBatchSize: maxBatchSize))
    }

    // MARK: - Loading

    /// The value for `key`: from the cache, or from the batch this key joins.
    ///
    /// Suspends only when the key is not cached yet; the key is then dispatched with the other
    /// keys queued before the request's work all waits (see ``BatchScheduler``).
    /// - Throws: the key's `.failure` from the batch function, the error the batch function
    ///   threw, a ``DataLoaderError`` (`noValueForKey`, `resultCountMismatch`), or
    ///   `CancellationError` when the calling task is cancelled while waiting (the batch still
    ///   runs for the other callers).
    @inlinable
    public func load(_ key: Key) async throws -> Value {
        let (cached, request) = state.withLock { state -> (Result<Value, any Error>?, RequestID) in
            if let cached = state.lookUp(key) { return (cached, 0) }
            return (nil, state.newRequest())
        }
        if let cached { return try cached.get() }
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation {
                (continuation: UnsafeContinuation<Value, any Error>) in
                let registration = state.withLock { state in
                    state.registerOne(
                        key, request: request, sink: .single(continuation), cancelled: Task.isCancelled)
                }
                switch registration {
                case .resolved(let result):
                    continuation.resume(with: result)
                case .cancelled:
                    continuation.resume(throwing: CancellationError())
                case .waiting(let schedule):
                    scheduler.leave(scheduling: schedule ? dispatcher : nil)
                }
            }
        } onCancel: {
            cancel(request)
        }
    }

    /// The results for `keys`, one per key in the same order, each a value or that key's error
    /// (never throws as a whole: graphql/dataloader's `loadMany`). Equal keys share one load.
    /// Slots still waiting when the calling task is cancelled become `CancellationError`.
    @inlinable
    public func loadMany(_ keys: [Key]) async -> [Result<Value, any Error>] {
        let (cached, request) = state.withLock { state -> ([Result<Value, any Error>]?, RequestID) in
            if let cached = state.lookUp(keys) { return (cached, 0) }
            return (nil, state.newRequest())
        }
        if let cached { return cached }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation {
                (continuation: UnsafeContinuation<[Result<Value, any Error>], Never>) in
                let collector = ResultCollector(count: keys.count, continuation: continuation)
                let (schedule, answered) = state.withLock { state in
                    let registration = state.register(
                        keys, request: request, sink: .many(collector), cancelled: Task.isCancelled)
                    // Under the loader's lock no batch can take the new waiters yet, so these fills
                    // complete the answer only when nothing was registered.
                    var answered: [Result<Value, any Error>]?
                    for (slot, result) in registration.resolved {
                        answered = collector.fill(slot, with: result)
                    }
                    for slot in registration.cancelled {
                        answered = collector.fill(slot, with: .failure(CancellationError()))
                    }
                    return (registration.schedule, answered)
                }
                if let answered {
                    continuation.resume(returning: answered)
                } else {
                    scheduler.leave(scheduling: schedule ? dispatcher : nil)
                }
            }
        } onCancel: {
            cancel(request)
        }
    }

    // MARK: - Cache control

    /// Stores `value` for `key` unless the key is already cached, queued or being loaded
    /// (never overwrites; `clear(key)` first to replace).
    /// - Returns: whether the value was stored.
    @inlinable @discardableResult
    public func prime(_ key: Key, _ value: Value) -> Bool {
        state.withLock { $0.prime(key, value) }
    }

    /// Forgets `key`'s cached answer; the next load asks the batch function again. Calls
    /// already waiting for the key are still answered by their batch.
    @inlinable
    public func clear(_ key: Key) {
        state.withLock { $0.clear(key) }
    }

    /// Forgets every cached answer (waiting calls are still answered).
    @inlinable
    public func clearAll() {
        state.withLock { $0.clearAll() }
    }

    /// Keys queued for the next dispatch, in dispatch order (diagnostics and tests).
    @inlinable var queuedKeys: [Key] { state.withLock { $0.queuedKeys } }
    /// Batch function calls running now (diagnostics and tests).
    @inlinable var batchesInFlight: Int { state.withLock { $0.batchesInFlight } }

    // MARK: - Private: waking waiters

    @inlinable
    func cancel(_ request: RequestID) {
        let removed = state.withLock { $0.cancel(request) }
        wake(removed.map { ($0, .failure(CancellationError())) })
    }

    /// Resumes the calls whose answers are complete, after counting them as runnable work.
    @inlinable
    func wake(_ answers: [(waiter: Waiter<WaiterSink>, result: Result<Value, any Error>)]) {
        var singles: [(UnsafeContinuation<Value, any Error>, Result<Value, any Error>)] = []
        var manys: [(UnsafeContinuation<[Result<Value, any Error>], Never>, [Result<Value, any Error>])] = []
        for (waiter, result) in answers {
            switch waiter.sink {
            case .single(let continuation):
                singles.append((continuation, result))
            case .many(let collector):
                if let all = collector.fill(waiter.slot, with: result) {
                    manys.append((collector.continuation, all))
                }
            }
        }
        let woken = singles.count + manys.count
        guard woken > 0 else { return }
        scheduler.enter(count: woken)
        for (continuation, result) in singles { continuation.resume(with: result) }
        for (continuation, all) in manys { continuation.resume(returning: all) }
    }
}

// MARK: - Private: dispatching

extension DataLoader {
    /// What the scheduler calls to dispatch this loader (see `DispatchQueued`).
    @inlinable
    var dispatcher: DispatchQueued {
        { [self] in self.dispatchQueued() }
    }

    @inlinable
    func dispatchQueued() {
        let batches = state.withLock { $0.takeQueue() }
        for batch in batches {
            // Started on this thread, run here until its first suspension: a batch answered
            // from memory (a kept upstream response) completes without a trip through the
            // global pool (a thread woken and a job handed over per batch, a sizable share of
            // a cached gateway request's CPU); one that sends goes on there after it suspends.
            Task.immediate { await self.runBatch(batch.id, keys: batch.keys) }
        }
    }

    /// Calls the batch function, checks its answer against the contract and wakes the waiters.
    @inlinable
    func runBatch(_ id: BatchID, keys: [Key]) async {
        var results: [Result<Value, any Error>]
        var cacheable = true
        do {
            switch batchFunction {
            case .keyed(let function):
                let answer = try await function(keys)
                results = keys.map { key in
                    answer[key] ?? .failure(DataLoaderError.noValueForKey(key, loader: name))
                }
            case .ordered(let function):
                results = try await function(keys)
                if results.count != keys.count {
                    let error = DataLoaderError.resultCountMismatch(
                        keys: keys, resultCount: results.count, loader: name)
                    results = Array(repeating: .failure(error), count: keys.count)
                    cacheable = false
                }
            }
        } catch {
            results = Array(repeating: .failure(error), count: keys.count)
            cacheable = false
        }
        let answers = state.withLock { $0.complete(id, results: results, cacheable: cacheable) }
        wake(answers)
    }
}
