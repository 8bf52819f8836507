/// The life of one libcurl transfer on the loop thread, as a pure state machine: the loop feeds
/// it events and performs the action it returns on the C handles.
///
/// The subtle case is cancellation that overtakes the transfer: `withTaskCancellationHandler`
/// may run `onCancel` before the transfer reaches the loop, so a cancel event can find the
/// transfer still `queued`; the flag it leaves is read when the transfer arrives.
struct TransferLifecycle: Sendable, Equatable {
    enum State: Sendable, Equatable {
        /// Handed to the loop, not yet in the multi handle. → `running` or `finished` (cancelled first).
        case queued
        /// In the multi handle. → `finished` (libcurl done, cancelled, or the loop stopping).
        case running
        /// Its continuation was resumed. Terminal.
        case finished
    }

    enum Action: Sendable, Equatable {
        /// `curl_multi_add_handle`.
        case add
        /// Resume the caller with `.cancelled` (the transfer never ran).
        case finishCancelled
        /// `curl_multi_remove_handle`, then resume the caller with `.cancelled`.
        case removeAndFinishCancelled
        /// `curl_multi_remove_handle`, then resume the caller with libcurl's result.
        case removeAndFinish
        case none
    }

    private(set) var state: State = .queued
    private(set) var cancelRequested = false

    /// The transfer reached the loop. `stopping`: the loop is shutting down.
    mutating func arrived(stopping: Bool) -> Action {
        guard state == .queued else { return .none }
        if stopping || cancelRequested {
            state = .finished
            return .finishCancelled
        }
        state = .running
        return .add
    }

    /// `curl_multi_add_handle` failed: the caller gets an error instead.
    mutating func addFailed() {
        state = .finished
    }

    /// The caller's task was cancelled.
    mutating func cancel() -> Action {
        cancelRequested = true
        guard state == .running else { return .none }
        state = .finished
        return .removeAndFinishCancelled
    }

    /// libcurl reported the transfer done.
    mutating func completed() -> Action {
        guard state == .running else { return .none }
        state = .finished
        return .removeAndFinish
    }

    /// The loop is stopping with the transfer in flight.
    mutating func stopped() -> Action {
        guard state == .running else { return .none }
        state = .finished
        return .removeAndFinishCancelled
    }
}
