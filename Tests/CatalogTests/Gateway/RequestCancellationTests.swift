import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct RequestCancellationTests {
    final class Count: Sendable {
        let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var now: Int { value.load(ordering: .relaxed) }
    }

    @Test func handlersRunOnceAtCancelAndARemovedOneNever() throws {
        let cancellation = RequestCancellation()
        let kept = Count()
        let removed = Count()
        #expect(cancellation.onCancel { kept.add() } != nil)
        let token = cancellation.onCancel { removed.add() }
        cancellation.removeHandler(try #require(token))
        #expect(kept.now == 0)
        cancellation.cancel()
        cancellation.cancel()
        #expect(cancellation.isCancelled)
        #expect(kept.now == 1)
        #expect(removed.now == 0)
    }

    @Test func aHandlerAddedAfterTheCancelRunsAtOnce() {
        let cancellation = RequestCancellation()
        cancellation.cancel()
        let late = Count()
        #expect(cancellation.onCancel { late.add() } == nil)
        #expect(late.now == 1)
    }

    @Test func aWaiterLeavesAFlightWhenItsRequestIsCancelled() async throws {
        let flights = InFlightRequests()
        #expect(flights.joinOrClaim("k") == nil)
        let flight = flights.claimed("k")
        let cancellation = RequestCancellation()
        let waiter = Task { try await flight.wait(leavingOn: cancellation) }
        while !flight.hasWaiters { await Task.yield() }
        cancellation.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!flight.hasWaiters)
        // A request cancelled before it waits does not wait at all.
        await #expect(throws: CancellationError.self) { try await flight.wait(leavingOn: cancellation) }
        flights.finish("k", .abandoned)
    }
}
