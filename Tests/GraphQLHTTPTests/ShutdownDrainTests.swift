import HTTPServer
import Testing

@testable import GraphQLHTTP

/// What a load balancer sees of a shutdown: `/readyz` turns 503 at once, new queries are
/// refused at once (after the pre-stop delay, when one is set), queries in flight finish within
/// the grace or get their 503 when it runs out, never later; the counts say which was which.
@Suite struct ShutdownDrainTests {
    private static let pause = #"{"query":"{ pause(ms: 400) }"}"#
    private static let hello = #"{"query":"{ hello }"}"#

    @Test func readyzTurns503AtOnceAndNewQueriesAreRefusedWhileThoseInFlightFinish() async throws {
        let test = try TestServer(http: HTTPServer.Configuration(shutdownGraceMs: 5_000))
        #expect(try await test.get("/readyz").status == 200)
        let inFlight = (0..<5).map { _ in Task { try await test.post(Self.pause) } }
        while test.server.handler.metrics.requestsInFlight < 5 { try await Task.sleep(for: .milliseconds(2)) }
        let clock = ContinuousClock()
        let stopping = Task { await test.server.shutdown() }
        var readiness = try await test.get("/readyz")
        while readiness.status == 200 { readiness = try await test.get("/readyz") }
        // Not ready while all five still run: the load balancer hears of it first.
        #expect(test.server.handler.metrics.requestsInFlight >= 5)
        #expect(readiness.status == 503)
        #expect(readiness.text == #"{"status":"shutting down"}"#)
        // A new query is refused at once: not run, not made to wait for the drain.
        let asked = clock.now
        let refused = try await test.post(Self.hello)
        #expect(refused.status == 503)
        #expect(refused.text.contains(#""code":"SERVICE_UNAVAILABLE""#), "\(refused.text)")
        #expect(asked.duration(to: clock.now) < .milliseconds(200))
        // /healthz stays 200: the process is alive, only leaving.
        #expect(try await test.get("/healthz").status == 200)
        for request in inFlight {
            let answer = try await request.value
            #expect(answer.status == 200)
            #expect(answer.text.contains(#""pause":"#), "\(answer.text)")
        }
        await stopping.value
        let counts = test.server.handler.metrics.shutdownCounts
        #expect(counts == ShutdownCounts(finished: 5, unfinished: 0, refused: 1))
        let metrics = test.server.handler.metrics.render()
        #expect(metrics.contains(#"musicgraph_shutdown_requests_total{outcome="finished"} 5"#))
        #expect(metrics.contains(#"musicgraph_shutdown_requests_total{outcome="refused"} 1"#))
        #expect(metrics.contains(#"musicgraph_shutdown_requests_total{outcome="unfinished"} 0"#))
    }

    @Test func queriesPastTheGraceAre503AtTheGraceNeverLater() async throws {
        let test = try TestServer(http: HTTPServer.Configuration(shutdownGraceMs: 300))
        let slow = #"{"query":"{ pause(ms: 20000) }"}"#
        let clock = ContinuousClock()
        let inFlight = (0..<3).map { _ in
            Task {
                let answer = try await test.post(slow)
                return (answer, clock.now)
            }
        }
        while test.server.handler.metrics.requestsInFlight < 3 { try await Task.sleep(for: .milliseconds(2)) }
        let began = clock.now
        let stopping = Task { await test.server.shutdown() }
        for request in inFlight {
            let (answer, at) = try await request.value
            #expect(answer.status == 503)
            let waited = began.duration(to: at)
            #expect(waited >= .milliseconds(290) && waited < .milliseconds(800), "\(waited)")
        }
        await stopping.value
        #expect(test.server.handler.metrics.shutdownCounts == ShutdownCounts(finished: 0, unfinished: 3, refused: 0))
    }

    @Test func thePreStopDelayServesNewQueriesThenRefusesThem() async throws {
        let test = try TestServer(
            configure: { $0.shutdownDelayMs = 2_000 }, http: HTTPServer.Configuration(shutdownGraceMs: 2_000))
        // A query that outlasts the grace keeps the server listening until the grace ends.
        let slow = Task { try await test.post(#"{"query":"{ pause(ms: 20000) }"}"#) }
        try await test.waitUntilARequestIsInFlight()
        let clock = ContinuousClock()
        let began = clock.now
        let stopping = Task { await test.server.shutdown() }
        var readiness = try await test.get("/readyz")
        while readiness.status == 200 { readiness = try await test.get("/readyz") }
        // Within the delay: not ready, yet served.
        let served = try await test.post(Self.hello)
        #expect(served.status == 200)
        #expect(served.text.contains(#""hello":"#), "\(served.text)")
        #expect(began.duration(to: clock.now) < .milliseconds(2_000))
        // Then refused, once the delay is over.
        var refused = try await test.post(Self.hello)
        while refused.status == 200 {
            try await Task.sleep(for: .milliseconds(50))
            refused = try await test.post(Self.hello)
        }
        #expect(refused.status == 503)
        #expect(began.duration(to: clock.now) >= .milliseconds(2_000))
        #expect(try await slow.value.status == 503)
        await stopping.value
        let counts = try #require(test.server.handler.metrics.shutdownCounts)
        #expect(counts.finished == 0 && counts.unfinished == 1 && counts.refused == 1, "\(counts)")
    }
}
