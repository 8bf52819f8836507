import Synchronization

/// Caps the transfers in flight per host on the caller side: callers over the cap wait in a
/// first-in-first-out queue instead of piling up inside libcurl, which slows down badly with
/// thousands of transfers queued behind its own per-host connection limit (DESIGN.md).
final class HostLimiter: Sendable {
    enum Acquisition: Sendable, Equatable {
        case acquired
        case cancelled
        case deadlineExceeded
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Acquisition, Never>
        var timer: Task<Void, Never>?
    }

    private struct State {
        var inFlight: [String: Int] = [:]
        var waiting: [String: [Waiter]] = [:]
        var nextID: UInt64 = 0
    }

    /// Transfers allowed in flight per host.
    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes one of `host`'s slots, waiting in line if all are taken, until the task is cancelled
    /// or `deadline` passes. Every `.acquired` must be paired with one `release(host:)`.
    func acquire(host: String, deadline: ContinuousClock.Instant?) async -> Acquisition {
        let id: UInt64? = state.withLock { state in
            if state.inFlight[host, default: 0] < limit {
                state.inFlight[host, default: 0] += 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return .acquired }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Acquisition? = state.withLock { state in
                    // A slot may have freed since the first look.
                    if state.inFlight[host, default: 0] < limit {
                        state.inFlight[host, default: 0] += 1
                        return .acquired
                    }
                    // onCancel may have run already, finding no waiter to remove.
                    if Task.isCancelled { return .cancelled }
                    var waiter = Waiter(id: id, continuation: continuation)
                    if let deadline {
                        waiter.timer = Task {
                            do {
                                try await Task.sleep(until: deadline, clock: .continuous)
                            } catch {
                                return  // acquired or cancelled first
                            }
                            self.abandon(host: host, id: id, with: .deadlineExceeded)
                        }
                    }
                    state.waiting[host, default: []].append(waiter)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                }
            }
        } onCancel: {
            self.abandon(host: host, id: id, with: .cancelled)
        }
    }

    /// Gives one of `host`'s slots back: to the longest waiter if there is one.
    func release(host: String) {
        let next: Waiter? = state.withLock { state in
            if var queue = state.waiting[host], !queue.isEmpty {
                let first = queue.removeFirst()
                state.waiting[host] = queue.isEmpty ? nil : queue
                return first  // the slot passes straight on: inFlight unchanged
            }
            let remaining = state.inFlight[host, default: 1] - 1
            state.inFlight[host] = remaining > 0 ? remaining : nil
            return nil
        }
        guard let next else { return }
        next.timer?.cancel()
        next.continuation.resume(returning: .acquired)
    }

    /// The number of callers waiting for `host` (for tests).
    func waitingCount(host: String) -> Int {
        state.withLock { $0.waiting[host]?.count ?? 0 }
    }

    private func abandon(host: String, id: UInt64, with outcome: Acquisition) {
        let removed: Waiter? = state.withLock { state in
            guard var queue = state.waiting[host], let index = queue.firstIndex(where: { $0.id == id }) else {
                return nil
            }
            let waiter = queue.remove(at: index)
            state.waiting[host] = queue.isEmpty ? nil : queue
            return waiter
        }
        guard let removed else { return }
        removed.timer?.cancel()
        removed.continuation.resume(returning: outcome)
    }
}
