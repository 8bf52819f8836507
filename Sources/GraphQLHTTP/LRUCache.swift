import Synchronization

/// A bounded map that drops its least recently used entries first: at most `capacity`
/// entries and `maxBytes` bytes (each entry's size is what the caller says it is).
///
/// Thread-safe (one `Mutex`); every operation is O(1). Entries live in an array used as a
/// doubly linked list in recency order, with a free list, so nothing is allocated per hit.
final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node {
        var key: Key
        /// Nil once the node is on the free list, so a dropped value is released at once.
        var value: Value?
        var bytes: Int
        var older: Int
        var newer: Int
    }

    private struct State {
        var index: [Key: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        /// The most and least recently used nodes (-1 when empty).
        var newest = -1
        var oldest = -1
        var bytes = 0

        mutating func unlink(_ slot: Int) {
            let node = nodes[slot]
            if node.older >= 0 { nodes[node.older].newer = node.newer } else { oldest = node.newer }
            if node.newer >= 0 { nodes[node.newer].older = node.older } else { newest = node.older }
        }

        mutating func linkNewest(_ slot: Int) {
            nodes[slot].older = newest
            nodes[slot].newer = -1
            if newest >= 0 { nodes[newest].newer = slot }
            newest = slot
            if oldest < 0 { oldest = slot }
        }

        mutating func remove(_ slot: Int) {
            unlink(slot)
            index[nodes[slot].key] = nil
            bytes -= nodes[slot].bytes
            nodes[slot].value = nil
            free.append(slot)
        }
    }

    /// The most entries kept.
    let capacity: Int
    /// The most bytes kept, as the sizes given to `insert` add up.
    let maxBytes: Int
    private let state = Mutex(State())

    /// Keeps at most `capacity` entries of at most `maxBytes` bytes in total; 0 keeps nothing.
    init(capacity: Int, maxBytes: Int = .max) {
        self.capacity = max(0, capacity)
        self.maxBytes = max(0, maxBytes)
    }

    /// The value under `key`, now the most recently used; nil when absent.
    func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            if state.newest != slot {
                state.unlink(slot)
                state.linkNewest(slot)
            }
            return state.nodes[slot].value
        }
    }

    /// Stores `value` under `key` as the most recently used entry (replacing an older value),
    /// dropping the least recently used entries until both bounds hold. An entry larger than
    /// `maxBytes` on its own is not kept.
    func insert(_ value: Value, for key: Key, bytes: Int = 1) {
        guard capacity > 0, bytes <= maxBytes else { return }
        state.withLock { state in
            if let slot = state.index[key] { state.remove(slot) }
            while state.oldest >= 0, state.index.count >= capacity || state.bytes + bytes > maxBytes {
                state.remove(state.oldest)
            }
            let node = Node(key: key, value: value, bytes: bytes, older: -1, newer: -1)
            let slot: Int
            if let reused = state.free.popLast() {
                state.nodes[reused] = node
                slot = reused
            } else {
                state.nodes.append(node)
                slot = state.nodes.count - 1
            }
            state.index[key] = slot
            state.bytes += bytes
            state.linkNewest(slot)
        }
    }

    /// Entries and bytes held now.
    var usage: (entries: Int, bytes: Int) { state.withLock { ($0.index.count, $0.bytes) } }
}
