import Synchronization

/// Request deadlines without a sleeping task per request.
///
/// Why not `Task.sleep` per request: on Linux a cancelled sleep resumes its task at once, but the
/// timer behind it stays queued (with its allocation) until the original deadline. At 10,000
/// requests/s and a 30 s timeout that is 300,000 dead timers: the gateway's RSS grew ~5 MB per
/// second under load in bench/http-gateway.sh. Here one task ticks every `tickMs` while any
/// deadline is pending and fires those that have passed; it stops when none are left.
/// Deadlines therefore fire up to `tickMs` late.
final class DeadlineScheduler: Sendable {
    /// Firing precision, in milliseconds: 10 ms is far below any useful request timeout.
    static let tickMs = 10

    private struct Entry {
        var deadline: ContinuousClock.Instant
        var fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var nextToken = 0
        var ticking = false
    }

    private let state = Mutex(State())

    init() {}

    /// Calls `fire` once, about `milliseconds` from now, unless `cancel(_:)` gets the returned
    /// token first.
    func schedule(afterMs milliseconds: Int, _ fire: @escaping @Sendable () -> Void) -> Int {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        let (token, startTicking) = state.withLock { state in
            state.nextToken += 1
            state.entries[state.nextToken] = Entry(deadline: deadline, fire: fire)
            defer { state.ticking = true }
            return (state.nextToken, !state.ticking)
        }
        if startTicking {
            Task { await self.tick() }
        }
        return token
    }

    /// Forgets a deadline; harmless when it already fired.
    func cancel(_ token: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: token) }
    }

    var pendingCount: Int { state.withLock { $0.entries.count } }

    private func tick() async {
        while true {
            try? await Task.sleep(for: .milliseconds(Self.tickMs))
            let now = ContinuousClock.now
            let (due, keepTicking) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                var due: [@Sendable () -> Void] = []
                for (token, entry) in state.entries where entry.deadline <= now {
                    due.append(entry.fire)
                    state.entries[token] = nil
                }
                if state.entries.isEmpty { state.ticking = false }
                return (due, !state.entries.isEmpty)
            }
            for fire in due { fire() }
            if !keepTicking { return }
        }
    }
}
