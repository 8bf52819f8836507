import Foundation
import HTTPClient
import HTTPTypes
import TestSupport
import Testing

/// Issue 16's amplification document (600 aliased `__schema` selections, ~9.8 MB answered
/// before) against a real `serve --demo` with the alias and root-field limits turned off: the
/// cost model refuses it before execution, and without that the response-size limit stops it
/// while it is written. Either way the server answers the next query.
@Suite(.serialized) struct AmplificationTests {
    static let body: [UInt8] = {
        let selection = (0..<600).map { "s\($0): __schema { types { name fields { name } } queryType { name } }" }
        return Array((#"{"query":"{ "# + selection.joined(separator: " ") + #" }"}"#).utf8)
    }()

    static func post(_ url: String, _ body: [UInt8]) async throws -> (status: Int, text: String, bytes: Int) {
        let response = try await HTTPClient().execute(
            HTTPClientRequest(
                method: .post, url: url,
                headers: ["Content-Type": "application/json", "Accept": "application/graphql-response+json"],
                body: body))
        return (response.status.code, String(decoding: response.body, as: UTF8.self), response.body.count)
    }

    static func serve(_ flags: [String]) throws -> CLIChild {
        try CLIChild(
            ["serve", "--demo", "--port", "0", "--max-aliases", "0", "--max-root-fields", "0"] + flags,
            environment: ["MUSICGRAPH_STORE": "", "MUSICGRAPH_MAX_QUERY_COST": ""])
    }

    @Test func theCostModelRefusesItBeforeExecution() async throws {
        let gateway = try Self.serve([])
        defer { gateway.stop() }
        let refused = try await Self.post(gateway.url, Self.body)
        #expect(refused.status == 400)
        #expect(refused.text.contains(#""code":"QUERY_COST_EXCEEDED","estimatedCost":60000,"maxQueryCost":50000"#))
        #expect(!refused.text.contains(#""data""#))
        #expect(refused.bytes < 1_000)
    }

    @Test func overTheResponseLimitItStopsWithOneError() async throws {
        let gateway = try Self.serve(["--max-query-cost", "0", "--max-response-bytes", "1048576"])
        defer { gateway.stop() }
        let stopped = try await Self.post(gateway.url, Self.body)
        #expect(stopped.status == 294)  // execution ran: data null and an error, a partial success
        #expect(stopped.bytes < 1_000, "\(stopped.bytes) bytes")
        #expect(
            stopped.text.hasPrefix(
                #"{"errors":[{"message":"The response is larger than the limit of 1048576 bytes; it was stopped and "#
                    + #"none of its data is sent. Select fewer fields or smaller lists.","locations":[{"line":1,"column":1}],"#
                    + #""path":["s"#))
        #expect(stopped.text.contains(#""extensions":{"code":"RESPONSE_TOO_LARGE","maximum":1048576}}],"data":null"#))
        // The server stays responsive, and a small introspection query still answers in full.
        let small = try await Self.post(gateway.url, Array(#"{"query":"{ __schema { queryType { name } } }"}"#.utf8))
        #expect(small.status == 200)
        #expect(small.text.hasPrefix(#"{"data":{"__schema":{"queryType":{"name":"Query"}}}"#))
    }

    /// Issue 16: under a tiny limit the executor's own error (with its `locations` and `path`) is
    /// itself longer than the limit; the HTTP layer replaced it by one without either, whose
    /// `actual` was the size of the error message. It is now answered as the executor wrote it.
    @Test func underATinyLimitTheExecutorsLocatedErrorIsWhatTheClientGets() async throws {
        let gateway = try Self.serve(["--max-response-bytes", "40"])
        defer { gateway.stop() }
        let query = #"{"query":"{ artist(name: \"AC/DC\") { albums(first: 3) { title } } }"}"#
        let stopped = try await Self.post(gateway.url, Array(query.utf8))
        #expect(stopped.status == 294)
        #expect(
            stopped.text.hasPrefix(
                #"{"errors":[{"message":"The response is larger than the limit of 40 bytes; it was stopped and none "#
                    + #"of its data is sent. Select fewer fields or smaller lists.","locations":[{"line":1,"column":1}],"#
                    + #""path":["artist","#))
        #expect(stopped.text.contains(#""extensions":{"code":"RESPONSE_TOO_LARGE","maximum":40}}],"data":null"#))
        // Not the HTTP layer's replacement, which quotes the body's size.
        #expect(!stopped.text.contains("bytes ("))
    }

    @Test func aLimitOfZeroTurnsItOffAndABadValueIsAUsageError() async throws {
        let run = try CLI.run(["serve", "--demo", "--port", "0", "--max-response-bytes", "lots"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--max-response-bytes expects a non-negative integer, got 'lots'"))
        let query = QueryIncrementalTests.write(#"{ artist(name: "AC/DC") { albums(first: 3) { title } } }"#)
        let tight = try CLI.run(["query", "--demo", "--max-response-bytes", "40", query])
        // None of the data was printed: a script must not take it for an answer.
        #expect(tight.status == 1)
        #expect(tight.stdout.contains(#""code":"RESPONSE_TOO_LARGE","maximum":40"#))
        let off = try CLI.run(["query", "--demo", "--max-response-bytes", "0", query])
        #expect(off.status == 0)
        #expect(off.stdout.hasPrefix(#"{"data":{"artist":{"albums":[{"title":"#))
    }
}
