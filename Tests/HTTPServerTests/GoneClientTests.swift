import HTTPClient
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// Clients that leave while their handler works, and the answers a shutdown gives: the handler
/// learns why it was cancelled, and every answer a shutdown gives is heard by someone.
@Suite struct GoneClientTests {
    let client = HTTPClient(
        configuration: HTTPClient.Configuration(timeoutMs: 10_000, retry: RetryPolicy(maxTries: 1)))

    /// What a handler that waits until it is cancelled saw.
    final class Seen: Sendable {
        let started = Atomic<Int>(0)
        let cancelled = Atomic<Int>(0)
        let reasons = Mutex<[AbandonReason?]>([])

        func handler(_ request: HTTPRequest) async -> HTTPResponse {
            guard request.path == "/wait" else { return HTTPResponse(status: 200, body: Array("quick".utf8)) }
            started.add(1, ordering: .sequentiallyConsistent)
            do {
                try await Task.sleep(for: .seconds(20))
            } catch {
                cancelled.add(1, ordering: .sequentiallyConsistent)
            }
            reasons.withLock { $0.append(request.abandonment.reason) }
            return HTTPResponse(status: 200)
        }
    }

    @Test func aClientThatClosesItsConnectionCancelsItsHandlerAndNobodyElses() async throws {
        let seen = Seen()
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 100)) { request in
            await seen.handler(request)
        }
        let base = "http://127.0.0.1:\(server.port)"
        let client = self.client
        // Another client's request in flight on its own connection, untouched by the first one.
        let other = Task { try await client.get(base + "/wait") }
        await waitUntil { seen.started.load(ordering: .sequentiallyConsistent) == 1 }
        do {
            let leaving = try HeldSocket(port: server.port)
            leaving.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
            await waitUntil { seen.started.load(ordering: .sequentiallyConsistent) == 2 }
        }  // closed here
        // The watchdog looks every tick (100 ms with the default timeouts).
        await waitUntil { seen.cancelled.load(ordering: .sequentiallyConsistent) == 1 }
        #expect(seen.cancelled.load(ordering: .sequentiallyConsistent) == 1)
        #expect(seen.reasons.withLock { $0 } == [.clientClosed])
        // The server still answers, and the other request is still waiting for its handler.
        #expect(try await client.get(base + "/quick").body == Array("quick".utf8))
        try await Task.sleep(for: .milliseconds(300))
        #expect(seen.cancelled.load(ordering: .sequentiallyConsistent) == 1)
        await server.shutdown()
        // Shutdown answered the other one 503 and said why.
        #expect(try await other.value.status == 503)
        #expect(seen.reasons.withLock { $0 } == [.clientClosed, .shutdown])
    }

    @Test func aPipelinedRequestIsNotAClose() async throws {
        let seen = Seen()
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 100)) { request in
            await seen.handler(request)
        }
        let socket = try HeldSocket(port: server.port)
        // Bytes waiting behind the request being handled are data, not the client's goodbye.
        socket.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\nGET /quick HTTP/1.1\r\nHost: x\r\n\r\n")
        await waitUntil { seen.started.load(ordering: .sequentiallyConsistent) == 1 }
        try await Task.sleep(for: .milliseconds(400))
        #expect(seen.cancelled.load(ordering: .sequentiallyConsistent) == 0)
        await server.shutdown()
        #expect(seen.reasons.withLock { $0 } == [.shutdown])
    }

    @Test func everyAnswerOfAShutdownIsHeardBeforeItReturns() async throws {
        let seen = Seen()
        let heard = Mutex<[(path: String, status: Int)]>([])
        var configuration = HTTPServer.Configuration(shutdownGraceMs: 100)
        configuration.serverAnswered = { request, response in
            heard.withLock { $0.append((request.path, response.status.code)) }
        }
        let server = try HTTPServer(configuration: configuration) { request in await seen.handler(request) }
        let base = "http://127.0.0.1:\(server.port)"
        let client = self.client
        let inFlight = Task { try await client.get(base + "/wait") }
        await waitUntil { seen.started.load(ordering: .sequentiallyConsistent) == 1 }
        // A request whose head is not complete yet: in flight, so the daemon keeps listening for
        // a while after the 503s, but not waiting for a handler.
        let late = try HeldSocket(port: server.port)
        late.send("GET /late HTTP/1.1\r\nHost: x\r\n")
        let stopping = Task { await server.shutdown() }
        // Past the grace the handler is cancelled; the head completed now is answered 503 by the
        // server alone (no handler runs for it), and the configuration hears of it.
        await waitUntil { seen.cancelled.load(ordering: .sequentiallyConsistent) == 1 }
        late.send("\r\n")
        let lateAnswer = await late.readResponse(timeoutMs: 5_000)
        await stopping.value
        // The cancelled handler returned (and could log its 503) before shutdown did.
        #expect(seen.reasons.withLock { $0 } == [.shutdown])
        #expect(try await inFlight.value.status == 503)
        #expect(lateAnswer.hasPrefix("HTTP/1.1 503"))
        #expect(heard.withLock { $0.map(\.path) } == ["/late"])
        #expect(heard.withLock { $0.map(\.status) } == [503])
    }
}
