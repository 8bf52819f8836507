import Synchronization

/// The upstream requests being sent right now, by cache key, so that a request wanted again
/// while it is in flight is sent once and its answer shared (single-flight): by two loaders of
/// one GraphQL request or by two GraphQL requests. One per `Gateway`; thread-safe.
///
/// A key is claimed by the first caller, which sends (`claim`); later callers `join` and wait.
/// The sender's answer, or its failure, goes to every waiter; a waiter whose task is cancelled
/// leaves alone, and the send goes on for the others.
package final class InFlightRequests: Sendable {
    private let flights = Mutex<[String: InFlightRequest]>([:])

    package init() {}

    /// The flight of `key`, joined; or nil after claiming `key` for the caller (then the caller
    /// must `finish` it, whatever happens).
    package func joinOrClaim(_ key: String) -> InFlightRequest? {
        flights.withLock { flights in
            if let flight = flights[key] { return flight }
            flights[key] = InFlightRequest()
            return nil
        }
    }

    /// The flight the caller claimed for `key`.
    package func claimed(_ key: String) -> InFlightRequest {
        flights.withLock { flights in
            guard let flight = flights[key] else { preconditionFailure("no claim on \(key)") }
            return flight
        }
    }

    /// Ends the claimed flight of `key` with `outcome`: later callers no longer join it, and every
    /// waiter gets `outcome`. Call it only after the answer is where later callers look first
    /// (the cache), so that nobody misses both.
    package func finish(_ key: String, _ outcome: InFlightRequest.Outcome) {
        let flight = flights.withLock { $0.removeValue(forKey: key) }
        flight?.finish(outcome)
    }

    /// Whether `key` is being sent now (a dry run asks without joining).
    package func isInFlight(_ key: String) -> Bool { flights.withLock { $0[key] != nil } }

    /// Keys in flight now (for tests and metrics).
    package var count: Int { flights.withLock { $0.count } }
}

/// One upstream request in flight and the callers waiting for its answer.
package final class InFlightRequest: Sendable {
    /// What a waiter gets.
    package enum Outcome: Sendable {
        /// The upstream's response (any status); `expires` is when the cache stops serving it,
        /// nil when it was not cached.
        case response(UpstreamResponse, expires: ContinuousClock.Instant?)
        /// No response: the transport's error. Not cached: the next caller sends again.
        case failure(any Error)
        /// The claimant did not send (its budget or the daily quota refused the call): a waiter
        /// tries again on its own account.
        case abandoned
    }

    private struct State {
        package var outcome: Outcome?
        package var waiters: [UInt64: CheckedContinuation<Outcome?, Never>] = [:]
        /// Waiters cancelled before they were registered (the cancellation handler can run first).
        package var cancelled: Set<UInt64> = []
        package var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Whether anyone still waits (a send nobody waits for is not retried).
    package var hasWaiters: Bool { state.withLock { !$0.waiters.isEmpty } }

    /// Waits for the outcome.
    /// - Parameter cancellation: the waiting GraphQL request's: when it is cancelled (its loaders'
    ///   batches run in tasks that its task's cancellation does not reach) this waiter leaves as
    ///   if its task had been cancelled, so a send nobody waits for any more is not retried.
    /// - Throws: `CancellationError` when the calling task or `cancellation` is cancelled first;
    ///   only this waiter leaves, the send and the other waiters are untouched.
    package func wait(leavingOn cancellation: RequestCancellation? = nil) async throws(CancellationError) -> Outcome {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let leave: @Sendable () -> Void = { [self] in
            let waiter = self.state.withLock { state -> CheckedContinuation<Outcome?, Never>? in
                if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                if state.outcome == nil { state.cancelled.insert(id) }
                return nil
            }
            waiter?.resume(returning: nil)
        }
        let token = cancellation?.onCancel(leave)
        defer { if let token { cancellation?.removeHandler(token) } }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                let now: Outcome?? = state.withLock { state in
                    if let outcome = state.outcome { return .some(outcome) }
                    if state.cancelled.remove(id) != nil { return .some(nil) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            leave()
        }
        guard let outcome else { throw CancellationError() }
        return outcome
    }

    fileprivate func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state in
            state.outcome = outcome
            state.cancelled = []
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
