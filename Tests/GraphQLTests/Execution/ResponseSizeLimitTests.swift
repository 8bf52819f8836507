import Synchronization
import Testing

@testable import GraphQL

/// `maxResponseBytes`: the executor stops writing a response over the limit, answers
/// `data: null` with one `RESPONSE_TOO_LARGE` error, and runs no resolver after that.
@Suite struct ResponseSizeLimitTests {
    let schema: Schema
    init() throws {
        schema = try Harness.schema(
            "type Query { items: [Item!]! one: Item later: [Item] }\ntype Item { name: String! }")
    }

    /// `{"items":[{"name":"item-0"},…]}` with `count` items.
    func data(_ count: Int) -> String {
        #"{"items":["# + (0..<count).map { #"{"name":"item-\#($0)"}"# }.joined(separator: ",") + "]}"
    }

    func run(_ query: String, data: String, maxResponseBytes: Int) throws -> ExecutionResult {
        let source = Source(query)
        return executeSynchronously(
            schema: schema, document: try parse(source), source: source, rootValue: .json(try JSONReader.parse(data)),
            maxResponseBytes: maxResponseBytes)
    }

    @Test func underTheLimitTheWholeResponseIsWritten() throws {
        let result = try run("{ items { name } }", data: data(100), maxResponseBytes: 10_000)
        #expect(result.errors.isEmpty)
        #expect(result.dataJSON?.count == 1_901)
        // Exactly at the limit still fits.
        #expect(try run("{ items { name } }", data: data(100), maxResponseBytes: 1_901).errors.isEmpty)
    }

    @Test func overTheLimitDataIsNullWithOneErrorAtWhereItWasCrossed() throws {
        let result = try run("{ items { name } }", data: data(100), maxResponseBytes: 1_000)
        #expect(
            String(decoding: result.serialized(), as: UTF8.self)
                == #"{"errors":[{"message":"The response is larger than the limit of 1000 bytes; it was stopped and "#
                + #"none of its data is sent. Select fewer fields or smaller lists.","locations":[{"line":1,"column":1}],"#
                + #""path":["items",52],"extensions":{"code":"RESPONSE_TOO_LARGE","maximum":1000}}],"data":null}"#)
        #expect(try run("{ items { name } }", data: data(100), maxResponseBytes: 1_900).errors.count == 1)
    }

    @Test func noResolverRunsOnceTheLimitIsCrossed() async throws {
        let calls = Atomic<Int>(0)
        // Each item answers later, one hole per item; every one writes 20 bytes.
        let later = AsyncResolver { _, _, _ in
            .list(
                (0..<200).map { index in
                    .pending(
                        PendingValue {
                            calls.add(1, ordering: .relaxed)
                            return .json(.object(JSONObject([("name", .string("item-\(index + 1000)"))])))
                        })
                })
        }
        let source = Source("{ later { name } }")
        let result = await execute(
            schema: schema, document: try parse(source), source: source,
            resolvers: TableResolvers(table: ["Query.later": later]), maxResponseBytes: 1_000)
        #expect(result.errors.map { $0.extensions["code"] } == [.string("RESPONSE_TOO_LARGE")])
        #expect(result.dataJSON == Array("null".utf8))
        // Walks that were running when it tripped finish; none starts after it.
        #expect(calls.load(ordering: .relaxed) < 100)
    }
}
