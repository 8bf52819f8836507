import Testing

@testable import DataLoader

@Suite("Cancellation", .timeLimit(.minutes(1)))
struct CancellationTests {
    @Test func aCancelledWaiterGetsCancellationErrorAndTheBatchServesTheOthers() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let gate = Gate()
        let loader = try makeLoader(scheduler, log: log, gate: gate)
        scheduler.enter()  // keep dispatch back until both calls are queued
        let cancelled = countedTask(scheduler) { try await loader.load(1) }
        let other = countedTask(scheduler) { await loader.loadMany([1, 2]) }
        #expect(await eventually { loader.queuedKeys.sorted() == [1, 2] })
        scheduler.leave()
        #expect(await eventually { gate.arrivals == 1 })
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        gate.open()
        #expect(describe(try await other.value) == ["v1", "v2"])
        #expect(log.sortedCalls == [[1, 2]])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func keysOnlyCancelledCallsWaitedForAreNotFetched() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        scheduler.enter()
        let cancelled = countedTask(scheduler) { try await loader.load(5) }
        let kept = countedTask(scheduler) { try await loader.load(6) }
        #expect(await eventually { loader.queuedKeys.sorted() == [5, 6] })
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        scheduler.leave()
        #expect(try await kept.value == "v6")
        #expect(log.all == [[6]])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func anAlreadyCancelledTaskDoesNotQueueItsKey() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        let task = countedTask(scheduler) {
            while !Task.isCancelled { await Task.yield() }
            return try await loader.load(1)
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(loader.queuedKeys == [])
        #expect(log.all == [])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func cachedValuesStillAnswerACancelledTask() async throws {
        let scheduler = BatchScheduler()
        let loader = try makeLoader(scheduler, log: CallLog())
        loader.prime(1, "primed")
        let task = countedTask(scheduler) {
            while !Task.isCancelled { await Task.yield() }
            return try await loader.load(1)
        }
        task.cancel()
        #expect(try await task.value == "primed")
    }

    @Test func loadManyCancelledMidwayKeepsAnsweredSlotsAndFailsTheRest() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let gate = Gate()
        let loader = try makeLoader(scheduler, log: log, gate: gate)
        loader.prime(1, "primed")
        let task = countedTask(scheduler) { await loader.loadMany([1, 2, 3]) }
        #expect(await eventually { gate.arrivals == 1 })
        task.cancel()
        let results = try await task.value
        #expect(
            describe(results) == ["primed", "error: CancellationError()", "error: CancellationError()"])
        gate.open()
        #expect(await eventually { loader.batchesInFlight == 0 })
        // The batch still ran to its end and its answers were cached.
        #expect(describe(await scheduler.run { await loader.loadMany([2, 3]) }) == ["v2", "v3"])
        #expect(log.all == [[2, 3]])
        #expect(scheduler.runnableCount == 0)
    }
}
