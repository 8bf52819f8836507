import Synchronization
import Testing

@testable import GraphQL

/// Counts runnable units like a batching layer would, and runs a toy loader: `load(key)`
/// parks the caller until the count reaches zero, then answers the whole batch at once.
final class BatchingActivity: ExecutionActivity {
    private struct State {
        var runnable = 0
        var lowest = 0
        var waiting: [(key: Int, resume: CheckedContinuation<Int, Never>)] = []
        var batches: [[Int]] = []
        var events = 0
    }
    private let state = Mutex(State())

    func enter() {
        state.withLock {
            $0.runnable += 1
            $0.events += 1
        }
    }

    func leave() {
        let batch: [(key: Int, resume: CheckedContinuation<Int, Never>)] = state.withLock { s in
            s.runnable -= 1
            s.events += 1
            s.lowest = min(s.lowest, s.runnable)
            guard s.runnable == 0, !s.waiting.isEmpty else { return [] }
            let batch = s.waiting
            s.waiting = []
            s.batches.append(batch.map(\.key).sorted())
            s.runnable += batch.count  // each resumed loader caller is runnable again
            return batch
        }
        for entry in batch { entry.resume.resume(returning: entry.key * 10) }
    }

    /// The loader side: not runnable while parked.
    func load(_ key: Int) async -> Int {
        await withCheckedContinuation { continuation in
            state.withLock { $0.waiting.append((key, continuation)) }
            leave()
        }
    }

    var batches: [[Int]] { state.withLock { $0.batches } }
    var runnable: Int { state.withLock { $0.runnable } }
    var lowest: Int { state.withLock { $0.lowest } }
}

/// A value that counts how often resolvers ran.
final class CallLog: Sendable {
    private let calls = Mutex<[String]>([])
    func note(_ name: String) { calls.withLock { $0.append(name) } }
    var names: [String] { calls.withLock { $0 } }
}

@Suite struct AsyncExecutionTests {
    let schema: Schema
    init() throws {
        schema = try Harness.schema(
            """
            type Query { a: Box b: Box c: Box! plain: Int slow: Int fails: Int mustFail: Int! }
            type Mutation { first: Int second: Int }
            type Box { n: Int! child: Box double: Int }
            """)
    }

    @Test func asyncFieldsOfOneSelectionSetRunConcurrentlyAndBatch() async throws {
        let activity = BatchingActivity()
        let box = AsyncResolver { source, _, info in
            let key = info.path.count == 1 ? (info.fieldName == "a" ? 1 : info.fieldName == "b" ? 2 : 3) : 0
            _ = source
            return .json(.object(JSONObject([("n", .int(await activity.load(key)))])))
        }
        let child = AsyncResolver { source, _, _ in
            guard case .json(.object(let o)) = source, case .int(let n)? = o["n"] else { return .null }
            return .json(.object(JSONObject([("n", .int(await activity.load(n + 1)))])))
        }
        let resolvers = TableResolvers(table: ["Query.a": box, "Query.b": box, "Query.c": box, "Box.child": child])
        let out = try await Harness.runAsync(
            schema, "{ a { n child { n } } b { n child { n } } c { n } plain }",
            rootValue: .json(.object(JSONObject([("plain", .int(7))]))), resolvers: resolvers, activity: activity)
        #expect(
            out == #"{"data":{"a":{"n":10,"child":{"n":110}},"b":{"n":20,"child":{"n":210}},"c":{"n":30},"plain":7}}"#)
        // One batch per level: the three root loads together, then the two child loads.
        #expect(activity.batches == [[1, 2, 3], [11, 21]])
        #expect(activity.runnable == 0)
        #expect(activity.lowest == 0)
    }

    @Test func syncResolversRunInlineAndUnselectedFieldsNeverRun() async throws {
        let log = CallLog()
        let plain = SyncResolver { _, _, _ in
            log.note("plain")
            return .json(.int(1))
        }
        let slow = SyncResolver { _, _, _ in
            log.note("slow")
            return .json(.int(2))
        }
        let resolvers = TableResolvers(table: ["Query.plain": plain, "Query.slow": slow])
        let out = try await Harness.runAsync(schema, "{ plain }", resolvers: resolvers)
        #expect(out == #"{"data":{"plain":1}}"#)
        #expect(log.names == ["plain"])
    }

    @Test func asyncErrorsPropagateAcrossHoles() async throws {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        let fails = AsyncResolver { _, _, _ in throw Boom() }
        let nullBox = AsyncResolver { _, _, _ in .json(.object(JSONObject([("n", .null)]))) }
        let good = AsyncResolver { _, _, _ in .json(.object(JSONObject([("n", .int(5))]))) }
        let resolvers = TableResolvers(table: ["Query.fails": fails, "Query.a": nullBox, "Query.b": good])
        let out = try await Harness.runAsync(schema, "{ fails a { n } b { n } }", resolvers: resolvers)
        #expect(
            out
                == #"{"errors":[{"message":"boom","locations":[{"line":1,"column":3}],"path":["fails"]},{"message":"Cannot return null for non-nullable field Box.n.","locations":[{"line":1,"column":13}],"path":["a","n"]}],"data":{"fails":null,"a":null,"b":{"n":5}}}"#
        )
        let mustFail = AsyncResolver { _, _, _ in .null }
        let rootFailure = try await Harness.runAsync(
            schema, "{ b { n } mustFail }",
            resolvers: TableResolvers(table: ["Query.b": good, "Query.mustFail": mustFail]))
        #expect(
            rootFailure
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Query.mustFail.","locations":[{"line":1,"column":11}],"path":["mustFail"]}],"data":null}"#
        )
    }

    @Test func asyncFailureInsideASyncParentNullsTheNearestNullableField() async throws {
        let box = SyncResolver { _, _, _ in .json(.object(JSONObject([("n", .int(1))]))) }
        let childNull = AsyncResolver { _, _, _ in .json(.object(JSONObject())) }
        let resolvers = TableResolvers(table: ["Query.a": box, "Box.child": childNull])
        let out = try await Harness.runAsync(schema, "{ a { n child { n double } } }", resolvers: resolvers)
        #expect(
            out
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Box.n.","locations":[{"line":1,"column":17}],"path":["a","child","n"]}],"data":{"a":{"n":1,"child":null}}}"#
        )
    }

    @Test func failedHoleNullsItsFrameAndDropsSiblingHolesInside() async throws {
        let box = SyncResolver { _, _, _ in .json(.object(JSONObject())) }
        let nullN = AsyncResolver { _, _, _ in .null }
        let two = AsyncResolver { _, _, _ in .json(.int(2)) }
        let resolvers = TableResolvers(table: ["Query.a": box, "Query.b": box, "Box.n": nullN, "Box.double": two])
        let out = try await Harness.runAsync(schema, "{ a { double n } b { double } }", resolvers: resolvers)
        #expect(
            out
                == #"{"errors":[{"message":"Cannot return null for non-nullable field Box.n.","locations":[{"line":1,"column":14}],"path":["a","n"]}],"data":{"a":null,"b":{"double":2}}}"#
        )
    }

    @Test func mutationFieldsRunSerially() async throws {
        let log = CallLog()
        let first = AsyncResolver { _, _, _ in
            log.note("first:start")
            try await Task.sleep(for: .milliseconds(20))
            log.note("first:end")
            return .json(.int(1))
        }
        let second = AsyncResolver { _, _, _ in
            log.note("second")
            return .json(.int(2))
        }
        let resolvers = TableResolvers(table: ["Mutation.first": first, "Mutation.second": second])
        let out = try await Harness.runAsync(schema, "mutation { second first again: second }", resolvers: resolvers)
        #expect(out == #"{"data":{"second":2,"first":1,"again":2}}"#)
        #expect(log.names == ["second", "first:start", "first:end", "second"])
    }

    @Test func asyncResolverInSynchronousExecutionIsAFieldError() throws {
        let slow = AsyncResolver { _, _, _ in .json(.int(1)) }
        let source = Source("{ slow plain }")
        let result = executeSynchronously(
            schema: schema, document: try parse(source), source: source,
            rootValue: .json(.object(JSONObject([("plain", .int(3))]))),
            resolvers: TableResolvers(table: ["Query.slow": slow]))
        #expect(
            String(decoding: result.serialized(), as: UTF8.self)
                == #"{"errors":[{"message":"The resolver of Query.slow is asynchronous; run the operation with execute(…) async.","locations":[{"line":1,"column":3}],"path":["slow"]}],"data":{"slow":null,"plain":3}}"#
        )
    }
}
