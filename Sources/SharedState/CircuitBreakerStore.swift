import Synchronization

/// A `SharedStore` in front of another that stops asking it for a while once it fails (a
/// circuit breaker), so that a store that hangs costs one bounded timeout, not one per call.
///
/// - Closed (the store answers): every call goes through.
/// - Open: after a call fails, every call fails at once with `SharedStoreError` (callers treat
///   it like any failure: a miss, a claim of their own, the ledger's local count) for the
///   back-off, `initialBackoffMs` at first, doubled after each failed probe up to `maxBackoffMs`.
/// - Probing: the first call after the back-off starts one probe (a counter read) in the
///   background and fails at once like the others; only one probe runs at a time, and no
///   caller ever waits on it. A probe that succeeds closes the breaker (and resets the
///   back-off); one that fails opens it again.
///
/// So a hung store (a `SIGSTOP`ped redis-server: connections accepted, nothing answered) costs
/// the calls in flight when it hung their timeout, and nothing after; it is used again within
/// one back-off of answering. Thread-safe.
public final class CircuitBreakerStore: SharedStore, Sendable {
    public let base: any SharedStore
    public var kind: String { base.kind }
    /// The first back-off after a failure, in milliseconds.
    public let initialBackoffMs: Int
    /// The longest back-off, in milliseconds: how late at worst a store that is back is used again.
    public let maxBackoffMs: Int

    private struct State {
        /// Nil while closed; else the instant the next probe may start.
        var openUntil: ContinuousClock.Instant?
        var backoffMs: Int
        var probing = false
        /// The failure that opened the breaker, repeated in the errors of skipped calls.
        var reason = ""
        var skipped = 0
    }
    private let state: Mutex<State>

    /// - Parameters:
    ///   - initialBackoffMs: calls skipped after the first failure (at least 1 ms).
    ///   - maxBackoffMs: the back-off's ceiling (at least `initialBackoffMs`).
    public init(_ base: any SharedStore, initialBackoffMs: Int = 250, maxBackoffMs: Int = 2_000) {
        self.base = base
        self.initialBackoffMs = max(1, initialBackoffMs)
        self.maxBackoffMs = max(self.initialBackoffMs, maxBackoffMs)
        self.state = Mutex(State(backoffMs: self.initialBackoffMs))
    }

    /// True while calls are skipped (a failure within the back-off, or a probe running).
    public var isOpen: Bool { state.withLock { $0.openUntil != nil } }

    public var isTakingCalls: Bool { !isOpen }

    /// Calls failed at once without reaching the store, since the start.
    public var skippedCalls: Int { state.withLock { $0.skipped } }

    /// Runs `call` on the base store unless the breaker is open.
    /// - Throws: the base store's error (which opens the breaker), or a `SharedStoreError`
    ///   naming the failure that opened it when the call was skipped.
    private func guarded<T: Sendable>(_ call: () async throws(SharedStoreError) -> T) async throws(SharedStoreError)
        -> T
    {
        let now = ContinuousClock.now
        let skip: (reason: String, startProbe: Bool)? = state.withLock { state in
            guard let until = state.openUntil else { return nil }
            state.skipped += 1
            guard now >= until, !state.probing else { return (state.reason, false) }
            state.probing = true
            return (state.reason, true)
        }
        if let skip {
            if skip.startProbe { Task { await self.probe() } }
            throw SharedStoreError("skipped while the \(kind) store is failing (\(skip.reason))")
        }
        do {
            return try await call()
        } catch {
            open(after: error, growing: false)
            throw error
        }
    }

    /// One cheap call on the base store, in the background: closes the breaker when it succeeds.
    private func probe() async {
        do {
            _ = try await base.counter("probe")
            state.withLock { state in
                state = State(backoffMs: initialBackoffMs, skipped: state.skipped)
            }
        } catch {
            open(after: error, growing: true)
        }
    }

    private func open(after error: SharedStoreError, growing: Bool) {
        let now = ContinuousClock.now
        state.withLock { state in
            if growing { state.backoffMs = min(maxBackoffMs, state.backoffMs * 2) }
            state.probing = false
            state.reason = error.message
            state.openUntil = now.advanced(by: .milliseconds(state.backoffMs))
        }
    }

    // MARK: SharedStore, each call guarded

    public func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? {
        try await guarded { () async throws(SharedStoreError) in try await base.entry(key) }
    }

    public func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        try await guarded { () async throws(SharedStoreError) in try await base.putEntry(key, entry) }
    }

    public func removeEntry(_ key: String) async throws(SharedStoreError) {
        try await guarded { () async throws(SharedStoreError) in try await base.removeEntry(key) }
    }

    public func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        try await guarded { () async throws(SharedStoreError) in try await base.claim(key, holder: holder, ttlMs: ttlMs)
        }
    }

    public func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        try await guarded { () async throws(SharedStoreError) in try await base.releaseClaim(key, holder: holder) }
    }

    public func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        try await guarded { () async throws(SharedStoreError) in try await base.awaitRelease(key, timeoutMs: timeoutMs)
        }
    }

    public func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64)
        async throws(SharedStoreError) -> CounterUpdate
    {
        try await guarded { () async throws(SharedStoreError) in
            try await base.addToCounter(key, units: units, limit: limit, expiresAtMs: expiresAtMs)
        }
    }

    public func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        try await guarded { () async throws(SharedStoreError) in
            try await base.raiseCounter(key, to: value, expiresAtMs: expiresAtMs)
        }
    }

    public func counter(_ key: String) async throws(SharedStoreError) -> Int {
        try await guarded { () async throws(SharedStoreError) in try await base.counter(key) }
    }

    public func document(sha256: String) async throws(SharedStoreError) -> String? {
        try await guarded { () async throws(SharedStoreError) in try await base.document(sha256: sha256) }
    }

    public func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        try await guarded { () async throws(SharedStoreError) in try await base.putDocument(sha256: sha256, text: text)
        }
    }
}
