import LRU
import Synchronization

/// `SharedStore` in this process's memory: what tests, `--demo` and `--store memory` use. Gone
/// when the process ends; shared by nothing else. Entries are bounded in bytes (least recently
/// used dropped first), documents in number; claims and counters are small and few.
public final class MemoryStore: SharedStore, Sendable {
    public var kind: String { "memory" }

    /// The most entry bytes (values plus keys) kept at once.
    public let maxEntryBytes: Int
    /// The most persisted documents kept at once.
    public let maxDocuments: Int
    private let clock: WallClock

    private struct State {
        var entries = LRUDictionary<String, StoredEntry>()
        var claims: [String: (holder: String, expiresAtMs: Int64)] = [:]
        var counters: [String: (value: Int, expiresAtMs: Int64)] = [:]
        var documents = LRUDictionary<String, String>()
    }

    private let state = Mutex(State())

    public init(maxEntryBytes: Int = 64 << 20, maxDocuments: Int = 10_000, clock: WallClock = .system) {
        self.maxEntryBytes = max(0, maxEntryBytes)
        self.maxDocuments = max(0, maxDocuments)
        self.clock = clock
    }

    public func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? {
        let now = clock.nowMs()
        return state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            let entry = state.entries[index]
            guard entry.expiresAtMs > now else {
                state.entries.remove(at: index)
                return nil
            }
            state.entries.use(at: index)
            return entry
        }
    }

    public func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        let bytes = entry.value.count + key.utf8.count
        guard bytes <= maxEntryBytes, entry.expiresAtMs > clock.nowMs() else { return }
        state.withLock { state in
            state.entries.updateValue(entry, forKey: key, bytes: bytes)
            while state.entries.bytes > maxEntryBytes { state.entries.removeLeastRecentlyUsed() }
        }
    }

    public func removeEntry(_ key: String) async throws(SharedStoreError) {
        state.withLock { state in
            _ = state.entries.removeValue(forKey: key)
        }
    }

    public func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        let now = clock.nowMs()
        return state.withLock { state in
            if let claim = state.claims[key], claim.expiresAtMs > now, claim.holder != holder { return false }
            state.claims[key] = (holder, now + Int64(max(1, ttlMs)))
            return true
        }
    }

    public func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        state.withLock { state in
            if state.claims[key]?.holder == holder { state.claims[key] = nil }
        }
    }

    public func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        // Claims here are taken by this process only, which shares its in-flight sends directly;
        // a short poll is enough for the rare caller that waits on one.
        let deadline = clock.nowMs() + Int64(max(0, timeoutMs))
        while true {
            let now = clock.nowMs()
            let held = state.withLock { state in
                guard let claim = state.claims[key] else { return false }
                return claim.expiresAtMs > now
            }
            if !held { return true }
            if now >= deadline { return false }
            do {
                try await Task.sleep(for: .milliseconds(2))
            } catch {
                throw SharedStoreError("cancelled while waiting for a claim")
            }
        }
    }

    public func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64)
        async throws(SharedStoreError) -> CounterUpdate
    {
        let now = clock.nowMs()
        return state.withLock { state in
            var current = state.counters[key].flatMap { $0.expiresAtMs > now ? $0.value : nil } ?? 0
            if let limit, units > 0, current + units > limit { return CounterUpdate(applied: false, value: current) }
            current += units
            state.counters[key] = (current, expiresAtMs)
            return CounterUpdate(applied: true, value: current)
        }
    }

    public func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        let now = clock.nowMs()
        return state.withLock { state in
            let current = state.counters[key].flatMap { $0.expiresAtMs > now ? $0.value : nil } ?? 0
            let raised = max(current, value)
            state.counters[key] = (raised, expiresAtMs)
            return raised
        }
    }

    public func counter(_ key: String) async throws(SharedStoreError) -> Int {
        let now = clock.nowMs()
        return state.withLock { state in
            state.counters[key].flatMap { $0.expiresAtMs > now ? $0.value : nil } ?? 0
        }
    }

    public func document(sha256: String) async throws(SharedStoreError) -> String? {
        state.withLock { state in
            state.documents.value(forKey: sha256)
        }
    }

    public func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        guard maxDocuments > 0 else { return }
        state.withLock { state in
            state.documents.updateValue(text, forKey: sha256, bytes: 1)
            while state.documents.count > maxDocuments { state.documents.removeLeastRecentlyUsed() }
        }
    }
}
