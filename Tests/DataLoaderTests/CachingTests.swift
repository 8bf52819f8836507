import Testing

@testable import DataLoader

@Suite("Caching", .timeLimit(.minutes(1)))
struct CachingTests {
    @Test func aLoadedKeyIsNotAskedForAgain() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        _ = await scheduler.run { await loader.loadMany([1, 2]) }
        let again = await scheduler.run { await loader.loadMany([2, 3, 1]) }
        #expect(describe(again) == ["v2", "v3", "v1"])
        #expect(log.all == [[1, 2], [3]])
    }

    @Test func aKeyInFlightIsJoinedNotAskedForTwice() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let gate = Gate()
        let loader = try makeLoader(scheduler, log: log, gate: gate)
        let first = countedTask(scheduler) { try await loader.load(1) }
        #expect(await eventually { gate.arrivals == 1 })
        // Key 1 is in flight: this load joins it; key 2 makes a batch of its own.
        let second = countedTask(scheduler) { await loader.loadMany([1, 2]) }
        #expect(await eventually { gate.arrivals == 2 })
        gate.open()
        #expect(try await first.value == "v1")
        #expect(describe(try await second.value) == ["v1", "v2"])
        #expect(log.all == [[1], [2]])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func perKeyErrorsAreCached() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log, failing: [5])
        _ = await scheduler.run { await loader.loadMany([5]) }
        let again = await scheduler.run { await loader.loadMany([5]) }
        #expect(describe(again) == ["error: no row 5"])
        #expect(log.all == [[5]])
    }

    @Test func aFailedDispatchIsNotCached() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try DataLoader<Int, String>(name: "flaky", scheduler: scheduler) { keys in
            log.record(keys)
            if log.all.count == 1 { throw TestFailure("first call fails") }
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, .success("v\($0)")) })
        }
        let first = await scheduler.run { await loader.loadMany([1, 2]) }
        #expect(describe(first) == ["error: first call fails", "error: first call fails"])
        let second = await scheduler.run { await loader.loadMany([2, 1]) }
        #expect(describe(second) == ["v2", "v1"])
        #expect(log.all == [[1, 2], [2, 1]])
    }

    @Test func clearForgetsOneKey() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        _ = await scheduler.run { await loader.loadMany([1, 2]) }
        loader.clear(1)
        _ = await scheduler.run { await loader.loadMany([1, 2]) }
        #expect(log.all == [[1, 2], [1]])
    }

    @Test func clearAllForgetsEveryKey() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        _ = await scheduler.run { await loader.loadMany([1, 2]) }
        loader.clearAll()
        _ = await scheduler.run { await loader.loadMany([2, 1]) }
        #expect(log.all == [[1, 2], [2, 1]])
    }

    @Test func clearWhileInFlightStillAnswersWaitersButCachesNothing() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let gate = Gate()
        let loader = try makeLoader(scheduler, log: log, gate: gate)
        let waiting = countedTask(scheduler) { try await loader.load(1) }
        #expect(await eventually { gate.arrivals == 1 })
        loader.clear(1)
        // The cleared key is asked for again by the next load, even while its batch still runs.
        let after = countedTask(scheduler) { try await loader.load(1) }
        #expect(await eventually { gate.arrivals == 2 })
        gate.open()
        #expect(try await waiting.value == "v1")
        #expect(try await after.value == "v1")
        #expect(log.all == [[1], [1]])
    }

    @Test func primeWhileQueuedDoesNotOverwriteTheBatchAnswer() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        scheduler.enter()  // holds dispatch back while the key is queued
        let waiting = countedTask(scheduler) { try await loader.load(1) }
        #expect(await eventually { loader.queuedKeys == [1] })
        #expect(loader.prime(1, "primed") == false)
        scheduler.leave()
        #expect(try await waiting.value == "v1")
        #expect(log.all == [[1]])
    }
}
