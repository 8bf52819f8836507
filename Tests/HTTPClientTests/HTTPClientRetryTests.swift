import HTTPServer
import Synchronization
import TestSupport
import Testing

@testable import HTTPClient

/// Retries as the server sees them: how many requests arrived, and what the caller got back.
@Suite struct HTTPClientRetryTests {
    @Test func a503IsTriedThreeTimesThenReturned() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 503, contentType: "text/plain", body: "busy") }
        let response = try await fastRetryClient().get(server.url("/busy"))
        #expect(response.status == 503)
        #expect(response.tries == 3)
        #expect(String(decoding: response.body, as: UTF8.self) == "busy")
        #expect(server.requestCount == 3)
        await server.shutdown()
    }

    @Test func failuresReportHowManyTimesTheyWereSent() async throws {
        let server = try LoopbackServer { _, _ in
            try? await Task.sleep(for: .seconds(5))
            return HTTPResponse(status: 200)
        }
        let (result, tries) = await fastRetryClient(maxTries: 2, timeoutMs: 100).executeCountingTries(
            HTTPClientRequest(method: "GET", url: server.url("/slow")))
        #expect(tries == 2)
        #expect(result.map(\.status) == .failure(.timedOut(url: server.url("/slow"), afterMs: 100)))
        await server.shutdown()
    }

    @Test func aRetryTheCallerDoesNotAdmitIsNotSent() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 503, contentType: "text/plain", body: "busy") }
        let asked = Mutex(0)
        // Admits the first retry only: the third try is never sent, the second's 503 is the answer.
        let (result, tries) = await fastRetryClient(maxTries: 5).executeCountingTries(
            HTTPClientRequest(method: "GET", url: server.url("/busy")),
            admitRetry: {
                asked.withLock { n in
                    n += 1
                    return n == 1
                }
            })
        #expect(tries == 2)
        #expect(result.map(\.status.code) == .success(503))
        #expect(result.map(\.tries) == .success(2))
        #expect(asked.withLock { $0 } == 2)
        #expect(server.requestCount == 2)
        await server.shutdown()
    }

    @Test func aRecoveredServerEndsTheRetries() async throws {
        let server = try LoopbackServer { _, number in
            number == 1 ? HTTPResponse(status: 502) : HTTPResponse(status: 200, contentType: "text/plain", body: "ok")
        }
        let response = try await fastRetryClient(maxTries: 5).get(server.url("/flaky"))
        #expect(response.status == 200)
        #expect(response.tries == 2)
        #expect(server.requestCount == 2)
        await server.shutdown()
    }

    @Test func retriesAreConfigurable() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 500) }
        let once = try await fastRetryClient(maxTries: 1).get(server.url("/"))
        #expect(once.tries == 1)
        let five = try await fastRetryClient(maxTries: 5).get(server.url("/"))
        #expect(five.tries == 5)
        #expect(server.requestCount == 6)
        await server.shutdown()
    }

    @Test func a429WaitsTheRetryAfterSeconds() async throws {
        let server = try LoopbackServer { _, number in
            number == 1
                ? HTTPResponse(status: 429, headers: ["Retry-After": "1"])
                : HTTPResponse(status: 200, contentType: "text/plain", body: "now")
        }
        let (response, elapsedMs) = try await measureMs { try await fastRetryClient().get(server.url("/quota")) }
        #expect(response.status == 200)
        #expect(response.tries == 2)
        #expect(server.requestCount == 2)
        #expect(elapsedMs >= 1_000)
        #expect(elapsedMs < 1_000 + stallTolerantBoundMs)
        await server.shutdown()
    }

    @Test func aRetryAfterBeyondTheLimitReturnsTheResponse() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 429, headers: ["Retry-After": "3600"]) }
        let (response, elapsedMs) = try await measureMs { try await fastRetryClient().get(server.url("/quota")) }
        #expect(response.status == 429)
        #expect(response.tries == 1)
        #expect(elapsedMs < stallTolerantBoundMs)  // waiting out Retry-After would take an hour
        await server.shutdown()
    }

    @Test func aRetryAfterBeyondTheDeadlineReturnsTheResponse() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 503, headers: ["Retry-After": "30"]) }
        let client = HTTPClient(configuration: HTTPClient.Configuration(retry: RetryPolicy(maxRetryAfterMs: 60_000)))
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(stallTolerantBoundMs))
        let (response, elapsedMs) = try await measureMs {
            try await client.get(server.url("/down"), deadline: deadline)
        }
        #expect(response.status == 503)
        #expect(response.tries == 1)
        #expect(elapsedMs < stallTolerantBoundMs)  // honouring Retry-After would take 30 s
        await server.shutdown()
    }

    @Test func postIsNotRetried() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 503) }
        let response = try await fastRetryClient().post(server.url("/mutate"), body: Array("x".utf8))
        #expect(response.status == 503)
        #expect(response.tries == 1)
        #expect(server.requestCount == 1)
        await server.shutdown()
    }

    @Test func anIdempotentPostIsRetried() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 503) }
        let request = HTTPClientRequest(method: "POST", url: server.url("/graphql"), body: [1], isIdempotent: true)
        let response = try await fastRetryClient().execute(request)
        #expect(response.tries == 3)
        #expect(server.requestCount == 3)
        await server.shutdown()
    }

    @Test func clientErrorsAreNotRetried() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 404) }
        let response = try await fastRetryClient().get(server.url("/missing"))
        #expect(response.tries == 1)
        #expect(server.requestCount == 1)
        await server.shutdown()
    }

    @Test func timeoutsAreRetried() async throws {
        let server = try LoopbackServer { _, number in
            if number == 1 { try? await Task.sleep(for: .seconds(10)) }
            return HTTPResponse(status: 200, contentType: "text/plain", body: "second")
        }
        let (response, elapsedMs) = try await measureMs {
            try await fastRetryClient(timeoutMs: 1_000).get(server.url("/slow-once"))
        }
        #expect(response.tries == 2)
        #expect(String(decoding: response.body, as: UTF8.self) == "second")
        #expect(elapsedMs >= 1_000)
        #expect(elapsedMs < 1_000 + stallTolerantBoundMs)  // the first try's handler would take 10 s
        await server.shutdown()
    }

    @Test func connectionRefusedIsRetriedThenReported() async throws {
        let port = try await closedPort()
        let error = await failure { () async throws(HTTPClientError) in
            try await fastRetryClient().get("http://127.0.0.1:\(port)/nothing")
        }
        guard case .connectFailed(let url, _) = error else {
            Issue.record("expected connectFailed, got \(String(describing: error))")
            return
        }
        #expect(url == "http://127.0.0.1:\(port)/nothing")
        #expect(error?.code == "CONNECT_FAILED")
    }
}
