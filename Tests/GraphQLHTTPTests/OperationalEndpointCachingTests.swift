import HTTPClient
import Testing

@testable import GraphQLHTTP

/// `/healthz`, `/readyz` and `/metrics` are never cached: a cache in between would report a
/// server that is gone as healthy, or stale figures.
@Suite struct OperationalEndpointCachingTests {
    @Test func healthReadinessAndMetricsSendNoStore() async throws {
        let test = try TestServer()
        for path in ["/healthz", "/readyz", "/metrics"] {
            let response = try await test.get(path)
            #expect(response.status == 200, "\(path)")
            #expect(response.headers["Cache-Control"] == "no-store", "\(path)")
        }
        #expect(try await test.get("/healthz").text == "ok")
        #expect(try await test.get("/metrics").headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        await test.server.shutdown()
    }
}
