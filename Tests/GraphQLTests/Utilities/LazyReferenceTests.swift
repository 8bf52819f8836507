import GraphQL
import Testing

@Suite struct LazyReferenceTests {
    final class Box: Sendable {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    @Test func theFirstStoreWinsAndLaterOnesGetItBack() {
        let reference = LazyReference<Box>()
        #expect(reference.load() == nil)
        let first = reference.storeIfNil(Box(1))
        #expect(first.value == 1)
        #expect(reference.storeIfNil(Box(2)) === first)
        #expect(reference.load() === first)
    }

    @Test func theLosingObjectIsReleasedAndTheStoredOneWithTheReference() {
        weak var loser: Box?
        weak var kept: Box?
        do {
            let reference = LazyReference<Box>()
            do {
                let a = Box(1)
                let b = Box(2)
                kept = a
                loser = b
                _ = reference.storeIfNil(a)
                _ = reference.storeIfNil(b)
            }
            #expect(loser == nil)
            #expect(kept?.value == 1)
            _ = consume reference
        }
        #expect(kept == nil)
    }

    @Test func concurrentStoresAllSeeOneObject() async {
        final class Holder: Sendable { let reference = LazyReference<Box>() }
        let holder = Holder()
        let seen = await withTaskGroup(of: Int.self) { group in
            for n in 0..<64 { group.addTask { holder.reference.storeIfNil(Box(n)).value } }
            var values: Set<Int> = []
            for await value in group { values.insert(value) }
            return values
        }
        #expect(seen.count == 1)
        #expect(holder.reference.load()?.value == seen.first)
    }
}
