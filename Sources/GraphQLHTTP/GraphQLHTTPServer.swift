import Glibc
import GraphQL
import HTTPServer

/// A `GraphQLHTTPHandler` served over HTTP/1.1 by `HTTPServer` (libmicrohttpd).
///
/// Listens from `init` until `shutdown()`, which turns `/readyz` to 503, refuses new requests
/// (after the handler's pre-stop delay), lets requests in flight finish (up to
/// `HTTPServer.Configuration.shutdownGraceMs`) and answers the rest 503.
/// `runUntilSignalled()` serves until SIGINT or SIGTERM, then shuts down gracefully.
public final class GraphQLHTTPServer: Sendable {
    public let handler: GraphQLHTTPHandler
    private let server: HTTPServer
    /// The admin listener: `/healthz`, `/readyz` and `/metrics` only, on a daemon of its own,
    /// so that probes are answered while the main port's connections are over their limits.
    private let admin: HTTPServer?

    /// The TCP port the server listens on (the ephemeral one when the configured port is 0).
    public var port: Int { server.port }

    /// The admin port (the ephemeral one when 0 was asked for); nil without one.
    public var adminPort: Int? { admin?.port }

    /// Connections the admin port keeps at once: probes and scrapes, a few per load balancer
    /// and Prometheus; its own limit, apart from the main port's.
    static let adminMaxConnections = 64

    /// Starts listening.
    ///
    /// The HTTP server gets the handler's body limit, and hands a longer body (dropped, not
    /// read) to the handler, which answers it 413 as a GraphQL response, logs and counts it. Its own per-request deadline is turned off: the handler answers 504 at
    /// `requestTimeoutMs` itself, through one shared `DeadlineScheduler`, whereas the HTTP
    /// server's deadline costs a sleeping task per request whose timer outlives the request on
    /// Linux (see `DeadlineScheduler`), which under load cost tens of MB of RSS and ~10% of
    /// throughput in bench/http-gateway.sh.
    /// - Throws: `HTTPServerError` when the address is invalid or the port cannot be bound.
    /// - Parameter adminPort: where to serve `/healthz`, `/readyz` and `/metrics` apart (on
    ///   `http.host`); nil for none.
    public init(
        handler: GraphQLHTTPHandler, http: HTTPServer.Configuration = HTTPServer.Configuration(), adminPort: Int? = nil
    ) throws(HTTPServerError) {
        var http = http
        http.maxBodyBytes = handler.configuration.maxBodyBytes
        http.requestTimeoutMs = 0
        http.handlerAnswersOversizedBodies = true
        // The 503s a shutdown gives without calling the handler are logged and counted too.
        http.serverAnswered = { request, response in handler.recordServerAnswer(request, response: response) }
        // Its body is a GraphQL error (`SERVICE_UNAVAILABLE`) in `application/json`, which every
        // GraphQL-over-HTTP client reads: the request's Accept header is not at hand there.
        http.shutdownResponse = GraphQLResponseWriter.failure(.shutDown, media: .json)
        // Counted when the 503s go out, not when the cut-short handlers return (which waits for
        // their upstream requests on the wire).
        http.graceEnded = { unfinished in handler.metrics.shutdownCutShort(unfinished) }
        self.handler = handler
        let server = try HTTPServer(configuration: http, responder: { request in handler.respond(to: request) })
        self.server = server
        if let adminPort {
            var admin = HTTPServer.Configuration(
                host: http.host, port: adminPort, maxBodyBytes: 0, requestTimeoutMs: 5_000, threadPoolSize: 1,
                maxConnections: Self.adminMaxConnections, maxConnectionsPerAddress: 0, shutdownGraceMs: 0)
            admin.headerTimeoutMs = 5_000
            admin.idleTimeoutMs = 10_000
            self.admin = try HTTPServer(configuration: admin, responder: { request in handler.respondToAdmin(request) })
        } else {
            self.admin = nil
        }
        handler.metrics.attachConnectionStatistics { [weak server] in server?.connectionStatistics ?? .init() }
    }

    /// Graceful shutdown: `/readyz` answers 503 at once; new GraphQL requests are served for
    /// the handler's `shutdownDelayMs`, then refused at once with 503; requests in flight get
    /// `HTTPServer.Configuration.shutdownGraceMs` to finish, the rest are answered 503. Returns
    /// once the server has stopped; what it did to the requests it met is in
    /// `handler.metrics.shutdownCounts` (and `/metrics`: `musicgraph_shutdown_requests_total`).
    public func shutdown() async {
        let phase = handler.shutdownPhase
        if phase.current == .serving {
            phase.advance(to: .notReady)
            handler.metrics.shutdownBegan()
            let delay = handler.configuration.shutdownDelayMs
            if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
        }
        phase.advance(to: .refusing)
        await server.shutdown()
        // Last: probes see the 503 of /readyz for as long as the drain lasts.
        await admin?.shutdown()
    }

    /// Serves until the process receives SIGINT or SIGTERM, then shuts down gracefully and
    /// returns the signal's number. Once this runs, those signals no longer kill the process.
    @discardableResult
    public func runUntilSignalled(_ signals: [Int32] = [SIGINT, SIGTERM]) async -> Int32 {
        await runUntilSignalled(TerminationListener(signals))
    }

    /// `runUntilSignalled` with a listener made earlier (before the server's address was
    /// announced, so that no signal sent right after it is lost).
    @discardableResult
    public func runUntilSignalled(_ listener: TerminationListener) async -> Int32 {
        let received = await listener.wait()
        await shutdown()
        return received
    }
}
