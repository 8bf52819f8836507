import Testing

@testable import DataLoader

@Suite("Batching", .timeLimit(.minutes(1)))
struct BatchingTests {
    @Test func maxBatchSizeSplitsDistinctKeysInOrder() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, maxBatchSize: 2, log: log)
        let results = await scheduler.run { await loader.loadMany([1, 2, 3, 4, 5]) }
        #expect(describe(results) == ["v1", "v2", "v3", "v4", "v5"])
        #expect(log.callsByFirstKey == [[1, 2], [3, 4], [5]])
    }

    @Test func duplicatesDoNotCountTowardMaxBatchSize() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, maxBatchSize: 2, log: log)
        let results = await scheduler.run { await loader.loadMany([1, 1, 2, 2, 1, 3]) }
        #expect(describe(results) == ["v1", "v1", "v2", "v2", "v1", "v3"])
        #expect(log.callsByFirstKey == [[1, 2], [3]])
    }

    @Test func cachedKeysDoNotCountTowardMaxBatchSize() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, maxBatchSize: 2, log: log)
        loader.prime(2, "p2")
        let results = await scheduler.run { await loader.loadMany([1, 2, 3]) }
        #expect(describe(results) == ["v1", "p2", "v3"])
        #expect(log.all == [[1, 3]])
    }

    @Test func maxBatchSizeOneAsksOneKeyPerCall() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, maxBatchSize: 1, log: log)
        _ = await scheduler.run { await loader.loadMany([9, 8, 9]) }
        #expect(log.callsByFirstKey == [[8], [9]])  // one dispatch's batches run concurrently
    }

    @Test func keysFromManyTasksAndCallsGoInOneBatchPerLoader() async throws {
        let scheduler = BatchScheduler()
        let numbersLog = CallLog<Int>()
        let lettersLog = CallLog<Int>()
        let numbers = try makeLoader(scheduler, name: "numbers", log: numbersLog)
        let letters = try makeLoader(scheduler, name: "letters", log: lettersLog)
        let answers = await scheduler.run {
            await concurrently(
                scheduler,
                (0..<20).map { index in
                    {
                        let loader = index.isMultiple(of: 2) ? numbers : letters
                        return describe(await loader.loadMany([index % 5, 100 + index % 3]))
                    }
                })
        }
        #expect(answers[0] == ["v0", "v100"])
        #expect(answers[7] == ["v2", "v101"])
        #expect(numbersLog.sortedCalls == [[0, 1, 2, 3, 4, 100, 101, 102]])
        #expect(lettersLog.sortedCalls == [[0, 1, 2, 3, 4, 100, 101, 102]])
    }
}
