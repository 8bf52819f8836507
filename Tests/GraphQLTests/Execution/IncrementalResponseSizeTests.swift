import Testing

@testable import GraphQL

/// `executeIncrementally(maxResponseBytes:)`: the data of the initial payload and of every
/// deferred fragment and streamed item count against one limit (issue 16: parts were not
/// bounded at all). Over it, the stream ends with one last payload whose completed notices
/// carry `RESPONSE_TOO_LARGE`; nothing past the limit is delivered.
@Suite struct IncrementalResponseSizeTests {
    let schema: Schema
    init() throws {
        schema = try Harness.schema("type Query { items: [Item!]! numbers: [Int] }\ntype Item { name: String! }")
            .addingIncrementalDirectives()
    }

    /// 100 items (1,901 bytes of `{"items":[…]}`) and the numbers 0…999.
    static let data =
        #"{"items":["# + (0..<100).map { #"{"name":"item-\#($0)"}"# }.joined(separator: ",") + #"],"numbers":["#
        + (0..<1_000).map(String.init).joined(separator: ",") + "]}"

    private func run(_ query: String, maxResponseBytes: Int) async throws -> [String] {
        let source = Source(query)
        let document = try parse(source)
        #expect(validate(schema: schema, document: document, source: source, rules: incrementalDeliveryRules).isEmpty)
        var lines: [String] = []
        await executeIncrementally(
            schema: schema, document: document, source: source, rootValue: .json(try JSONReader.parse(Self.data)),
            maxResponseBytes: maxResponseBytes
        ) { payload in
            lines.append(String(decoding: payload.serialized(), as: UTF8.self))
            return true
        }
        return lines
    }

    static let deferredItems = "{ items { name } ... @defer(label: \"again\") { again: items { name } } }"

    @Test func underTheLimitEveryPartIsDelivered() async throws {
        let lines = try await run(Self.deferredItems, maxResponseBytes: 4_000)
        #expect(lines.count == 2)
        #expect(lines.last?.hasPrefix(#"{"hasNext":false,"incremental":[{"id":"0","data":{"again":[{"name":"#) == true)
    }

    @Test func aDeferredFragmentOverTheLimitEndsTheStreamWithTheError() async throws {
        let lines = try await run(Self.deferredItems, maxResponseBytes: 2_500)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix(#"{"data":{"items":[{"name":"item-0"}"#) == true)
        #expect(lines.first?.hasSuffix(#""pending":[{"id":"0","path":[],"label":"again"}],"hasNext":true}"#) == true)
        let last = try #require(lines.last)
        #expect(
            last.hasPrefix(
                #"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"The response is larger than the limit "#
                    + #"of 2500 bytes; it was stopped and the rest of its data is not sent. Select fewer fields or "#
                    + #"smaller lists.","locations":[{"line":1,"column":1}],"path":["again","#))
        #expect(last.hasSuffix(#""extensions":{"code":"RESPONSE_TOO_LARGE","maximum":2500}}]}]}"#))
        // None of the deferred data that crossed the limit is delivered.
        #expect(!last.contains(#""incremental""#))
    }

    @Test func anInitialPayloadOverTheLimitIsTheOrdinaryNullAnswer() async throws {
        let lines = try await run(Self.deferredItems, maxResponseBytes: 1_000)
        #expect(
            lines == [
                #"{"errors":[{"message":"The response is larger than the limit of 1000 bytes; it was stopped and "#
                    + #"none of its data is sent. Select fewer fields or smaller lists.","locations":[{"line":1,"column":1}],"#
                    + #""path":["items",52],"extensions":{"code":"RESPONSE_TOO_LARGE","maximum":1000}}],"data":null}"#
            ])
    }

    /// Streamed leaves close no object the executor could check at: their items count as they
    /// are committed.
    @Test func aStreamOfLeavesOverTheLimitEndsWithTheError() async throws {
        let lines = try await run("{ numbers @stream(initialCount: 1) }", maxResponseBytes: 500)
        #expect(lines.count == 2)
        #expect(lines.first == #"{"data":{"numbers":[0]},"pending":[{"id":"0","path":["numbers"]}],"hasNext":true}"#)
        #expect(lines.last?.hasPrefix(#"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"#) == true)
        #expect(lines.last?.contains(#""code":"RESPONSE_TOO_LARGE","maximum":500"#) == true)
        #expect(lines.last?.contains(#""items""#) == false)
        // Without a limit all 999 streamed items come.
        let all = try await run("{ numbers @stream(initialCount: 1) }", maxResponseBytes: 0)
        #expect(all.dropFirst().joined().contains(",999]"))
    }
}
