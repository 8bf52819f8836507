import Synchronization
import Testing

@testable import GraphQL

/// `executeIncrementally`: what the conformance kit cannot see from the CLI (batching across
/// payloads, cancellation, pending list items, the RFC's choices where graphql-js 17 differs).
@Suite struct IncrementalExecutionTests {
    let schema: Schema
    init() throws {
        schema = try Harness.schema(
            """
            type Query { box: Box boxes: [Box] strict: [Box!] numbers: [Int] version: String! slow: Int }
            type Box { n: Int! child: Box double: Int label: String }
            type Mutation { set: Box }
            type Subscription { ticks: Box }
            """
        ).addingIncrementalDirectives()
    }

    /// Runs `query` incrementally; each payload as JSON text, in delivery order.
    private func run(
        _ query: String, data: String = "{}", resolvers: any ExecutionResolvers = PropertyResolvers(),
        activity: (any ExecutionActivity)? = nil, stopAfter: Int = .max
    ) async throws -> [String] {
        let source = Source(query)
        let document = try parse(source)
        #expect(validate(schema: schema, document: document, source: source, rules: incrementalDeliveryRules).isEmpty)
        var lines: [String] = []
        await executeIncrementally(
            schema: schema, document: document, source: source, rootValue: .json(try JSONReader.parse(data)),
            resolvers: resolvers, activity: activity
        ) { payload in
            lines.append(String(decoding: payload.serialized(), as: UTF8.self))
            return lines.count < stopAfter
        }
        return lines
    }

    @Test func deferredGroupsOfAListBatchTheirLoadsTogether() async throws {
        let activity = BatchingActivity()
        let child = AsyncResolver { source, _, _ in
            guard case .json(.object(let o)) = source, case .int(let n)? = o["n"] else { return .null }
            return .json(.object(JSONObject([("n", .int(await activity.load(n)))])))
        }
        let lines = try await run(
            "{ boxes { n ... @defer { child { n } } } }", data: #"{"boxes":[{"n":1},{"n":2},{"n":3}]}"#,
            resolvers: TableResolvers(table: ["Box.child": child]), activity: activity)
        #expect(
            lines.first
                == #"{"data":{"boxes":[{"n":1},{"n":2},{"n":3}]},"pending":[{"id":"0","path":["boxes",0]},{"id":"1","path":["boxes",1]},{"id":"2","path":["boxes",2]}],"hasNext":true}"#
        )
        let delivered = lines.dropFirst().joined()
        for (id, n) in [("0", 10), ("1", 20), ("2", 30)] {
            #expect(delivered.contains(#"{"id":"\#(id)","data":{"child":{"n":\#(n)}}}"#))
        }
        #expect(lines.last?.hasPrefix(#"{"hasNext":false"#) == true)
        // The three deferred groups wait on the loader together: one batch, not three.
        #expect(activity.batches == [[1, 2, 3]])
        #expect(activity.runnable == 0)
    }

    @Test func pendingListItemsCompleteConcurrentlyInOrdinaryExecution() async throws {
        let numbers = SyncResolver { _, _, _ in
            .list([
                .pending(
                    PendingValue {
                        try await Task.sleep(for: .milliseconds(30))
                        return .json(.int(1))
                    }),
                .json(.int(2)),
                .pending(PendingValue { .json(.string("three")) }),
            ])
        }
        let out = try await Harness.runAsync(
            schema, "{ numbers }", resolvers: TableResolvers(table: ["Query.numbers": numbers]))
        #expect(
            out
                == #"{"errors":[{"message":"Int cannot represent non-integer value: \"three\"","locations":[{"line":1,"column":3}],"path":["numbers",2]}],"data":{"numbers":[1,2,null]}}"#
        )
        let synchronous = executeSynchronously(
            schema: schema, document: try parse(Source("{ numbers }")), source: Source("{ numbers }"),
            resolvers: TableResolvers(table: ["Query.numbers": numbers]))
        // Synchronous execution cannot wait: each pending item is a field error there.
        #expect(synchronous.errors.map(\.path) == [[.key("numbers"), .index(0)], [.key("numbers"), .index(2)]])
    }

    @Test func aFragmentWithTwoFailedGroupsReportsBothErrors() async throws {
        // `n` is selected by both fragments (one group for both), `again` only by the first:
        // the first fragment has two groups, and both fail.
        let lines = try await run(
            #"{ box { ... @defer(label: "both") { n again: n } ... @defer(label: "one") { n } } }"#,
            data: #"{"box":{"n":null}}"#)
        let all = lines.joined(separator: "\n")
        #expect(lines.count >= 2)
        #expect(all.contains(#""path":["box","n"]"#))
        let both = try #require(lines.first { $0.contains(#""completed":[{"id":"0","errors""#) })
        #expect(both.contains(#""path":["box","n"]"#) && both.contains(#""path":["box","again"]"#))
        let one = try #require(lines.first { $0.contains(#"{"id":"1","errors""#) })
        #expect(!one.contains("again"))
        #expect(!all.contains(#""incremental""#))
        #expect(lines.last?.hasPrefix(#"{"hasNext":false"#) == true)
    }

    @Test func stoppingAfterTheInitialPayloadCancelsDeferredWork() async throws {
        let finished = Atomic<Bool>(false)
        let started = Atomic<Bool>(false)
        let slow = AsyncResolver { _, _, _ in
            started.store(true, ordering: .relaxed)
            try await Task.sleep(for: .seconds(5))
            finished.store(true, ordering: .relaxed)
            return .json(.int(1))
        }
        let clock = ContinuousClock()
        let began = clock.now
        let lines = try await run(
            #"{ version ... @defer { slow } }"#, data: #"{"version":"1"}"#,
            resolvers: TableResolvers(table: ["Query.slow": slow]), stopAfter: 1)
        #expect(lines == [#"{"data":{"version":"1"},"pending":[{"id":"0","path":[]}],"hasNext":true}"#])
        #expect(clock.now - began < .seconds(2))
        let didFinish = finished.load(ordering: .relaxed)
        #expect(!didFinish)
    }

    @Test func cancellingTheCallerCancelsStreams() async throws {
        let task = Task {
            try await run(
                "{ numbers @stream }",
                resolvers: TableResolvers(table: [
                    "Query.numbers": SyncResolver { _, _, _ in
                        .list([
                            .pending(
                                PendingValue {
                                    try await Task.sleep(for: .seconds(5))
                                    return .json(.int(1))
                                })
                        ])
                    }
                ]))
        }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let lines = try await task.value
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""hasNext":true"#) == true)
    }

    @Test func nothingDeferredIsOneOrdinaryResult() async throws {
        #expect(
            try await run(#"{ version ... @defer(if: false) { box { n } } }"#, data: #"{"version":"1"}"#) == [
                #"{"data":{"version":"1","box":null}}"#
            ])
        #expect(
            try await run(#"{ numbers @stream(initialCount: 2) }"#, data: #"{"numbers":[1,2]}"#) == [
                #"{"data":{"numbers":[1,2]}}"#
            ])
        // A request error (a missing variable): errors only, no data.
        let source = Source("query ($x: Boolean!) { box { ... @defer(if: $x) { n } } }")
        var payloads: [IncrementalPayload] = []
        await executeIncrementally(schema: schema, document: try parse(source), source: source) { payload in
            payloads.append(payload)
            return true
        }
        guard case .complete(let result)? = payloads.first, payloads.count == 1 else {
            Issue.record("expected one complete payload")
            return
        }
        #expect(result.isRequestError)
    }

    @Test func streamedItemsGoOutInOrderBatchedWhenReadyTogether() async throws {
        let numbers = SyncResolver { _, _, _ in
            .list([
                .json(.int(0)),
                .pending(
                    PendingValue {
                        try await Task.sleep(for: .milliseconds(60))
                        return .json(.int(1))
                    }),
                .json(.int(2)),
                .pending(
                    PendingValue {
                        try await Task.sleep(for: .milliseconds(150))
                        return .json(.int(3))
                    }),
            ])
        }
        let lines = try await run(
            "{ numbers @stream(initialCount: 1) }", resolvers: TableResolvers(table: ["Query.numbers": numbers]))
        #expect(
            lines == [
                #"{"data":{"numbers":[0]},"pending":[{"id":"0","path":["numbers"]}],"hasNext":true}"#,
                #"{"hasNext":true,"incremental":[{"id":"0","items":[1,2]}]}"#,
                #"{"hasNext":false,"incremental":[{"id":"0","items":[3]}],"completed":[{"id":"0"}]}"#,
            ])
    }

    @Test func ordinaryExecutionIgnoresDeferAndStream() async throws {
        let out = try Harness.run(
            schema, #"{ numbers @stream ... @defer { box { n } } }"#, data: #"{"numbers":[1,2],"box":{"n":3}}"#)
        #expect(out == #"{"data":{"numbers":[1,2],"box":{"n":3}}}"#)
    }

    @Test func theSchemaGainsBothDirectivesOnce() throws {
        #expect(schema.supportsIncrementalDelivery)
        #expect(schema.directives.filter { $0.name == "defer" || $0.name == "stream" }.count == 2)
        #expect(schema.addingIncrementalDirectives().directives.count == schema.directives.count)
        let bare = try Harness.schema("type Query { a: String }").addingIncrementalDirectives()
        #expect(bare.types["Int"] != nil)
        #expect(bare.typeNames.firstIndex(of: "Int")! < bare.typeNames.firstIndex(of: "__Schema")!)
    }
}
