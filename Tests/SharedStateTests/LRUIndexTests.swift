import Testing

@testable import SharedState

@Suite struct LRUIndexTests {
    @Test func keepsKeysInOrderOfUseWithTheirBytes() {
        var index = LRUIndex<String>()
        index.use("a", bytes: 10)
        index.use("b", bytes: 20)
        index.use("c", bytes: 30)
        #expect(index.bytes == 60)
        #expect(index.leastRecentlyUsed == "a")
        index.touch("a")
        #expect(index.leastRecentlyUsed == "b")
        index.use("b", bytes: 5)  // used again with a new size: newest, and 45 bytes in all
        #expect(index.bytes == 45)
        #expect(index.leastRecentlyUsed == "c")
        index.remove("c")
        #expect(index.leastRecentlyUsed == "a")
        #expect(index.count == 2)
        let touched = index.touch("c")
        #expect(!touched)
    }

    @Test func reusesFreedSlotsAndEmptiesCleanly() {
        var index = LRUIndex<Int>()
        for round in 0..<3 {
            for key in 0..<100 { index.use(key + round * 1_000, bytes: 1) }
            for key in 0..<100 { index.remove(key + round * 1_000) }
            #expect(index.count == 0)
            #expect(index.bytes == 0)
            #expect(index.leastRecentlyUsed == nil)
        }
        index.use(7, bytes: 3)
        #expect(index.leastRecentlyUsed == 7)
    }
}
