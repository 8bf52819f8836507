import Synchronization

/// A bounded map that drops its least recently used entries first: at most `capacity`
/// entries and `maxBytes` bytes (each entry's size is what the caller says it is).
/// Thread-safe (one `Mutex` over an `LRUDictionary`); every operation is O(1). Inlinable, as the
/// dictionary is: a lookup is specialized with its owner's key and value types.
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most entries kept.
    public let capacity: Int
    /// The most bytes kept, as the sizes given to `insert` add up.
    public let maxBytes: Int
    @usableFromInline let state = Mutex(LRUDictionary<Key, Value>())

    /// Keeps at most `capacity` entries of at most `maxBytes` bytes in total; 0 keeps nothing.
    public init(capacity: Int, maxBytes: Int = .max) {
        self.capacity = max(0, capacity)
        self.maxBytes = max(0, maxBytes)
    }

    /// The value under `key`, now the most recently used; nil when absent.
    @inlinable
    public func value(for key: Key) -> Value? {
        state.withLock { $0.value(forKey: key) }
    }

    /// Stores `value` under `key` as the most recently used entry (replacing an older value),
    /// dropping the least recently used entries until both bounds hold. An entry larger than
    /// `maxBytes` on its own is not kept.
    @inlinable
    public func insert(_ value: Value, for key: Key, bytes: Int = 1) {
        guard capacity > 0, bytes <= maxBytes else { return }
        state.withLock { entries in
            entries.removeValue(forKey: key)
            while !entries.isEmpty, entries.count >= capacity || entries.bytes + bytes > maxBytes {
                entries.removeLeastRecentlyUsed()
            }
            entries.updateValue(value, forKey: key, bytes: bytes)
        }
    }

    /// Entries and bytes held now.
    @inlinable
    public var usage: (entries: Int, bytes: Int) { state.withLock { ($0.count, $0.bytes) } }
}
