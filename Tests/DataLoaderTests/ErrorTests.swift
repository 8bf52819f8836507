import Testing

@testable import DataLoader

@Suite("Represents errors", .timeLimit(.minutes(1)))
struct ErrorTests {
    @Test func aPerKeyFailureFailsOnlyItsKey() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log, failing: [2])
        let results = await scheduler.run { await loader.loadMany([1, 2, 3]) }
        #expect(describe(results) == ["v1", "error: no row 2", "v3"])
        #expect(log.all == [[1, 2, 3]])
    }

    @Test func loadThrowsTheKeysFailure() async throws {
        let scheduler = BatchScheduler()
        let loader = try makeLoader(scheduler, log: CallLog(), failing: [4])
        await #expect(throws: TestFailure("no row 4")) {
            try await scheduler.run { try await loader.load(4) }
        }
    }

    @Test func aKeyMissingFromTheAnswerFailsWithNoValueForKey() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        // Answers fewer keys than asked, in another order, plus one key nobody asked for.
        let loader = try DataLoader<Int, String>(
            name: "sparse", scheduler: scheduler,
            batch: { keys in
                log.record(keys)
                return [3: .success("three"), 1: .success("one"), 99: .success("unasked")]
            })
        let results = await scheduler.run { await loader.loadMany([1, 2, 3]) }
        #expect(
            describe(results) == [
                "one",
                "error: DataLoader \"sparse\" has no value for key 2: the batch function's answer did not include that key.",
                "three",
            ])
        let error = try #require(results[1].failureValue as? DataLoaderError)
        #expect(error.code == .noValueForKey)
        #expect(log.all == [[1, 2, 3]])
    }

    @Test func aThrowingBatchFunctionFailsEveryKeyOfItsBatch() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try DataLoader<Int, String>(
            name: "down", scheduler: scheduler,
            batch: { keys in
                log.record(keys)
                throw TestFailure("upstream timed out")
            })
        let results = await scheduler.run { await loader.loadMany([1, 2]) }
        #expect(describe(results) == ["error: upstream timed out", "error: upstream timed out"])
        #expect(log.all == [[1, 2]])
    }

    @Test func batchMatesOfABadKeyInAnotherTaskStillResolve() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log, failing: [13])
        let values = await scheduler.run {
            await concurrently(
                scheduler,
                [12, 13, 14].map { key in
                    {
                        do { return try await loader.load(key) } catch { return "error: \(error)" }
                    }
                })
        }
        #expect(values == ["v12", "error: no row 13", "v14"])
        #expect(log.sortedCalls == [[12, 13, 14]])
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
