import Synchronization

/// Runs `operation` in a task of its own and returns its value, or nil once `timeoutMs` has
/// passed (within `DeadlineScheduler.tickMs`); then the operation's task is cancelled and left
/// to finish on its own.
///
/// The task starts on the caller's thread (`Task.immediate`): an operation that finishes
/// without suspending (a cached document over static data) returns at once, with no thread
/// hop and no deadline scheduled; the clock starts when it first suspends.
///
/// A task group would not do: it waits for every child, so an operation that ignores
/// cancellation would hold the client's answer past the deadline. The caller's cancellation
/// answers nil at once and is forwarded to the operation. `timeoutMs <= 0` means no deadline.
func withDeadline<Value: Sendable>(
    timeoutMs: Int, scheduler: DeadlineScheduler, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    guard timeoutMs > 0 else { return await operation() }
    let race = DeadlineRace<Value>(scheduler: scheduler)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            race.start(continuation: continuation, timeoutMs: timeoutMs, operation: operation)
        }
    } onCancel: {
        race.cancel()
    }
}

/// The operation against the clock; whichever finishes first resumes the continuation.
private final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value?, Never>?
        var work: Task<Void, Never>?
        var deadlineToken: Int?
        var cancelled = false
    }

    private let scheduler: DeadlineScheduler
    private let state = Mutex(State())

    init(scheduler: DeadlineScheduler) {
        self.scheduler = scheduler
    }

    func start(
        continuation: CheckedContinuation<Value?, Never>, timeoutMs: Int, operation: @escaping @Sendable () async -> Value
    ) {
        // The continuation goes in first: the operation may finish before `start` returns.
        let cancelledEarly = state.withLock { state in
            state.continuation = continuation
            return state.cancelled
        }
        if cancelledEarly {
            finish(with: nil)
            return
        }
        let work = Task.immediate {
            let value = await operation()
            self.finish(with: value)
        }
        let finishedSynchronously = state.withLock { $0.continuation == nil }
        let token = finishedSynchronously ? nil : scheduler.schedule(afterMs: timeoutMs) { self.finish(with: nil) }
        let alreadyFinished = state.withLock { state in
            state.work = work
            state.deadlineToken = token
            return state.continuation == nil
        }
        if alreadyFinished {
            // Answered before the task and token were stored (by the operation, or by a
            // cancellation that found nothing to cancel): stop whatever still runs.
            if let token { scheduler.cancel(token) }
            work.cancel()
        }
    }

    /// The caller was cancelled: answer nil at once and cancel the operation.
    func cancel() {
        state.withLock { $0.cancelled = true }
        finish(with: nil)
    }

    /// Resumes the caller with `value` (nil: deadline or cancellation) unless already resumed,
    /// then cancels the operation (on nil) or the deadline (on a value).
    private func finish(with value: Value?) {
        let (continuation, work, token) = state.withLock {
            state -> (CheckedContinuation<Value?, Never>?, Task<Void, Never>?, Int?) in
            defer { state.continuation = nil }
            return (state.continuation, state.work, state.deadlineToken)
        }
        guard let continuation else { return }
        continuation.resume(returning: value)
        if value == nil {
            work?.cancel()
        }
        if let token {
            scheduler.cancel(token)
        }
    }
}
