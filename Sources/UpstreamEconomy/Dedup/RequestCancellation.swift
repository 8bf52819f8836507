import Synchronization

/// Whether one GraphQL request was cancelled (its client went away, its deadline passed, the
/// server shut down). Its loaders' batches run in tasks of their own, which the request's
/// cancellation does not reach, so its transports look here before each send, and what they
/// wait on (a send in flight) registers `onCancel` to stop waiting: a cancelled request sends
/// nothing more and waits for nothing, while a send it started that others wait for goes on for
/// them. Shared by the request's transports; thread-safe.
package final class RequestCancellation: Sendable {
    package init() {}
    private let cancelled = Atomic<Bool>(false)
    private struct Handlers {
        package var byToken: [UInt64: @Sendable () -> Void] = [:]
        package var next: UInt64 = 0
        /// Set once `cancel()` took the handlers: a later `onCancel` runs its handler at once.
        package var fired = false
    }
    private let handlers = Mutex(Handlers())

    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Marks the request cancelled and runs every registered handler, once.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
        let due = handlers.withLock { handlers in
            handlers.fired = true
            defer { handlers.byToken = [:] }
            return Array(handlers.byToken.values)
        }
        for handler in due { handler() }
    }

    /// Runs `handler` when the request is cancelled, or now when it already is (then nil is
    /// returned); else a token for `removeHandler`, which a waiter that got its answer calls.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        let token = handlers.withLock { handlers -> UInt64? in
            guard !handlers.fired else { return nil }
            handlers.next += 1
            handlers.byToken[handlers.next] = handler
            return handlers.next
        }
        if token == nil { handler() }
        return token
    }

    package func removeHandler(_ token: UInt64) {
        _ = handlers.withLock { $0.byToken.removeValue(forKey: token) }
    }

    /// Runs `operation`, marking this request cancelled as soon as the calling task is.
    package func whileRunning<Value: Sendable>(_ operation: () async -> Value) async -> Value {
        await withTaskCancellationHandler(operation: operation, onCancel: { self.cancel() })
    }
}
