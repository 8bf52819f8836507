import GraphQL
import HTTPClient
import HTTPServer
import HTTPTypes
import Synchronization
import Testing

@testable import GraphQLHTTP

/// `@defer` and `@stream` over HTTP: `multipart/mixed` in both formats, exactly framed, the
/// ordinary answer for everyone else, and streams that end early (deadline, client gone) logged
/// and counted for what they were.
@Suite struct IncrementalDeliveryTests {
    static let sdl = """
        directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @stream(initialCount: Int! = 0, if: Boolean! = true, label: String) on FIELD
        type Query {
          hello: String!
          pause(ms: Int!): String
          numbers: [Int!]!
        }
        """

    static let schema: Schema = {
        do {
            return try buildSchema(sdl: sdl)
        } catch {
            preconditionFailure("the test schema does not build: \(error)")
        }
    }()

    /// What the resolvers saw: how many pauses were cancelled before their end.
    final class Seen: Sendable {
        let cancelledPauses = Atomic<Int>(0)
    }

    struct Resolvers: ExecutionResolvers {
        let seen: Seen

        func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
            switch field.name {
            case "hello": return SyncResolver { _, _, _ in .json(.string("Hello!")) }
            case "numbers": return SyncResolver { _, _, _ in .json(.array([.int(1), .int(2), .int(3)])) }
            case "pause":
                let seen = self.seen
                return AsyncResolver { _, arguments, _ in
                    guard case .int(let ms)? = arguments["ms"] else { return .null }
                    do {
                        try await Task.sleep(for: .milliseconds(ms))
                    } catch {
                        seen.cancelledPauses.add(1, ordering: .sequentiallyConsistent)
                        throw error
                    }
                    return .json(.string("paused \(ms) ms"))
                }
            default: return nil
            }
        }
    }

    struct Server {
        let server: GraphQLHTTPServer
        let log = LogCollector()
        let seen = Seen()

        init(requestTimeoutMs: Int = 30_000, maxResponseBytes: Int = 16 << 20) throws {
            var configuration = GraphQLHTTPHandler.Configuration(requestTimeoutMs: requestTimeoutMs)
            configuration.maxResponseBytes = maxResponseBytes
            configuration.logSink = log.sink
            let resolvers = Resolvers(seen: seen)
            let schema = IncrementalDeliveryTests.schema
            let handler = GraphQLHTTPHandler(
                schema: schema, configuration: configuration,
                executeIncrementally: { document, operationName, variables, deliver in
                    var report = RequestReport()
                    report.recordUpstream(service: "itunes", outcome: "ok", count: 1)
                    await GraphQL.executeIncrementally(
                        schema: schema, document: document.document, source: document.source,
                        variableValues: variables, operationName: operationName, resolvers: resolvers
                    ) { [report] payload in
                        await deliver(GraphQLHTTPIncrementalPart(payload: payload, report: report))
                    }
                    // Stopped early (client gone, deadline): stands for the searches that were on
                    // the wire when it stopped, sent after the last part the client got.
                    if Task.isCancelled { report.recordUpstream(service: "youtube", outcome: "ok", count: 2) }
                    return report
                },
                execute: { document, operationName, variables in
                    .executed(
                        await GraphQL.execute(
                            schema: schema, document: document.document, source: document.source,
                            variableValues: variables, operationName: operationName, resolvers: resolvers))
                })
            server = try GraphQLHTTPServer(handler: handler)
        }

        func post(_ query: String, accept: String, timeoutMs: Int = 5_000) async throws -> HTTPClientResponse {
            let client = HTTPClient(
                configuration: HTTPClient.Configuration(timeoutMs: timeoutMs, retry: RetryPolicy(maxTries: 1)))
            let body = JSONWriter.serialize(.object(JSONObject([("query", .string(query))])))
            return try await client.post(
                "http://127.0.0.1:\(server.port)/graphql",
                headers: ["Content-Type": "application/json", "Accept": accept], body: body)
        }

        /// Waits (at most 5 s) until `count` log lines are written.
        func logLines(_ count: Int) async -> [String] {
            let end = ContinuousClock.now.advanced(by: .seconds(5))
            while log.all.count < count, ContinuousClock.now < end {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return log.all
        }
    }

    static let deferred = #"{ hello ... @defer(label: "slow") { pause(ms: 20) } }"#
    static let partHead = "\r\n---\r\nContent-Type: application/json; charset=utf-8\r\n\r\n"

    /// The JSON bodies of a multipart body framed as the RFC says, or nil when it is not.
    static func parts(_ body: String) -> [String]? {
        guard body.hasPrefix(partHead), body.hasSuffix("\r\n-----\r\n") else { return nil }
        let inner = body.dropLast("\r\n-----\r\n".count)
        return inner.components(separatedBy: partHead).dropFirst().map { String($0) }
    }

    @Test func incrementalSpecV02AnswersThePayloadsOfTheRFCAsParts() async throws {
        let server = try Server()
        let response = try await server.post(Self.deferred, accept: "multipart/mixed; incrementalSpec=v0.2")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == #"multipart/mixed; boundary="-"; incrementalSpec=v0.2"#)
        #expect(response.headers["Cache-Control"] == "no-store")
        let parts = try #require(Self.parts(response.text))
        #expect(
            parts == [
                #"{"data":{"hello":"Hello!"},"pending":[{"id":"0","path":[],"label":"slow"}],"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"id":"0","data":{"pause":"paused 20 ms"}}],"completed":[{"id":"0"}]}"#,
            ])
        // One log line when the stream ended, with what the whole answer cost; both parts counted.
        let lines = await server.logLines(1)
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""status":200"#) == true)
        #expect(lines.first?.contains(#""upstreamRequests":1"#) == true)
        let metrics = server.server.handler.metrics.render()
        #expect(metrics.contains("musicgraph_http_incremental_parts_total 2\n"))
        #expect(metrics.contains(#"musicgraph_http_requests_total{path="/graphql",status="200"} 1"#))
        #expect(server.server.handler.metrics.requestsInFlight == 0)
        await server.server.shutdown()
    }

    @Test func deferSpec20220824AnswersApollosOlderFormat() async throws {
        let server = try Server()
        let response = try await server.post(
            Self.deferred, accept: "multipart/mixed;deferSpec=20220824,application/json")
        #expect(response.headers["Content-Type"] == #"multipart/mixed; boundary="-"; deferSpec=20220824"#)
        let parts = try #require(Self.parts(response.text))
        #expect(
            parts == [
                #"{"data":{"hello":"Hello!"},"hasNext":true}"#,
                #"{"hasNext":false,"incremental":[{"data":{"pause":"paused 20 ms"},"path":[],"label":"slow"}]}"#,
            ])
        let streamed = try await server.post(
            "{ numbers @stream(initialCount: 1) }", accept: "multipart/mixed; deferSpec=20220824")
        let items = try #require(Self.parts(streamed.text))
        #expect(items.first == #"{"data":{"numbers":[1]},"hasNext":true}"#)
        // Each streamed item says where it goes: the list's path and its index.
        let rest = items.dropFirst().joined()
        #expect(rest.contains(#""items":[2"#) && rest.contains(#""path":["numbers",1]"#))
        #expect(items.last?.hasPrefix(#"{"hasNext":false"#) == true)
        await server.server.shutdown()
    }

    @Test func withoutAMultipartAcceptTheAnswerIsOneOrdinaryResponse() async throws {
        let server = try Server()
        let response = try await server.post(Self.deferred, accept: "application/graphql-response+json")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
        #expect(response.text == #"{"data":{"hello":"Hello!","pause":"paused 20 ms"}}"#)
        // Nothing deferred: the ordinary answer, even for a client that reads multipart.
        let plain = try await server.post("{ hello }", accept: "multipart/mixed; incrementalSpec=v0.2")
        #expect(plain.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
        #expect(plain.text == #"{"data":{"hello":"Hello!"}}"#)
        await server.server.shutdown()
    }

    @Test func errorsBeforeExecutionAreOrdinaryResponsesWithTheirStatus() async throws {
        let server = try Server()
        let invalid = try await server.post(
            "{ hello ... @defer { nope } }", accept: "multipart/mixed; incrementalSpec=v0.2")
        #expect(invalid.status == 422)
        #expect(invalid.headers["Content-Type"] == "application/graphql-response+json; charset=utf-8")
        #expect(invalid.text.contains("GRAPHQL_VALIDATION_FAILED"))
        let unparsed = try await server.post("{ hello ", accept: "multipart/mixed; deferSpec=20220824")
        #expect(unparsed.status == 400)
        #expect(unparsed.text.contains("GRAPHQL_PARSE_FAILED"))
        await server.server.shutdown()
    }

    @Test func theDeadlineEndsAStreamWithTheRestCompletedAsTimedOut() async throws {
        let server = try Server(requestTimeoutMs: 300)
        let response = try await server.post(
            #"{ hello ... @defer { pause(ms: 20000) } }"#, accept: "multipart/mixed; incrementalSpec=v0.2")
        #expect(response.status == 200)
        let parts = try #require(Self.parts(response.text))
        #expect(parts.count == 2)
        #expect(parts.last?.hasPrefix(#"{"hasNext":false,"completed":[{"id":"0","errors":[{"message":"#) == true)
        #expect(parts.last?.contains("REQUEST_TIMEOUT") == true)
        // The execution was stopped, and the log says 504, with what was sent until it stopped
        // (the searches after the last part included).
        let lines = await server.logLines(1)
        #expect(lines.first?.contains(#""status":504"#) == true)
        #expect(lines.first?.contains(#""upstreamRequests":3"#) == true)
        // Both parts the client got are counted (before: 1, the deadline's own part left out).
        #expect(server.server.handler.metrics.render().contains("musicgraph_http_incremental_parts_total 2"))
        await waitFor { server.seen.cancelledPauses.load(ordering: .sequentiallyConsistent) == 1 }
        #expect(server.seen.cancelledPauses.load(ordering: .sequentiallyConsistent) == 1)
        await server.server.shutdown()
    }

    @Test func aClientThatLeavesMidStreamStopsTheExecution() async throws {
        let server = try Server()
        // The client gives up after 400 ms, long after the first part, long before the pause ends.
        await #expect(throws: (any Error).self) {
            try await server.post(
                #"{ hello ... @defer { pause(ms: 20000) } }"#, accept: "multipart/mixed; incrementalSpec=v0.2",
                timeoutMs: 400)
        }
        await waitFor { server.seen.cancelledPauses.load(ordering: .sequentiallyConsistent) == 1 }
        #expect(server.seen.cancelledPauses.load(ordering: .sequentiallyConsistent) == 1)
        let lines = await server.logLines(1)
        #expect(lines.first?.contains(#""status":499"#) == true)
        // What the stopped execution sent after the only part the client read is on the line and
        // in the metrics (before, the line said 1: the first part's report).
        #expect(lines.first?.contains(#""upstreamRequests":3"#) == true)
        #expect(
            server.server.handler.metrics.render().contains(
                #"musicgraph_upstream_requests_total{service="youtube",outcome="ok"} 2"#))
        #expect(server.server.handler.metrics.requestsInFlight == 0)
        await server.server.shutdown()
    }

    private func waitFor(_ condition: () -> Bool) async {
        let end = ContinuousClock.now.advanced(by: .seconds(5))
        while !condition(), ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
