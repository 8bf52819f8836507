import HTTPServer
import TestSupport
import Testing

@testable import GraphQLHTTP

/// The HTTP server's connection deadlines and limits, as `/metrics` shows them.
@Suite struct ConnectionMetricsTests {
    @Test func metricsCountConnectionsClosedByTheHeaderDeadline() async throws {
        let test = try TestServer(http: HTTPServer.Configuration(headerTimeoutMs: 200))
        let before = try await test.get("/metrics").text
        #expect(before.contains(#"musicgraph_http_connections_closed_total{reason="header_timeout"} 0"#))
        // A head that never ends: the server closes the socket at its deadline.
        let closed = await sendAndAwaitClose(port: test.server.port, text: "GET /graphql HTTP/1.1\r\nHost: t\r\n")
        #expect(closed)
        let lines = try await test.get("/metrics").text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"musicgraph_http_connections_closed_total{reason="header_timeout"} 1"#))
        #expect(lines.contains(#"musicgraph_http_connections_closed_total{reason="address_limit"} 0"#))
        #expect(lines.contains("# TYPE musicgraph_http_connections_open gauge"))
        // The test client's keep-alive connections (one per libcurl loop thread), which asked for
        // these metrics; the closed one may still be on its way out of libmicrohttpd.
        let open = lines.first { $0.hasPrefix("musicgraph_http_connections_open ") }.flatMap {
            Int($0.split(separator: " ")[1])
        }
        #expect((1...3).contains(open ?? 0))
        await test.server.shutdown()
    }
}

/// Sends `text` to 127.0.0.1:`port` and waits up to 5 s for the server to close the connection
/// without answering.
private func sendAndAwaitClose(port: Int, text: String) async -> Bool {
    guard let connection = try? HeldSocket(port: port), connection.send(text) else { return false }
    let reply = await connection.readUntilClosed(timeoutMs: 5_000)
    return reply.closed && reply.text.isEmpty
}
