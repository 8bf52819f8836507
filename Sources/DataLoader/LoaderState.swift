/// Identifies one `load` / `loadMany` call while it waits, so cancellation can find its waiters.
typealias RequestID = UInt64
/// Identifies one call of the batch function while it runs.
typealias BatchID = UInt64

/// One slot of one waiting call: `slot` is the index in `loadMany`'s answer (0 for `load`).
struct Waiter<Sink> {
  let request: RequestID
  let slot: Int
  let sink: Sink
}

/// What `LoaderState.register` decided for each key of a call.
struct Registration<Value> {
  /// Slots answered from the cache at once (not registered).
  var resolved: [(slot: Int, result: Result<Value, any Error>)] = []
  /// Slots not registered because the calling task was already cancelled.
  var cancelled: [Int] = []
  /// How many slots now wait for a batch.
  var waiting = 0
  /// The loader had no queued keys before this call: the caller must hand it to the
  /// scheduler, which dispatches it when no runnable work is left.
  var schedule = false
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
/// - any state → absent on `clear` / `clearAll`; waiters already registered are still served
///   by their batch, whose answer is then not cached.
struct LoaderState<Key: Hashable, Value, Sink> {
  private enum CacheEntry {
    case queued
    case inFlight(BatchID)
    case resolved(Result<Value, any Error>)
  }

  private struct Batch {
    var keys: [Key]
    var waiters: [Key: [Waiter<Sink>]]
  }

  /// Distinct keys per batch; `Int.max` means unlimited.
  let maxBatchSize: Int
  private var cache: [Key: CacheEntry] = [:]
  /// Keys waiting for the next dispatch, distinct, in the order first asked.
  private var queue: [Key] = []
  private var queuedWaiters: [Key: [Waiter<Sink>]] = [:]
  private var batches: [BatchID: Batch] = [:]
  private var lastRequest: RequestID = 0
  private var lastBatch: BatchID = 0
  /// True from the moment the loader is handed to the scheduler until it takes the queue.
  private var isScheduled = false

  init(maxBatchSize: Int) {
    self.maxBatchSize = maxBatchSize
  }

  /// Keys queued and not yet dispatched, in dispatch order.
  var queuedKeys: [Key] { queue }
  /// Number of batch function calls running.
  var batchesInFlight: Int { batches.count }

  // MARK: - Loading

  /// The cached answer for `key`, or nil when the call has to wait.
  func lookUp(_ key: Key) -> Result<Value, any Error>? {
    guard case .resolved(let result)? = cache[key] else { return nil }
    return result
  }

  /// The cached answers for `keys` when every key has one (the call need not wait), else nil.
  func lookUp(_ keys: [Key]) -> [Result<Value, any Error>]? {
    var answers: [Result<Value, any Error>] = []
    answers.reserveCapacity(keys.count)
    for key in keys {
      guard case .resolved(let result)? = cache[key] else { return nil }
      answers.append(result)
    }
    return answers
  }

  /// A new id for a call that has to wait.
  mutating func newRequest() -> RequestID {
    lastRequest &+= 1
    return lastRequest
  }

  /// Registers `sink` as waiting for every key of `keys` not answered by the cache.
  /// Equal keys share one queue entry; a key whose batch is running joins that batch.
  /// With `cancelled`, nothing is registered and uncached slots are reported cancelled.
  mutating func register(
    _ keys: [Key], request: RequestID, sink: Sink, cancelled: Bool
  ) -> Registration<Value> {
    var registration = Registration<Value>()
    for (slot, key) in keys.enumerated() {
      let waiter = Waiter(request: request, slot: slot, sink: sink)
      switch cache[key] {
      case .resolved(let result)?:
        registration.resolved.append((slot, result))
      case _ where cancelled:
        registration.cancelled.append(slot)
      case .queued?:
        queuedWaiters[key, default: []].append(waiter)
        registration.waiting += 1
      case .inFlight(let batch)?:
        batches[batch]?.waiters[key, default: []].append(waiter)
        registration.waiting += 1
      case nil:
        // A key cleared while queued is still in `queue`: it must not be queued twice.
        if queuedWaiters[key] == nil {
          queue.append(key)
          queuedWaiters[key] = []
        }
        cache[key] = .queued
        queuedWaiters[key, default: []].append(waiter)
        registration.waiting += 1
        if !isScheduled {
          isScheduled = true
          registration.schedule = true
        }
      }
    }
    return registration
  }

  /// Removes every waiter of `request` (a cancelled call) and returns them, so the caller
  /// wakes each one with `CancellationError`. Empty when the call was already answered.
  mutating func cancel(_ request: RequestID, keys: [Key]) -> [Waiter<Sink>] {
    var removed: [Waiter<Sink>] = []
    for key in Set(keys) {
      if let waiters = queuedWaiters[key] {
        queuedWaiters[key] = Self.remove(request, from: waiters, into: &removed)
      }
      for (id, batch) in batches {
        if let waiters = batch.waiters[key] {
          batches[id]?.waiters[key] = Self.remove(request, from: waiters, into: &removed)
        }
      }
    }
    return removed
  }

  private static func remove(
    _ request: RequestID, from waiters: [Waiter<Sink>], into removed: inout [Waiter<Sink>]
  ) -> [Waiter<Sink>] {
    var kept: [Waiter<Sink>] = []
    for waiter in waiters {
      if waiter.request == request { removed.append(waiter) } else { kept.append(waiter) }
    }
    return kept
  }

  // MARK: - Dispatching

  /// Cuts the queue into batches of at most `maxBatchSize` distinct keys and marks them in
  /// flight. Keys nobody waits for any more (every caller was cancelled) are dropped: a
  /// cancelled request must not cost an upstream call.
  mutating func takeQueue() -> [(id: BatchID, keys: [Key])] {
    isScheduled = false
    var taken: [(id: BatchID, keys: [Key])] = []
    var current: [Key] = []
    var currentWaiters: [Key: [Waiter<Sink>]] = [:]
    func close() {
      guard !current.isEmpty else { return }
      lastBatch &+= 1
      batches[lastBatch] = Batch(keys: current, waiters: currentWaiters)
      for key in current {
        if case .queued? = cache[key] { cache[key] = .inFlight(lastBatch) }
      }
      taken.append((lastBatch, current))
      current = []
      currentWaiters = [:]
    }
    for key in queue {
      let waiters = queuedWaiters.removeValue(forKey: key) ?? []
      if waiters.isEmpty {
        if case .queued? = cache[key] { cache[key] = nil }
        continue
      }
      current.append(key)
      currentWaiters[key] = waiters
      if current.count == maxBatchSize { close() }
    }
    close()
    queue = []
    return taken
  }

  /// Records the answer of batch `id` (`results[i]` answers `keys[i]` of that batch) and
  /// returns every waiter with its result. With `cacheable` false (a failed dispatch) the
  /// batch's keys leave the cache, so a later load asks again.
  mutating func complete(
    _ id: BatchID, results: [Result<Value, any Error>], cacheable: Bool
  ) -> [(waiter: Waiter<Sink>, result: Result<Value, any Error>)] {
    guard let batch = batches.removeValue(forKey: id) else { return [] }
    var woken: [(waiter: Waiter<Sink>, result: Result<Value, any Error>)] = []
    for (key, result) in zip(batch.keys, results) {
      if case .inFlight(let running)? = cache[key], running == id {
        cache[key] = cacheable ? .resolved(result) : nil
      }
      for waiter in batch.waiters[key] ?? [] {
        woken.append((waiter, result))
      }
    }
    return woken
  }

  // MARK: - Cache control

  /// Stores `value` for `key` unless the key already has an entry (queued, in flight or
  /// resolved). Returns whether it was stored.
  mutating func prime(_ key: Key, _ value: Value) -> Bool {
    guard cache[key] == nil else { return false }
    cache[key] = .resolved(.success(value))
    return true
  }

  mutating func clear(_ key: Key) {
    cache[key] = nil
  }

  mutating func clearAll() {
    cache = [:]
  }
}
