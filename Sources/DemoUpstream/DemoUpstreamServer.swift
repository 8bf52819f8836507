import HTTPServer
import HTTPTypes

/// DemoUpstream on a real HTTP port (HTTPServer on libmicrohttpd), for the demo CLI,
/// `serve --demo` and the integration tests.
public final class DemoUpstreamServer: Sendable {
    public let demo: DemoUpstream
    public let server: HTTPServer

    /// The bound port (the ephemeral one when asked for port 0).
    public var port: Int { server.port }
    /// `http://<host>:<port>`: every provider's base URL when pointed at the demo.
    public var baseURL: String {
        let host =
            server.configuration.host.contains(":") ? "[\(server.configuration.host)]" : server.configuration.host
        return "http://\(host):\(port)"
    }

    /// Starts serving `demo` on `host`:`port` (0 = ephemeral).
    ///
    /// The server's own request deadline is set past the demo's `hangLimitMs`, so a `hang`
    /// fault looks like silence to the client, not like a 503 from the server; shutdown
    /// waits at most `shutdownGraceMs` for requests in flight (hung ones included).
    /// - Throws: `HTTPServerError` when the address is invalid or the port is taken.
    public init(demo: DemoUpstream, host: String = "127.0.0.1", port: Int = 0, shutdownGraceMs: Int = 500)
        throws(HTTPServerError)
    {
        self.demo = demo
        let configuration = HTTPServer.Configuration(
            host: host, port: port, requestTimeoutMs: demo.options.hangLimitMs + 5_000, shutdownGraceMs: shutdownGraceMs
        )
        server = try HTTPServer(configuration: configuration) { request in
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.lowercased()] = field.value }
            let demoRequest = DemoRequest(
                method: request.method.rawValue, path: request.path, rawQuery: request.rawQuery, headers: headers,
                body: request.body)
            // An answer made before is sent after the latency by the server's deadline thread: no
            // task, no timer per request (a wave of 150 searches cost DemoUpstream more CPU than
            // the gateway it answers, on the same cores).
            if let (response, latency) = demo.keptAnswer(demoRequest) {
                return .delayed(Self.httpResponse(response), by: latency)
            }
            return .later { Self.httpResponse(await demo.handle(demoRequest)) }
        }
    }

    private static func httpResponse(_ response: DemoResponse) -> HTTPResponse {
        HTTPResponse(
            status: HTTPStatus(code: response.status),
            headers: HTTPHeaders(response.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
            body: response.body)
    }

    /// Stops the server (see `HTTPServer.shutdown()`).
    public func shutdown() async {
        await server.shutdown()
    }
}
