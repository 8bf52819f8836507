/// A dictionary that keeps its keys in order of use, with a size in bytes for each entry: the
/// bookkeeping of every cache bounded in bytes that drops its least recently used entries first.
/// It holds no bound itself; its owner removes `leastRecentlyUsed` entries while `bytes` is over
/// its own limit, and takes its own lock (a value, not thread-safe).
///
/// Every operation is O(1) and a hit allocates nothing: entries live in an array threaded as a
/// doubly linked list from the least to the most recently used, with freed slots reused.
/// Inlinable, so that each owner's use is specialized with its own key and value types.
public struct LRUDictionary<Key: Hashable, Value> {
    /// A position of an entry, valid until the dictionary is next changed.
    public struct Index: Equatable {
        @usableFromInline let slot: Int

        @inlinable init(slot: Int) { self.slot = slot }
    }

    @usableFromInline
    struct Node {
        /// Nil once the slot is free, so a removed value is released at once.
        @usableFromInline var entry: (key: Key, value: Value)?
        @usableFromInline var bytes: Int
        @usableFromInline var older: Int
        @usableFromInline var newer: Int

        @inlinable
        init(entry: (key: Key, value: Value)?, bytes: Int, older: Int, newer: Int) {
            self.entry = entry
            self.bytes = bytes
            self.older = older
            self.newer = newer
        }
    }

    @usableFromInline var nodes: [Node] = []
    @usableFromInline var free: [Int] = []
    @usableFromInline var slots: [Key: Int] = [:]
    /// The least and the most recently used slots; -1 when empty.
    @usableFromInline var oldest = -1
    @usableFromInline var newest = -1
    @usableFromInline var totalBytes = 0

    /// The sum of every entry's bytes.
    @inlinable public var bytes: Int { totalBytes }

    @inlinable public init() {}

    /// The number of entries.
    @inlinable public var count: Int { slots.count }

    @inlinable public var isEmpty: Bool { slots.isEmpty }

    /// Where `key`'s entry is; nil when there is none. Finding it does not use it.
    @inlinable
    public func index(forKey key: Key) -> Index? {
        guard let slot = slots[key] else { return nil }
        return Index(slot: slot)
    }

    /// The value at `index`, read or replaced in place (its bytes and recency stay).
    @inlinable
    public subscript(index: Index) -> Value {
        get { nodes[index.slot].entry!.value }
        set { nodes[index.slot].entry!.value = newValue }
    }

    /// The bytes counted for the entry at `index`.
    @inlinable
    public func bytes(at index: Index) -> Int { nodes[index.slot].bytes }

    /// Adds `delta` bytes to the entry at `index` (and to `bytes`).
    @inlinable
    public mutating func addBytes(_ delta: Int, at index: Index) {
        nodes[index.slot].bytes += delta
        totalBytes += delta
    }

    /// Makes the entry at `index` the most recently used.
    @inlinable
    public mutating func use(at index: Index) {
        let slot = index.slot
        guard slot != newest else { return }
        unlink(slot)
        link(slot)
    }

    /// The value under `key`, without using it; nil when there is none.
    @inlinable
    public func peekValue(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        return nodes[slot].entry!.value
    }

    /// The value under `key`, now the most recently used; nil when there is none.
    @inlinable
    public mutating func value(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        use(at: Index(slot: slot))
        return nodes[slot].entry!.value
    }

    /// Makes the entry under `key` the most recently used; false when there is none.
    @inlinable
    @discardableResult
    public mutating func use(_ key: Key) -> Bool {
        guard let slot = slots[key] else { return false }
        use(at: Index(slot: slot))
        return true
    }

    /// Stores `value` under `key` with `bytes` as the most recently used entry, and returns the
    /// value it replaces, if any.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key, bytes newBytes: Int) -> Value? {
        if let slot = slots[key] {
            let old = nodes[slot].entry!.value
            nodes[slot].entry = (key, value)
            totalBytes += newBytes - nodes[slot].bytes
            nodes[slot].bytes = newBytes
            use(at: Index(slot: slot))
            return old
        }
        let node = Node(entry: (key, value), bytes: newBytes, older: -1, newer: -1)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        slots[key] = slot
        totalBytes += newBytes
        link(slot)
        return nil
    }

    /// Removes the entry under `key` and returns its value; nil when there is none.
    @inlinable
    @discardableResult
    public mutating func removeValue(forKey key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        return remove(at: Index(slot: slot)).value
    }

    /// Removes the entry at `index` and returns it.
    @inlinable
    @discardableResult
    public mutating func remove(at index: Index) -> (key: Key, value: Value) {
        let slot = index.slot
        let entry = nodes[slot].entry!
        slots[entry.key] = nil
        totalBytes -= nodes[slot].bytes
        unlink(slot)
        nodes[slot].entry = nil
        nodes[slot].bytes = 0
        free.append(slot)
        return entry
    }

    /// The least recently used entry's key; nil when empty.
    @inlinable
    public var leastRecentlyUsed: Key? { oldest >= 0 ? nodes[oldest].entry?.key : nil }

    /// Removes the least recently used entry and returns it; nil when empty.
    @inlinable
    @discardableResult
    public mutating func removeLeastRecentlyUsed() -> (key: Key, value: Value)? {
        oldest >= 0 ? remove(at: Index(slot: oldest)) : nil
    }

    /// Every entry, from the least to the most recently used.
    public var entries: [(key: Key, value: Value)] {
        var out: [(key: Key, value: Value)] = []
        out.reserveCapacity(count)
        var slot = oldest
        while slot >= 0 {
            if let entry = nodes[slot].entry { out.append(entry) }
            slot = nodes[slot].newer
        }
        return out
    }

    @inlinable
    mutating func unlink(_ slot: Int) {
        let (older, newer) = (nodes[slot].older, nodes[slot].newer)
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        nodes[slot].older = -1
        nodes[slot].newer = -1
    }

    @inlinable
    mutating func link(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}

extension LRUDictionary: Sendable where Key: Sendable, Value: Sendable {}
extension LRUDictionary.Node: Sendable where Key: Sendable, Value: Sendable {}
extension LRUDictionary.Index: Sendable {}
