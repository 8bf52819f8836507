import Testing

@testable import DataLoader

@Suite("Scheduling", .timeLimit(.minutes(1)))
struct SchedulingTests {
    @Test func wokenWaitersAreCountedBeforeTheyRunSoTheNextLevelBatchesWhole() async throws {
        let scheduler = BatchScheduler()
        let firstLog = CallLog<Int>()
        let secondLog = CallLog<Int>()
        let first = try makeLoader(scheduler, name: "first", log: firstLog)
        let second = try makeLoader(scheduler, name: "second", log: secondLog)
        let values = await scheduler.run {
            await concurrently(
                scheduler,
                (0..<50).map { key in
                    {
                        let a = (try? await first.load(key)) ?? "failed"
                        let b = (try? await second.load(key + 1000)) ?? "failed"
                        return a + b
                    }
                })
        }
        #expect(values[0] == "v0v1000")
        #expect(values[49] == "v49v1049")
        #expect(firstLog.sortedCalls == [Array(0..<50)])
        #expect(secondLog.sortedCalls == [Array(1000..<1050)])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func aRunningSlowBatchDoesNotHoldBackAnotherLoadersDispatch() async throws {
        let scheduler = BatchScheduler()
        let slowGate = Gate()
        let slowLog = CallLog<Int>()
        let fastLog = CallLog<Int>()
        let slow = try makeLoader(scheduler, name: "slow", log: slowLog, gate: slowGate)
        let fast = try makeLoader(scheduler, name: "fast", log: fastLog)
        let values = await scheduler.run {
            await concurrently(
                scheduler,
                { (try? await slow.load(1)) ?? "failed" },
                {
                    // Two levels of the fast loader dispatch while the slow batch is still running;
                    // only then is the slow one let go (a hold-back would never get here).
                    let parent = (try? await fast.load(2)) ?? "failed"
                    let child = (try? await fast.load(3)) ?? "failed"
                    slowGate.open()
                    return parent + child
                })
        }
        #expect(values == ["v1", "v2v3"])
        #expect(slowLog.all == [[1]])
        #expect(fastLog.all == [[2], [3]])
    }

    @Test func aLevelWaitingOnASlowSiblingStillBatchesWhole() async throws {
        let scheduler = BatchScheduler()
        let slowGate = Gate()
        let parentsLog = CallLog<Int>()
        let detailsLog = CallLog<Int>()
        let parents = try makeLoader(scheduler, name: "parents", log: parentsLog, gate: slowGate)
        let details = try makeLoader(scheduler, name: "details", log: detailsLog)
        let values = await scheduler.run {
            await concurrently(
                scheduler,
                {
                    // Slow branch: its children's keys exist only after the slow parent answers.
                    _ = try? await parents.load(1)
                    let children = await concurrently(
                        scheduler, (10..<15).map { key in { (try? await details.load(key)) ?? "failed" } })
                    return children.joined(separator: ",")
                },
                {
                    let fast = describe(await details.loadMany([20, 21])).joined(separator: ",")
                    slowGate.open()
                    return fast
                })
        }
        #expect(values == ["v10,v11,v12,v13,v14", "v20,v21"])
        #expect(parentsLog.all == [[1]])
        #expect(detailsLog.all.count == 2)
        #expect(detailsLog.sortedCalls == [[20, 21], [10, 11, 12, 13, 14]])
    }

    @Test func runBalancesTheCountEvenWhenItsBodyThrows() async throws {
        let scheduler = BatchScheduler()
        let loader = try makeLoader(scheduler, log: CallLog(), failing: [1])
        await #expect(throws: TestFailure("no row 1")) {
            try await scheduler.run { try await loader.load(1) }
        }
        #expect(scheduler.runnableCount == 0)
    }

    @Test func loadsOutsideCountedWorkStillComplete() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        // No executor and no run { }: each load dispatches at once instead of hanging.
        #expect(try await loader.load(1) == "v1")
        #expect(describe(await loader.loadMany([2, 3])) == ["v2", "v3"])
        #expect(log.all == [[1], [2, 3]])
        #expect(scheduler.runnableCount == 0)
    }

    @Test func dispatchPendingDispatchesWhileWorkIsStillRunnable() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<Int>()
        let loader = try makeLoader(scheduler, log: log)
        scheduler.enter()  // this test stays runnable: the count cannot reach zero
        let waiting = countedTask(scheduler) { try await loader.load(1) }
        #expect(await eventually { loader.queuedKeys == [1] })
        #expect(log.all == [])
        scheduler.dispatchPending()
        #expect(try await waiting.value == "v1")
        #expect(log.all == [[1]])
        #expect(scheduler.runnableCount == 1)
        scheduler.leave()
        #expect(scheduler.runnableCount == 0)
    }

    @Test func eachLoaderDispatchesItsOwnQueueOnce() async throws {
        let scheduler = BatchScheduler()
        let aLog = CallLog<Int>()
        let bLog = CallLog<Int>()
        let a = try makeLoader(scheduler, name: "a", maxBatchSize: 3, log: aLog)
        let b = try makeLoader(scheduler, name: "b", log: bLog)
        let values = await scheduler.run {
            await concurrently(
                scheduler,
                { describe(await a.loadMany([1, 2, 3, 4])).joined(separator: ",") },
                { describe(await b.loadMany([5, 6, 7, 8])).joined(separator: ",") })
        }
        #expect(values == ["v1,v2,v3,v4", "v5,v6,v7,v8"])
        #expect(aLog.callsByFirstKey == [[1, 2, 3], [4]])  // one dispatch's batches run concurrently
        #expect(bLog.all == [[5, 6, 7, 8]])
    }
}
