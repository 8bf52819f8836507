import Synchronization

/// Runs `operation` in a task of its own and returns its value, or nil once `timeoutMs` has
/// passed (within `DeadlineScheduler.tickMs`); then the operation's task is cancelled and left
/// to finish on its own.
///
/// The task starts on the caller's thread (`Task.immediate`): an operation that finishes
/// without suspending (a cached result, a document over static data) has its value taken at
/// once, with no continuation, no cancellation handler and no deadline; the clock starts when
/// it first suspends.
///
/// A task group would not do: it waits for every child, so an operation that ignores
/// cancellation would hold the client's answer past the deadline. The caller's cancellation
/// answers nil at once and is forwarded to the operation; an already cancelled caller gets nil
/// without the operation starting. `timeoutMs <= 0` means no deadline. `abandoned` gets the
/// value of an operation that finished after its caller was answered nil (what it did still
/// happened: its upstream requests, say, still count).
///
/// `waitsWhenCancelled`, asked when the caller is cancelled: true to cancel the operation and
/// still wait for its value (until the deadline, as before), because the caller needs what it
/// did, not its answer: the log line of a client that hung up counts the upstream requests its
/// query sent, which only the operation's value holds. A cancelled operation returns soon.
func withDeadline<Value: Sendable>(
    timeoutMs: Int, scheduler: DeadlineScheduler, abandoned: (@Sendable (Value) -> Void)? = nil,
    waitsWhenCancelled: (@Sendable () -> Bool)? = nil, _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    guard timeoutMs > 0 else { return await operation() }
    if Task.isCancelled { return nil }
    let race = DeadlineRace<Value>(scheduler: scheduler, abandoned: abandoned)
    let work = Task.immediate { race.operationFinished(with: await operation()) }
    if let value = race.takeValueIfFinished() { return value }
    race.setWork(work)
    return await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            race.wait(continuation, timeoutMs: timeoutMs)
        }
    } onCancel: {
        if waitsWhenCancelled?() == true {
            race.cancelOperation()
        } else {
            race.stop()
        }
    }
}

/// The operation against the clock and the caller's cancellation: whichever comes first
/// answers the caller, exactly once.
private final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        /// The operation's value while nobody waits for it yet.
        var value: Value?
        /// The waiting caller.
        var continuation: CheckedContinuation<Value?, Never>?
        /// The caller has its answer (or a stop came before it waited).
        var answered = false
        var work: Task<Void, Never>?
        var deadlineToken: Int?

        /// The operation's value when it finished before anyone waited; the caller is then
        /// answered with it.
        mutating func takeValue() -> Value? {
            guard let value else { return nil }
            self.value = nil
            answered = true
            return value
        }
    }

    /// What `wait` finds.
    private enum WaitStart {
        case value(Value)
        case stopped
        case waiting
    }

    private let scheduler: DeadlineScheduler
    private let abandoned: (@Sendable (Value) -> Void)?
    private let state = Mutex(State())

    init(scheduler: DeadlineScheduler, abandoned: (@Sendable (Value) -> Void)?) {
        self.scheduler = scheduler
        self.abandoned = abandoned
    }

    /// The operation's end: answers a waiting caller, keeps the value for one to come, or
    /// hands it to `abandoned` when the caller was answered nil already.
    func operationFinished(with value: Value) {
        let (continuation, token, late) = state.withLock {
            state -> (CheckedContinuation<Value?, Never>?, Int?, Bool) in
            guard !state.answered else { return (nil, nil, true) }
            guard let continuation = state.continuation else {
                state.value = value
                return (nil, nil, false)
            }
            state.continuation = nil
            state.answered = true
            return (continuation, state.deadlineToken, false)
        }
        if late {
            abandoned?(value)
            return
        }
        if let token { scheduler.cancel(token) }
        continuation?.resume(returning: value)
    }

    /// The value of an operation that already finished (the caller then needs nothing else).
    func takeValueIfFinished() -> Value? {
        state.withLock { $0.takeValue() }
    }

    func setWork(_ work: Task<Void, Never>) {
        state.withLock { $0.work = work }
    }

    /// The caller waits: answered at once when the operation finished or a stop came first,
    /// else when the operation finishes or the deadline passes.
    func wait(_ continuation: CheckedContinuation<Value?, Never>, timeoutMs: Int) {
        let now = state.withLock { state -> WaitStart in
            if let value = state.takeValue() { return .value(value) }
            if state.answered { return .stopped }
            state.continuation = continuation
            return .waiting
        }
        switch now {
        case .value(let value):
            continuation.resume(returning: value)
        case .stopped:
            continuation.resume(returning: nil)
        case .waiting:
            let token = scheduler.schedule(afterMs: timeoutMs) { self.stop() }
            let stillWaiting = state.withLock { state in
                if state.continuation != nil { state.deadlineToken = token }
                return state.continuation != nil
            }
            if !stillWaiting { scheduler.cancel(token) }
        }
    }

    /// The caller was cancelled but still wants the value: cancel the operation, keep waiting.
    func cancelOperation() {
        let work = state.withLock { $0.work }
        work?.cancel()
    }

    /// The deadline passed or the caller was cancelled: answer nil and cancel the operation.
    func stop() {
        let (continuation, work, token) = state.withLock {
            state -> (CheckedContinuation<Value?, Never>?, Task<Void, Never>?, Int?) in
            guard !state.answered else { return (nil, nil, nil) }
            state.answered = true
            defer { state.continuation = nil }
            return (state.continuation, state.work, state.deadlineToken)
        }
        if let token { scheduler.cancel(token) }
        continuation?.resume(returning: nil)
        work?.cancel()
    }
}
