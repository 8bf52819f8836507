import Dispatch
import Glibc
import HTTPServer
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

/// Sends `text` to 127.0.0.1:`port` and waits up to 5 s for the server to close the connection.
private func sendAndAwaitClose(port: Int, text: String) async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var peer = sockaddr_in()
            peer.sin_family = sa_family_t(AF_INET)
            peer.sin_port = UInt16(port).bigEndian
            peer.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let bytes = Array(text.utf8)
            guard connected == 0, send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
                return continuation.resume(returning: false)
            }
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var buffer = [UInt8](repeating: 0, count: 64)
            continuation.resume(returning: recv(fd, &buffer, buffer.count, 0) == 0)
        }
    }
}
