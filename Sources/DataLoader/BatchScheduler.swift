// When does a batch fire? — the dispatch rule of MusicGraph's DataLoaders.
//
// graphql-js's DataLoader dispatches "after the current job queue drains": JavaScript runs
// every resolver that can run before any I/O callback, so by then every key of the level has
// been asked for. Swift concurrency has no such queue to watch, and a timer (dispatch after
// N ms) either adds latency or splits batches. So we count instead.
//
// One `BatchScheduler` per request. It counts *runnable units of work*: a task that is
// executing resolvers or completing values, not one that is suspended waiting for something
// it does not drive itself.
//
// - The executor calls `enter()` when it starts the operation and before it spawns each child
//   task, `leave()` when a task ends, and `leave()` … `enter()` around each await on child
//   tasks (a parent waiting for its children is not runnable).
// - A `load` that has to wait queues its key, then calls `leave()` just before it suspends.
// - When a batch answers, the loader calls `enter()` once for every waiter it is about to
//   wake, BEFORE resuming any of them, so the count never passes through zero while woken
//   work is on its way to running again.
// - A running batch function is not runnable work: it holds no count. A slow upstream
//   therefore never holds back another loader's dispatch.
//
// When a `leave()` brings the count to zero and some loader has queued keys, every such loader
// dispatches at once (each cutting its queue into `maxBatchSize` batches). Zero means every
// task of the request is waiting on a loader or on a running batch: no further key can be
// asked for until some batch answers, so this is the largest batch possible and the earliest
// moment it is certain. The loaders of one level of a query thus dispatch together, one
// batch call per loader per level (per `maxBatchSize` distinct keys).
//
// Robustness: if loads happen outside counted work (no executor activity, no `run { }`, or
// inside a batch function, which is not counted), the count goes below zero at their
// `leave()`; any `leave()` that leaves the count at or below zero dispatches, so such loads
// still complete (in small batches) instead of hanging.
// `dispatchPending()` dispatches everything queued regardless of the count.
//
// State lives in one `Mutex`; loaders are called (and continuations resumed) outside it.
import Synchronization

/// Tells one loader to cut its queue into batches and start their batch function calls.
/// A closure rather than a protocol so the call reaches the loader's code specialized for its
/// key and value types (a protocol witness would run the unspecialized generic code).
@usableFromInline typealias DispatchQueued = @Sendable () -> Void

/// The per-request dispatch trigger shared by every ``DataLoader`` of that request.
///
/// Counts runnable units of work (`enter()` / `leave()`); when the count drops to zero and a
/// loader has queued keys, dispatches every loader with queued keys. The mechanism is
/// described at the top of `BatchScheduler.swift`. Its `enter()` / `leave()` match the GraphQL
/// module's `ExecutionActivity` protocol, which this module does not import: declare
/// `extension BatchScheduler: ExecutionActivity {}` where both are visible (no `@retroactive`:
/// both modules are in this package) and pass the scheduler as the executor's `activity`.
///
/// Create one per request, never share one between requests.
public final class BatchScheduler: Sendable {
    private struct State {
        /// Runnable units of work; below zero only when loads run outside counted work.
        var runnable = 0
        /// Loaders with queued keys, each listed once (a loader re-registers after dispatching).
        var pending: [DispatchQueued] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// A unit of work became runnable (the executor started the operation or is about to
    /// spawn a task; a waiter is about to be resumed).
    public func enter() {
        state.withLock { $0.runnable += 1 }
    }

    /// That unit of work finished, or is about to await something it does not drive itself.
    /// Dispatches every loader with queued keys when no runnable work is left.
    public func leave() {
        leave(scheduling: nil)
    }

    /// Dispatches every loader with queued keys now, whatever the count: for callers that
    /// drive loaders without an executor and know no more keys are coming.
    public func dispatchPending() {
        let due = state.withLock { state in
            let due = state.pending
            state.pending = []
            return due
        }
        for dispatch in due { dispatch() }
    }

    /// Runs `body` as one counted unit of work: `enter()` before, `leave()` after. Loads made
    /// directly inside `body` batch together and dispatch when `body` and all of them wait.
    /// Concurrent child tasks inside `body` must do their own `enter()` (before being spawned)
    /// and `leave()` (when they end), like the executor does.
    ///
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func run<T, E: Error>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> sending T
    ) async throws(E) -> sending T {
        enter()
        defer { leave() }
        return try await body()
    }

    // MARK: - Loader side

    /// `count` waiters are about to be resumed; called before resuming any of them.
    @usableFromInline
    func enter(count: Int) {
        state.withLock { $0.runnable += count }
    }

    /// A load is about to suspend: one `leave()`, first handing the scheduler its loader's
    /// `dispatch` when the load queued that loader's first key.
    @usableFromInline
    func leave(scheduling dispatch: DispatchQueued?) {
        let due = state.withLock { state -> [DispatchQueued] in
            if let dispatch { state.pending.append(dispatch) }
            state.runnable -= 1
            guard state.runnable <= 0, !state.pending.isEmpty else { return [] }
            let due = state.pending
            state.pending = []
            return due
        }
        for dispatch in due { dispatch() }
    }

    /// The current count of runnable work (for tests and diagnostics).
    var runnableCount: Int { state.withLock { $0.runnable } }
}
