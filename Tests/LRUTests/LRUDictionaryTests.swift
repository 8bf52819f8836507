import Testing

@testable import LRU

@Suite struct LRUDictionaryTests {
    @Test func keepsEntriesInOrderOfUseWithTheirBytes() {
        var entries = LRUDictionary<String, Int>()
        entries.updateValue(1, forKey: "a", bytes: 10)
        entries.updateValue(2, forKey: "b", bytes: 20)
        entries.updateValue(3, forKey: "c", bytes: 30)
        #expect(entries.bytes == 60)
        #expect(entries.leastRecentlyUsed == "a")
        let a = entries.value(forKey: "a")
        #expect(a == 1)
        #expect(entries.leastRecentlyUsed == "b")
        #expect(entries.peekValue(forKey: "b") == 2)
        #expect(entries.leastRecentlyUsed == "b", "a peek does not use the entry")
        // Stored again with a new size: newest, 45 bytes in all, and the old value returned.
        let replaced = entries.updateValue(22, forKey: "b", bytes: 5)
        #expect(replaced == 2)
        #expect(entries.bytes == 45)
        #expect(entries.entries.map(\.key) == ["c", "a", "b"])
        #expect(entries.entries.map(\.value) == [3, 1, 22])
        let removed = entries.removeValue(forKey: "c")
        #expect(removed == 3)
        #expect(entries.leastRecentlyUsed == "a")
        #expect(entries.count == 2)
        let used = entries.use("c")
        #expect(!used)
        let oldest = entries.removeLeastRecentlyUsed()
        #expect(oldest?.key == "a")
        #expect(entries.bytes == 5)
    }

    @Test func anIndexReadsChargesAndUsesInPlace() throws {
        var entries = LRUDictionary<String, String>()
        entries.updateValue("x", forKey: "a", bytes: 1)
        entries.updateValue("y", forKey: "b", bytes: 1)
        let a = try #require(entries.index(forKey: "a"))
        entries[a] = "x2"
        entries.addBytes(9, at: a)
        #expect(entries.bytes(at: a) == 10)
        #expect(entries.bytes == 11)
        #expect(entries.leastRecentlyUsed == "a", "writing and charging do not use the entry")
        entries.use(at: a)
        #expect(entries.leastRecentlyUsed == "b")
        let removed = entries.remove(at: a)
        #expect(removed.key == "a" && removed.value == "x2")
        #expect(entries.bytes == 1)
        #expect(entries.index(forKey: "a") == nil)
    }

    @Test func reusesFreedSlotsAndEmptiesCleanly() {
        var entries = LRUDictionary<Int, Int>()
        for round in 0..<3 {
            for key in 0..<100 { entries.updateValue(key, forKey: key + round * 1_000, bytes: 1) }
            for key in 0..<100 { entries.removeValue(forKey: key + round * 1_000) }
            #expect(entries.count == 0)
            #expect(entries.bytes == 0)
            #expect(entries.leastRecentlyUsed == nil)
            let none = entries.removeLeastRecentlyUsed()
            #expect(none == nil)
        }
        entries.updateValue(7, forKey: 7, bytes: 3)
        #expect(entries.leastRecentlyUsed == 7)
        #expect(entries.nodes.count == 100, "freed slots are reused, not appended")
    }
}

@Suite struct LRUCacheTests {
    @Test func dropsTheLeastRecentlyUsedPastEitherBound() {
        let cache = LRUCache<String, Int>(capacity: 3, maxBytes: 100)
        cache.insert(1, for: "a", bytes: 40)
        cache.insert(2, for: "b", bytes: 40)
        #expect(cache.value(for: "a") == 1)
        cache.insert(3, for: "c", bytes: 40)  // 120 bytes: b, the least recently used, goes
        #expect(cache.value(for: "b") == nil)
        #expect(cache.usage.entries == 2 && cache.usage.bytes == 80)
        cache.insert(4, for: "d", bytes: 1)
        cache.insert(5, for: "e", bytes: 1)  // a fourth entry: a goes
        #expect(cache.value(for: "a") == nil)
        #expect(cache.usage.entries == 3)
        cache.insert(6, for: "f", bytes: 101)  // larger than the whole cache: not kept
        #expect(cache.value(for: "f") == nil)
        #expect(cache.usage.entries == 3)
        let none = LRUCache<String, Int>(capacity: 0)
        none.insert(1, for: "a")
        #expect(none.value(for: "a") == nil)
    }
}
