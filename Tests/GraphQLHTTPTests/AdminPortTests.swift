import HTTPClient
import HTTPServer
import Testing

@testable import GraphQLHTTP

/// Probes and scrapes on the admin port are answered while the main port's connections are
/// all taken: a load balancer does not take out an instance that is only busy.
@Suite struct AdminPortTests {
    @Test func healthReadinessAndMetricsAnswerWhileTheMainPortIsFull() async throws {
        let handler = GraphQLHTTPHandler(
            schema: TestGateway.schema, configuration: GraphQLHTTPHandler.Configuration(), execute: TestGateway.execute)
        let server = try GraphQLHTTPServer(
            handler: handler,
            http: HTTPServer.Configuration(maxConnections: 2, limitLoopbackConnections: false, shutdownGraceMs: 100),
            adminPort: 0)
        let adminPort = try #require(server.adminPort)
        #expect(adminPort != server.port)
        let client = HTTPClient(
            configuration: HTTPClient.Configuration(timeoutMs: 5_000, retry: RetryPolicy(maxTries: 1)))
        let impatient = HTTPClient(
            configuration: HTTPClient.Configuration(timeoutMs: 1_000, retry: RetryPolicy(maxTries: 1)))
        let main = "http://127.0.0.1:\(server.port)"
        let admin = "http://127.0.0.1:\(adminPort)"
        // Both of the main port's connections held by slow queries.
        let slow = (0..<2).map { _ in
            Task {
                try await client.post(
                    main + "/graphql", headers: ["Content-Type": "application/json"],
                    body: Array(#"{"query":"{ pause(ms: 3000) }"}"#.utf8))
            }
        }
        while handler.metrics.requestsInFlight < 2 { try await Task.sleep(for: .milliseconds(5)) }
        // The main port makes a probe wait for a connection past a second...
        await #expect(throws: HTTPClientError.self) { try await impatient.get(main + "/healthz") }
        // ...the admin port answers at once.
        let clock = ContinuousClock()
        let asked = clock.now
        let health = try await impatient.get(admin + "/healthz")
        let ready = try await impatient.get(admin + "/readyz")
        let metrics = try await impatient.get(admin + "/metrics")
        #expect(asked.duration(to: clock.now) < .seconds(1))
        #expect(health.status.code == 200 && String(decoding: health.body, as: UTF8.self) == "ok")
        #expect(ready.status.code == 200)
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("musicgraph_http_requests_in_flight"))
        // GraphQL is not served there.
        #expect(try await impatient.get(admin + "/graphql").status.code == 404)
        for task in slow { #expect(try await task.value.status.code == 200) }
        await server.shutdown()
    }
}
