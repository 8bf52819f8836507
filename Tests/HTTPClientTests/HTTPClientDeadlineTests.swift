import HTTPServer
import TestSupport
import Testing

@testable import HTTPClient

/// Timeouts, deadlines and cancellation: each bounded in wall-clock time.
@Suite struct HTTPClientDeadlineTests {
    @Test func aSlowServerTimesOut() async throws {
        let server = try LoopbackServer { _, _ in
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: 200)
        }
        let (error, elapsedMs) = await measureMs {
            await failure { () async throws(HTTPClientError) in
                try await fastRetryClient(maxTries: 1, timeoutMs: 100).get(server.url("/slow"))
            }
        }
        #expect(error == .timedOut(url: server.url("/slow"), afterMs: 100))
        #expect(elapsedMs >= 100)
        #expect(elapsedMs < stallTolerantBoundMs)  // the handler would take 10 s
        await server.shutdown()
    }

    @Test func theDeadlineBoundsEveryTryAndWait() async throws {
        let server = try LoopbackServer { _, _ in
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: 200)
        }
        // Fifty tries of 150 ms each would take 7.5 s; the deadline cuts the total at 250 ms.
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(250))
        let (error, elapsedMs) = await measureMs {
            await failure { () async throws(HTTPClientError) in
                try await fastRetryClient(maxTries: 50, timeoutMs: 150).get(server.url("/slow"), deadline: deadline)
            }
        }
        #expect(error == .deadlineExceeded(url: server.url("/slow")))
        #expect(elapsedMs >= 240)
        #expect(elapsedMs < stallTolerantBoundMs)
        await server.shutdown()
    }

    @Test func aPassedDeadlineSendsNothing() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 200) }
        let error = await failure { () async throws(HTTPClientError) in
            try await fastRetryClient().get(
                server.url("/"), deadline: ContinuousClock.now.advanced(by: .milliseconds(-1)))
        }
        #expect(error == .deadlineExceeded(url: server.url("/")))
        #expect(server.requestCount == 0)
        await server.shutdown()
    }

    @Test func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try LoopbackServer { _, _ in
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: 200)
        }
        let client = fastRetryClient()
        let url = server.url("/slow")
        let task = Task { () async -> HTTPClientError? in
            await failure { () async throws(HTTPClientError) in try await client.get(url) }
        }
        await server.waitForRequests(1)
        let (error, elapsedMs) = await measureMs {
            task.cancel()
            return await task.value
        }
        #expect(error == .cancelled(url: url))
        #expect(elapsedMs < stallTolerantBoundMs)  // the handler would take 10 s
        #expect(server.requestCount == 1)
        await server.shutdown()
    }

    @Test func aTaskCancelledBeforehandSendsNothing() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 200) }
        let client = fastRetryClient()
        let url = server.url("/")
        let task = Task { () async -> HTTPClientError? in
            // Wait until cancelled, so the call starts in a cancelled task.
            while !Task.isCancelled { await Task.yield() }
            return await failure { () async throws(HTTPClientError) in try await client.get(url) }
        }
        task.cancel()
        #expect(await task.value == .cancelled(url: url))
        #expect(server.requestCount == 0)
        await server.shutdown()
    }

    @Test func cancellationDuringBackoffStopsRetrying() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 503, headers: ["Retry-After": "1"]) }
        let client = fastRetryClient()
        let url = server.url("/down")
        let task = Task { () async -> HTTPClientError? in
            await failure { () async throws(HTTPClientError) in try await client.get(url) }
        }
        await server.waitForRequests(1)
        try await Task.sleep(for: .milliseconds(20))  // into the Retry-After wait
        task.cancel()
        #expect(await task.value == .cancelled(url: url))
        #expect(server.requestCount == 1)
        await server.shutdown()
    }
}
