import HTTPServer
import TestSupport
import Testing

@testable import GraphQLHTTP

/// Every answer a shutdown gives is logged and counted: the 503 of a request still executing
/// when the grace runs out, and the 503 of one that arrives after, which no handler sees.
@Suite struct ShutdownLoggingTests {
    @Test func the503sOfAShutdownAreLoggedAndCountedBeforeItReturns() async throws {
        let test = try TestServer(http: HTTPServer.Configuration(shutdownGraceMs: 100))
        let client = test.client
        let url = test.base + "/graphql"
        let inFlight = Task {
            try await client.post(
                url, headers: ["Content-Type": "application/json"],
                body: Array(#"{"query":"{ pause(ms: 20000) }"}"#.utf8))
        }
        try await test.waitUntilARequestIsInFlight()
        // A request whose head is not complete: it keeps the daemon listening after the 503s.
        let late = try HeldSocket(port: test.server.port)
        late.send("GET /healthz HTTP/1.1\r\nHost: t\r\n")
        let stopping = Task { await test.server.shutdown() }
        // The executing request is answered 503 once the grace (100 ms) runs out; then the late head.
        let answered = try await inFlight.value
        #expect(answered.status == 503)
        // A GraphQL error with its code, as every other answer (before: "server shutting down").
        let body = String(decoding: answered.body, as: UTF8.self)
        #expect(body.contains(#""extensions":{"code":"SERVICE_UNAVAILABLE"}"#), "\(body)")
        #expect(answered.headers["Content-Type"] == "application/json; charset=utf-8")
        late.send("\r\n")
        let lateAnswer = await late.readResponse(timeoutMs: 5_000)
        await stopping.value
        #expect(lateAnswer.hasPrefix("HTTP/1.1 503"))
        #expect(lateAnswer.contains(#""code":"SERVICE_UNAVAILABLE""#), "\(lateAnswer)")
        let lines = test.log.all
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.contains { $0.contains(#""path":"/graphql""#) && $0.contains(#""status":503"#) })
        #expect(lines.contains { $0.contains(#""path":"/healthz""#) && $0.contains(#""status":503"#) })
        let metrics = test.server.handler.metrics.render()
        #expect(metrics.contains(#"musicgraph_http_requests_total{path="/graphql",status="503"} 1"#))
        #expect(metrics.contains(#"musicgraph_http_requests_total{path="/healthz",status="503"} 1"#))
        #expect(test.server.handler.metrics.requestsInFlight == 0)
    }
}
