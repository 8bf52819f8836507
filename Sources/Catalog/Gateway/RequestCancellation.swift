import Synchronization

/// Whether one GraphQL request was cancelled (its client went away, its deadline passed, the
/// server shut down). Its loaders' batches run in tasks of their own, which the request's
/// cancellation does not reach, so its transports look here before each send: a cancelled
/// request sends nothing more, while a send it started that others wait for goes on for them.
/// Shared by the request's transports; thread-safe.
final class RequestCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Runs `operation`, marking this request cancelled as soon as the calling task is.
    func whileRunning<Value: Sendable>(_ operation: () async -> Value) async -> Value {
        await withTaskCancellationHandler(operation: operation, onCancel: { self.cancel() })
    }
}
