/// What must outlive one GraphQL request, behind one seam: upstream responses and kept results
/// (entries with an expiry), in-flight claims (so that one sender fetches what several want),
/// the quota ledger's counters, and persisted documents.
///
/// Three stores implement it: `MemoryStore` (one process, gone on exit), an SQLite file (one
/// machine, several processes, kept across restarts) and Redis (a fleet). Keys are plain text the
/// caller builds without secrets; a store may prefix them (Redis: `musicgraph:v1:`). Values are
/// bytes: decoding them is the caller's business, and a value that fails to decode is a miss.
///
/// Every call may fail with `SharedStoreError` (a store that is down, slow or corrupt); callers
/// treat a failure as a miss, an unheld claim, or an unknown counter, and carry on without the
/// store: an outage never fails a query.
public protocol SharedStore: Sendable {
    /// `memory`, `sqlite` or `redis`: for logs, `/metrics` and `/readyz`.
    var kind: String { get }

    /// False while the store is known to drop calls at once (a circuit breaker open), so that a
    /// caller may skip preparing a write it would drop. True by default.
    var isTakingCalls: Bool { get }

    // MARK: Entries (upstream responses, kept results)

    /// The live entry under `key`; nil when there is none or it has expired.
    func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry?

    /// Stores `entry` under `key` until `entry.expiresAtMs`, replacing any other; the store may
    /// evict other entries (least recently used or soonest to expire first) to stay in its bound.
    func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError)

    /// Drops the entry under `key`, if any.
    func removeEntry(_ key: String) async throws(SharedStoreError)

    // MARK: In-flight claims

    /// Takes the claim on `key` for `holder` for `ttlMs` milliseconds, unless someone else holds
    /// a live one. A holder that crashes blocks no one longer than the TTL.
    /// - Returns: true when `holder` now holds the claim.
    func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool

    /// Gives up `holder`'s claim on `key` (nothing when another holder has it now) and wakes
    /// those waiting in `awaitRelease`.
    func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError)

    /// Returns once nobody holds a live claim on `key`, or after `timeoutMs` at the latest.
    /// - Returns: true when the claim was released (or had expired), false on the timeout.
    func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool

    // MARK: Counters (the quota ledger)

    /// Adds `units` to the counter `key` atomically, unless that would take it above `limit`
    /// (nil: no limit; negative `units` give units back). A counter starts at 0 and is dropped
    /// after `expiresAtMs`.
    /// - Returns: whether the units were added, and the counter's value afterwards.
    func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64) async throws(SharedStoreError)
        -> CounterUpdate

    /// Raises the counter `key` to at least `value` (a provider that says its quota is spent).
    /// - Returns: the counter's value afterwards.
    func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int

    /// The counter's value; 0 when it does not exist.
    func counter(_ key: String) async throws(SharedStoreError) -> Int

    // MARK: Persisted documents

    /// The document registered under its SHA-256 (64 lower-case hex digits); nil when unknown.
    func document(sha256: String) async throws(SharedStoreError) -> String?

    /// Registers `text` under `sha256` (the caller has checked that it is the text's hash). The
    /// store keeps a bounded number of documents, dropping the least recently used.
    func putDocument(sha256: String, text: String) async throws(SharedStoreError)
}

/// A stored value and the wall-clock instant it stops being served.
public struct StoredEntry: Sendable, Equatable {
    public var value: [UInt8]
    /// Unix time in milliseconds: entries are shared between processes, so no monotonic clock.
    public var expiresAtMs: Int64

    public init(value: [UInt8], expiresAtMs: Int64) {
        self.value = value
        self.expiresAtMs = expiresAtMs
    }
}

/// The result of `SharedStore.addToCounter`.
public struct CounterUpdate: Sendable, Equatable {
    /// False when the units would have taken the counter over its limit (nothing was added).
    public var applied: Bool
    /// The counter's value after the call.
    public var value: Int

    public init(applied: Bool, value: Int) {
        self.applied = applied
        self.value = value
    }
}

/// A store call that did not complete.
public struct SharedStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, without secrets (never a password from a Redis URL).
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension SharedStore {
    public var isTakingCalls: Bool { true }
}
