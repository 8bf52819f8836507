// One test per misuse message: options refused at construction, batch functions that break
// the contract.
import Testing

@testable import DataLoader

@Suite("Abuse and contract violations", .timeLimit(.minutes(1)))
struct AbuseTests {
    @Test func maxBatchSizeBelowOneIsRefused() {
        for size in [0, -1] {
            #expect(
                throws: DataLoaderError(
                    code: .invalidOption,
                    message:
                        "DataLoader \"numbers\": option maxBatchSize must be at least 1 (Int.max for no limit), got \(size)."
                )
            ) {
                try makeLoader(BatchScheduler(), maxBatchSize: size, log: CallLog())
            }
        }
    }

    @Test func anEmptyNameIsRefused() {
        #expect(
            throws: DataLoaderError(
                code: .invalidOption, message: "DataLoader \"\": option name must not be empty.")
        ) {
            try makeLoader(BatchScheduler(), name: "", log: CallLog())
        }
    }

    @Test func aMultiLineNameIsRefused() {
        #expect(
            throws: DataLoaderError(
                code: .invalidOption, message: "DataLoader \"a\\nb\": option name must be a single line.")
        ) {
            try makeLoader(BatchScheduler(), name: "a\nb", log: CallLog())
        }
    }

    @Test func tooFewOrderedResultsFailEveryKeyOfTheBatch() async throws {
        let scheduler = BatchScheduler()
        let log = CallLog<String>()
        let loader = try DataLoader<String, Int>(name: "lengths", scheduler: scheduler) { keys in
            log.record(keys)
            return keys.dropLast().map { .success($0.count) }
        }
        let results = await scheduler.run { await loader.loadMany(["a", "bb", "ccc"]) }
        let message =
            "DataLoader \"lengths\": a batch function in key order must return exactly one result per key, "
            + "in the order of the keys; it was given 3 keys and returned 2 results. Keys: [\"a\", \"bb\", \"ccc\"]."
        for result in results {
            #expect(
                result.failureValue as? DataLoaderError
                    == DataLoaderError(code: .resultCountMismatch, message: message))
        }
        // A contract violation is a failed dispatch: not cached, asked again next time.
        _ = await scheduler.run { await loader.loadMany(["a"]) }
        #expect(log.all == [["a", "bb", "ccc"], ["a"]])
    }

    @Test func tooManyOrderedResultsFailEveryKeyAndListAtMostTenKeys() async throws {
        let scheduler = BatchScheduler()
        let loader = try DataLoader<Int, Int>(name: "squares", scheduler: scheduler) { keys in
            (keys + [0]).map { .success($0 * $0) }
        }
        let results = await scheduler.run { await loader.loadMany(Array(1...12)) }
        let message =
            "DataLoader \"squares\": a batch function in key order must return exactly one result per key, "
            + "in the order of the keys; it was given 12 keys and returned 13 results. "
            + "Keys: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (2 more)]."
        #expect(results.count == 12)
        for result in results {
            #expect((result.failureValue as? DataLoaderError)?.message == message)
        }
    }

    @Test func errorCodesHaveStableNames() {
        #expect(DataLoaderError.Code.invalidOption.description == "INVALID_OPTION")
        #expect(DataLoaderError.Code.noValueForKey.description == "NO_VALUE_FOR_KEY")
        #expect(DataLoaderError.Code.resultCountMismatch.description == "RESULT_COUNT_MISMATCH")
    }
}
