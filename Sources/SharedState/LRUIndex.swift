/// Keys in order of use with a byte size each: the bookkeeping of a store bounded in bytes that
/// drops its least recently used keys first. O(1) per use, insertion and removal (a doubly
/// linked list threaded through an array, free slots reused). Not thread-safe: its owner locks.
struct LRUIndex<Key: Hashable> {
    private struct Node {
        var key: Key?
        var bytes: Int
        var older: Int
        var newer: Int
    }

    private var nodes: [Node] = []
    private var free: [Int] = []
    private var slots: [Key: Int] = [:]
    /// Oldest and newest slots; -1 when empty.
    private var oldest = -1
    private var newest = -1
    /// The sum of every key's bytes.
    private(set) var bytes = 0

    var count: Int { slots.count }

    func contains(_ key: Key) -> Bool { slots[key] != nil }

    /// Makes `key` the most recently used, with `bytes` (added when new, replaced otherwise).
    mutating func use(_ key: Key, bytes newBytes: Int) {
        if let slot = slots[key] {
            bytes += newBytes - nodes[slot].bytes
            nodes[slot].bytes = newBytes
            unlink(slot)
            link(slot)
            return
        }
        let node = Node(key: key, bytes: newBytes, older: -1, newer: -1)
        let slot: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            slot = reused
        } else {
            nodes.append(node)
            slot = nodes.count - 1
        }
        slots[key] = slot
        bytes += newBytes
        link(slot)
    }

    /// Makes an existing `key` the most recently used; false when it is not indexed.
    @discardableResult
    mutating func touch(_ key: Key) -> Bool {
        guard let slot = slots[key] else { return false }
        if slot != newest {
            unlink(slot)
            link(slot)
        }
        return true
    }

    mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        bytes -= nodes[slot].bytes
        unlink(slot)
        nodes[slot].key = nil
        free.append(slot)
    }

    /// The least recently used key; nil when empty.
    var leastRecentlyUsed: Key? { oldest >= 0 ? nodes[oldest].key : nil }

    private mutating func unlink(_ slot: Int) {
        let (older, newer) = (nodes[slot].older, nodes[slot].newer)
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        nodes[slot].older = -1
        nodes[slot].newer = -1
    }

    private mutating func link(_ slot: Int) {
        nodes[slot].older = newest
        nodes[slot].newer = -1
        if newest >= 0 { nodes[newest].newer = slot } else { oldest = slot }
        newest = slot
    }
}
