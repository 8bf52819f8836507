import Glibc
import GraphQL
import HTTPServer

/// A `GraphQLHTTPHandler` served over HTTP/1.1 by `HTTPServer` (libmicrohttpd).
///
/// Listens from `init` until `shutdown()`, which stops accepting connections, lets requests in
/// flight finish (up to `HTTPServer.Configuration.shutdownGraceMs`) and answers the rest 503.
/// `runUntilSignalled()` serves until SIGINT or SIGTERM, then shuts down gracefully.
public final class GraphQLHTTPServer: Sendable {
    public let handler: GraphQLHTTPHandler
    private let server: HTTPServer

    /// The TCP port the server listens on (the ephemeral one when the configured port is 0).
    public var port: Int { server.port }

    /// Starts listening.
    ///
    /// The HTTP server gets the handler's body limit, and hands a longer body (dropped, not
    /// read) to the handler, which answers it 413 as a GraphQL response, logs and counts it. Its own per-request deadline is turned off: the handler answers 504 at
    /// `requestTimeoutMs` itself, through one shared `DeadlineScheduler`, whereas the HTTP
    /// server's deadline costs a sleeping task per request whose timer outlives the request on
    /// Linux (see `DeadlineScheduler`), which under load cost tens of MB of RSS and ~10% of
    /// throughput in bench/http-gateway.sh.
    /// - Throws: `HTTPServerError` when the address is invalid or the port cannot be bound.
    public init(handler: GraphQLHTTPHandler, http: HTTPServer.Configuration = HTTPServer.Configuration())
        throws(HTTPServerError)
    {
        var http = http
        http.maxBodyBytes = handler.configuration.maxBodyBytes
        http.requestTimeoutMs = 0
        http.handlerAnswersOversizedBodies = true
        // The 503s a shutdown gives without calling the handler are logged and counted too.
        http.serverAnswered = { request, response in handler.recordServerAnswer(request, response: response) }
        // Its body is a GraphQL error (`SERVICE_UNAVAILABLE`) in `application/json`, which every
        // GraphQL-over-HTTP client reads: the request's Accept header is not at hand there.
        http.shutdownResponse = GraphQLResponseWriter.failure(.shutDown, media: .json)
        self.handler = handler
        let server = try HTTPServer(configuration: http, responder: { request in handler.respond(to: request) })
        self.server = server
        handler.metrics.attachConnectionStatistics { [weak server] in server?.connectionStatistics ?? .init() }
    }

    /// Graceful shutdown: see the type's documentation. Returns once the server has stopped.
    public func shutdown() async {
        await server.shutdown()
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
