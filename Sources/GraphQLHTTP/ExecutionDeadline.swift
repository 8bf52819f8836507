import Synchronization

/// Runs `operation` in a task of its own and returns its value, or nil when `timeoutMs` passes
/// first; then the operation's task is cancelled and left to finish on its own.
///
/// A task group would not do: it waits for every child, so an operation that ignores
/// cancellation would hold the client's answer past the deadline. The caller's cancellation is
/// forwarded to the operation. `timeoutMs <= 0` means no deadline.
func withDeadline<Value: Sendable>(
    timeoutMs: Int, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    guard timeoutMs > 0 else { return await operation() }
    let race = DeadlineRace<Value>()
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            race.start(continuation: continuation, timeoutMs: timeoutMs, operation: operation)
        }
    } onCancel: {
        race.cancel()
    }
}

/// The two contenders of `withDeadline`; whichever finishes first resumes the continuation.
private final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value?, Never>?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    func start(continuation: CheckedContinuation<Value?, Never>, timeoutMs: Int, operation: @escaping @Sendable () async -> Value) {
        // The continuation goes in first: the operation may finish before `start` returns.
        let cancelledEarly = state.withLock { state in
            state.continuation = continuation
            return state.cancelled
        }
        if cancelledEarly {
            finish(with: nil)
            return
        }
        let work = Task {
            let value = await operation()
            self.finish(with: value)
        }
        let timer = Task {
            do {
                try await Task.sleep(for: .milliseconds(timeoutMs))
            } catch {
                return
            }
            self.finish(with: nil)
        }
        let alreadyFinished = state.withLock { state in
            state.work = work
            state.timer = timer
            return state.continuation == nil
        }
        if alreadyFinished {
            // Answered before the tasks were stored (by the operation, or by a cancellation that found
            // no task to cancel): stop whatever still runs; cancelling a finished task is harmless.
            timer.cancel()
            work.cancel()
        }
    }

    /// The caller was cancelled: answer nil at once and cancel the operation.
    func cancel() {
        state.withLock { $0.cancelled = true }
        finish(with: nil)
    }

    /// Resumes the caller with `value` (nil: deadline or cancellation) unless already resumed,
    /// and cancels the other contender.
    private func finish(with value: Value?) {
        let timedOut = value == nil
        let (continuation, loser) = state.withLock { state -> (CheckedContinuation<Value?, Never>?, Task<Void, Never>?) in
            defer { state.continuation = nil }
            return (state.continuation, timedOut ? state.work : state.timer)
        }
        guard let continuation else { return }
        loser?.cancel()
        continuation.resume(returning: value)
    }
}
