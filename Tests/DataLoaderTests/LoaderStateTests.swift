// The loader's state machine driven directly, with no tasks: sinks are plain strings.
import Testing

@testable import DataLoader

@Suite("LoaderState")
struct LoaderStateTests {
    typealias State = LoaderState<Int, String, String>

    private func slots(_ woken: [(waiter: Waiter<String>, result: Result<String, any Error>)])
        -> [String]
    {
        woken.map { "\($0.waiter.sink)#\($0.waiter.slot)=\((try? $0.result.get()) ?? "error")" }
    }

    @Test func theFirstQueuedKeyAsksToBeScheduledOnce() {
        var state = State(maxBatchSize: .max)
        let a = state.register([1, 2, 1], request: state.newRequest(), sink: "a", cancelled: false)
        #expect(a.waiting == 3)
        #expect(a.schedule == true)
        let b = state.register([2, 3], request: state.newRequest(), sink: "b", cancelled: false)
        #expect(b.waiting == 2)
        #expect(b.schedule == false)
        #expect(state.queuedKeys == [1, 2, 3])
    }

    @Test func takeQueueCutsBatchesAndCompleteWakesEveryWaiter() {
        var state = State(maxBatchSize: 2)
        _ = state.register([1, 2, 3], request: state.newRequest(), sink: "a", cancelled: false)
        _ = state.register([3], request: state.newRequest(), sink: "b", cancelled: false)
        let batches = state.takeQueue()
        #expect(batches.map(\.keys) == [[1, 2], [3]])
        #expect(state.queuedKeys == [])
        #expect(state.batchesInFlight == 2)
        let woken = state.complete(batches[1].id, results: [.success("three")], cacheable: true)
        #expect(slots(woken) == ["a#2=three", "b#0=three"])
        #expect((try? state.lookUp(3)?.get()) == "three")
        #expect(state.lookUp(1) == nil)
        #expect(state.batchesInFlight == 1)
    }

    @Test func aFailedDispatchLeavesItsKeysUncached() {
        var state = State(maxBatchSize: .max)
        _ = state.register([1], request: state.newRequest(), sink: "a", cancelled: false)
        let batch = state.takeQueue()[0]
        let woken = state.complete(batch.id, results: [.failure(TestFailure("down"))], cacheable: false)
        #expect(slots(woken) == ["a#0=error"])
        #expect(state.lookUp(1) == nil)
        let again = state.register([1], request: state.newRequest(), sink: "b", cancelled: false)
        #expect(again.schedule == true)
        #expect(state.queuedKeys == [1])
    }

    @Test func cancelRemovesOnlyThatRequestsWaiters() {
        var state = State(maxBatchSize: .max)
        let first = state.newRequest()
        _ = state.register([1, 2], request: first, sink: "a", cancelled: false)
        let second = state.newRequest()
        _ = state.register([1], request: second, sink: "b", cancelled: false)
        let removed = state.cancel(first)
        #expect(removed.map { "\($0.sink)#\($0.slot)" }.sorted() == ["a#0", "a#1"])
        #expect(state.cancel(first).isEmpty)
        // Key 2 lost its only waiter: it is not dispatched.
        #expect(state.takeQueue().map(\.keys) == [[1]])
    }

    @Test func aCancelledCallRegistersNothingButStillGetsCachedAnswers() {
        var state = State(maxBatchSize: .max)
        #expect(state.prime(1, "one") == true)
        let registration = state.register(
            [1, 2], request: state.newRequest(), sink: "a", cancelled: true)
        #expect(registration.resolved.map(\.slot) == [0])
        #expect(registration.cancelled == [1])
        #expect(registration.waiting == 0)
        #expect(registration.schedule == false)
        #expect(state.queuedKeys == [])
    }

    @Test func aKeyClearedWhileQueuedIsNotQueuedTwice() {
        var state = State(maxBatchSize: .max)
        _ = state.register([1], request: state.newRequest(), sink: "a", cancelled: false)
        state.clear(1)
        _ = state.register([1], request: state.newRequest(), sink: "b", cancelled: false)
        #expect(state.queuedKeys == [1])
        let batch = state.takeQueue()[0]
        #expect(
            slots(state.complete(batch.id, results: [.success("one")], cacheable: true)) == [
                "a#0=one", "b#0=one",
            ])
        // Loaded again after the clear: the answer is cached.
        #expect((try? state.lookUp(1)?.get()) == "one")
    }

    @Test func aKeyClearedWhileQueuedIsAnsweredButNotCached() {
        var state = State(maxBatchSize: .max)
        _ = state.register([1], request: state.newRequest(), sink: "a", cancelled: false)
        state.clear(1)
        #expect(state.prime(1, "primed") == false)
        let batch = state.takeQueue()[0]
        #expect(batch.keys == [1])
        #expect(
            slots(state.complete(batch.id, results: [.success("one")], cacheable: true)) == ["a#0=one"])
        #expect(state.lookUp(1) == nil)
    }

    @Test func aLoadOfAKeyInFlightJoinsItsBatchAtTheRightPosition() {
        var state = State(maxBatchSize: .max)
        _ = state.register([1, 2, 3], request: state.newRequest(), sink: "a", cancelled: false)
        let batch = state.takeQueue()[0]
        let joined = state.register([3, 4], request: state.newRequest(), sink: "b", cancelled: false)
        #expect(joined.waiting == 2)
        #expect(joined.schedule == true)
        #expect(state.queuedKeys == [4])
        let woken = state.complete(
            batch.id, results: [.success("one"), .success("two"), .success("three")], cacheable: true)
        #expect(slots(woken) == ["a#0=one", "a#1=two", "a#2=three", "b#0=three"])
    }
}
