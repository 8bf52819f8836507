import Testing

@testable import DataLoader

@Suite("Primary API", .timeLimit(.minutes(1)))
struct PrimaryAPITests {
    @Test func loadReturnsTheBatchFunctionsValue() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        let value = try await scheduler.run { try await loader.load(7) }
        #expect(value == "v7")
        #expect(log.all == [[7]])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func concurrentLoadsShareOneBatch() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        let values = await scheduler.run {
            await concurrently(scheduler, [3, 1, 2].map { key in { try? await loader.load(key) } })
        }
        #expect(values == ["v3", "v1", "v2"])
        #expect(log.sortedCalls == [[1, 2, 3]])
    }

    @Test func loadManyAnswersInKeyOrderWithDuplicates() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        let results = await scheduler.run { await loader.loadMany([3, 1, 3, 2]) }
        #expect(describe(results) == ["v3", "v1", "v3", "v2"])
        // One call, distinct keys, in the order first asked.
        #expect(log.all == [[3, 1, 2]])
    }

    @Test func loadManyOfNothingIsEmptyAndCallsNothing() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        let results = await scheduler.run { await loader.loadMany([]) }
        #expect(results.isEmpty)
        #expect(log.all == [])
    }

    @Test func orderedBatchFunctionMatchesResultsByPosition() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<String>()
        let loader = try DataLoader<String, Int>(name: "lengths", scheduler: scheduler) { keys in
            log.record(keys)
            return keys.map { .success($0.count) }
        }
        let results = await scheduler.run { await loader.loadMany(["abc", "", "hello"]) }
        #expect(results.map { try? $0.get() } == [3, 0, 5])
        #expect(log.all == [["abc", "", "hello"]])
    }

    @Test func primedValuesAnswerWithoutACall() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        #expect(loader.prime(1, "primed") == true)
        let results = await scheduler.run { await loader.loadMany([1, 2]) }
        #expect(describe(results) == ["primed", "v2"])
        #expect(log.all == [[2]])
    }

    @Test func primeNeverOverwrites() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        #expect(loader.prime(1, "first") == true)
        #expect(loader.prime(1, "second") == false)
        _ = try await scheduler.run { try await loader.load(2) }
        #expect(loader.prime(2, "late") == false)
        let values = try await scheduler.run { (try await loader.load(1), try await loader.load(2)) }
        #expect(values == ("first", "v2"))
        #expect(log.all == [[2]])
    }

    @Test func clearThenPrimeReplacesAValue() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        _ = try await scheduler.run { try await loader.load(1) }
        loader.clear(1)
        #expect(loader.prime(1, "replaced") == true)
        #expect(try await scheduler.run { try await loader.load(1) } == "replaced")
        #expect(log.all == [[1]])
    }

    @Test func nameAndMaxBatchSizeAreKept() throws {
        let loader = try makeLoader(
            BatchScheduler(), name: "itunes.albums", maxBatchSize: 200, log: CallLog())
        #expect(loader.name == "itunes.albums")
        #expect(loader.maxBatchSize == 200)
        let unlimited = try makeLoader(BatchScheduler(), log: CallLog())
        #expect(unlimited.maxBatchSize == Int.max)
    }
}
