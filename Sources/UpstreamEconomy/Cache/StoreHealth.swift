import SharedState
import Synchronization

/// How the shared store has been answering: the outcome of its latest call and the count of
/// failed ones, for `/metrics` and `/readyz`. A failed call is worked around by its caller (a
/// miss, an unheld claim, the ledger's own count), so a store that is down degrades the
/// gateway (more upstream requests) without failing a query. Thread-safe.
public final class StoreHealth: Sendable {
    /// The store's `kind` (`memory`, `sqlite`, `redis`).
    public let kind: String
    private struct State {
        package var up = true
        package var errors = 0
        package var lastError: String?
    }
    private let state = Mutex(State())

    public init(kind: String) {
        self.kind = kind
    }

    /// What `/readyz` shows.
    public struct Snapshot: Sendable, Equatable {
        /// False after the latest store call failed, until one succeeds again.
        public var up: Bool
        /// Store calls that failed since the start.
        public var errors: Int
        /// The latest failure's message (never a secret: `SharedStoreError` carries none).
        public var lastError: String?
    }

    public var snapshot: Snapshot {
        state.withLock { Snapshot(up: $0.up, errors: $0.errors, lastError: $0.lastError) }
    }

    package func recordSuccess() {
        state.withLock { $0.up = true }
    }

    package func recordFailure(_ error: SharedStoreError) {
        state.withLock { state in
            state.up = false
            state.errors += 1
            state.lastError = error.message
        }
    }

    /// Runs one store call, noting its outcome; nil when it failed.
    package func attempt<T: Sendable>(_ call: () async throws(SharedStoreError) -> T) async -> T? {
        do {
            let value = try await call()
            recordSuccess()
            return value
        } catch {
            recordFailure(error)
            return nil
        }
    }
}
