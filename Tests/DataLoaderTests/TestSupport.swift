// Shared harness of the DataLoader tests: a recorded call log of batch function calls,
// in-memory batch functions, a gate that holds a batch function until the test opens it,
// and helpers that spawn counted tasks the way the executor does.
import Synchronization
import Testing

@testable import DataLoader

/// Every call of a batch function, in call order, with the keys it received.
final class CallLog<Key: Sendable>: Sendable {
    private let calls = Mutex<[[Key]]>([])

    func record(_ keys: [Key]) {
        calls.withLock { $0.append(keys) }
    }

    var all: [[Key]] { calls.withLock { $0 } }
}

extension CallLog where Key: Comparable {
    /// The calls with each call's keys sorted: keys loaded by concurrent tasks reach a batch
    /// in whatever order the tasks ran, so order within a call is not part of the contract.
    var sortedCalls: [[Key]] { all.map { $0.sorted() } }

    /// The calls ordered by their first key: the batches one dispatch splits by
    /// `maxBatchSize` run concurrently, so the order they reach the batch function in is not
    /// part of the contract (only which keys go together, in load order).
    var callsByFirstKey: [[Key]] {
        all.sorted { lhs, rhs in
            guard let l = lhs.first, let r = rhs.first else { return lhs.isEmpty && !rhs.isEmpty }
            return l < r
        }
    }
}

/// Holds every batch function call that waits on it until `open()`.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// How many calls reached the gate so far.
    var arrivals: Int { state.withLock { $0.arrivals } }

    func wait() async {
        await withCheckedContinuation { continuation in
            let passes = state.withLock { state -> Bool in
                state.arrivals += 1
                if state.isOpen { return true }
                state.waiting.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}

struct TestFailure: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A keyed loader answering `"v<key>"`, or a per-key failure for keys in `failing`,
/// waiting on `gate` first when given.
func makeLoader(
    _ scheduler: BatchScheduler, name: String = "numbers", maxBatchSize: Int = .max,
    log: CallLog<Int>, failing: Set<Int> = [], gate: Gate? = nil
) throws -> DataLoader<Int, String> {
    try DataLoader(name: name, maxBatchSize: maxBatchSize, scheduler: scheduler) { keys in
        log.record(keys)
        if let gate { await gate.wait() }
        var answer: [Int: Result<String, any Error>] = [:]
        for key in keys {
            answer[key] =
                failing.contains(key) ? .failure(TestFailure("no row \(key)")) : .success("v\(key)")
        }
        return answer
    }
}

/// Runs `bodies` concurrently as counted tasks, as the executor runs sibling fields: one
/// `enter()` before spawning each task, `leave()` when it ends, and the caller's own
/// `leave()` … `enter()` around waiting for them. Call from inside counted work.
func concurrently<T: Sendable>(
    _ scheduler: BatchScheduler, _ bodies: [@Sendable () async -> T]
) async -> [T] {
    await withTaskGroup(of: (Int, T).self) { group in
        for (index, body) in bodies.enumerated() {
            scheduler.enter()
            group.addTask {
                defer { scheduler.leave() }
                return (index, await body())
            }
        }
        scheduler.leave()
        var results: [(Int, T)] = []
        for await result in group { results.append(result) }
        scheduler.enter()
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// `concurrently` with the bodies written out.
func concurrently<T: Sendable>(
    _ scheduler: BatchScheduler, _ bodies: (@Sendable () async -> T)...
) async -> [T] {
    await concurrently(scheduler, bodies)
}

/// A counted unstructured task (enter now, leave when it ends), for tests that cancel it.
func countedTask<T: Sendable>(
    _ scheduler: BatchScheduler, _ body: @escaping @Sendable () async throws -> T
) -> Task<T, any Error> {
    scheduler.enter()
    return Task {
        defer { scheduler.leave() }
        return try await body()
    }
}

/// Waits (yielding, up to about 5 s) until `condition` holds; false if it never did.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<5000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// The value, or the error's description, of each result: results compare exactly.
func describe(_ results: [Result<String, any Error>]) -> [String] {
    results.map { result in
        switch result {
        case .success(let value): value
        case .failure(let error): "error: \(error)"
        }
    }
}
