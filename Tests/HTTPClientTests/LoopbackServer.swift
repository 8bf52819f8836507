import HTTPClient
import HTTPServer
import Synchronization
import TestSupport

/// An `HTTPServer` on an ephemeral 127.0.0.1 port that counts the requests it gets and the most
/// it handled at once, for asserting what the client really sent.
final class LoopbackServer: Sendable {
    let server: HTTPServer
    private let stats: Stats

    final class Stats: Sendable {
        let requests = Atomic<Int>(0)
        let inFlight = Atomic<Int>(0)
        let maxInFlight = Atomic<Int>(0)
    }

    init(
        configuration: HTTPServer.Configuration = HTTPServer.Configuration(shutdownGraceMs: 50),
        handler: @escaping @Sendable (HTTPRequest, Int) async -> HTTPResponse
    ) throws {
        let stats = Stats()
        self.stats = stats
        server = try HTTPServer(configuration: configuration) { request in
            let number = stats.requests.add(1, ordering: .relaxed).newValue
            let current = stats.inFlight.add(1, ordering: .relaxed).newValue
            stats.maxInFlight.max(current, ordering: .relaxed)
            defer { stats.inFlight.subtract(1, ordering: .relaxed) }
            return await handler(request, number)
        }
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(server.port)\(path)"
    }

    var requestCount: Int { stats.requests.load(ordering: .relaxed) }
    var maxInFlight: Int { stats.maxInFlight.load(ordering: .relaxed) }

    func shutdown() async {
        await server.shutdown()
    }
}

/// A client whose retries wait 1–2 ms, so retry tests stay fast. The 10 s default timeout rides
/// out a test process whose cooperative threads are briefly all blocked by another suite.
func fastRetryClient(
    maxTries: Int = 3, timeoutMs: Int = 10_000, maxResponseBytes: Int = 1 << 20, perHost: Int = 32
) -> HTTPClient {
    HTTPClient(
        configuration: HTTPClient.Configuration(
            connectTimeoutMs: 1_000, timeoutMs: timeoutMs, maxResponseBytes: maxResponseBytes,
            maxConcurrentRequestsPerHost: perHost,
            retry: RetryPolicy(maxTries: maxTries, baseBackoffMs: 2, maxBackoffMs: 2, maxRetryAfterMs: 1_500)))
}

/// A port nothing listens on: bound by a server that is then shut down.
func closedPort() async throws -> Int {
    let server = try HTTPServer { _ in HTTPResponse(status: 200) }
    let port = server.port
    await server.shutdown()
    return port
}

extension LoopbackServer {
    /// Waits (2 s at most) until the server has received `count` requests.
    func waitForRequests(_ count: Int) async {
        await waitUntil { requestCount >= count }
    }
}
