import HTTPServer
import TestSupport
import Testing

@testable import HTTPClient

/// The response-size cap and the per-host cap on transfers in flight.
@Suite struct HTTPClientLimitTests {
    @Test func aBodyOverTheCapIsRefused() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 200, body: [UInt8](repeating: 65, count: 50_000))
        }
        let error = await failure { () async throws(HTTPClientError) in
            try await fastRetryClient(maxResponseBytes: 10_000).get(server.url("/big"))
        }
        #expect(error == .responseTooLarge(url: server.url("/big"), limitBytes: 10_000))
        #expect(server.requestCount == 1)
        await server.shutdown()
    }

    @Test func theCapAppliesToTheDecodedBody() async throws {
        // 132 bytes on the wire, 100,000 once gunzipped: only the write callback can catch it.
        let server = try LoopbackServer { _, _ in
            HTTPResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: GzipSamples.hundredThousandZeros)
        }
        let error = await failure { () async throws(HTTPClientError) in
            try await fastRetryClient(maxResponseBytes: 10_000).get(server.url("/bomb"))
        }
        #expect(error == .responseTooLarge(url: server.url("/bomb"), limitBytes: 10_000))
        let whole = try await fastRetryClient(maxResponseBytes: 100_000).get(server.url("/bomb"))
        #expect(whole.body == [UInt8](repeating: 0, count: 100_000))
        await server.shutdown()
    }

    /// Calls take the transfer threads in turn, so a burst goes out on all of them at once.
    @Test func callsAreSpreadOverTheTransferThreads() async throws {
        let server = try LoopbackServer { _, _ in HTTPResponse(status: 200, body: Array("ok".utf8)) }
        let client = HTTPClient(configuration: HTTPClient.Configuration(transferThreads: 3))
        #expect(client.loops.count == 3)
        for _ in 0..<6 {
            #expect(try await client.get(server.url("/x")).status == 200)
        }
        #expect(client.loops.map(\.started) == [2, 2, 2])
        #expect(HTTPClient.Configuration().transferThreads == 2)
        #expect(server.requestCount == 6)
        await server.shutdown()
    }

    @Test func transfersInFlightPerHostAreCapped() async throws {
        let server = try LoopbackServer { _, _ in
            try? await Task.sleep(for: .milliseconds(30))
            return HTTPResponse(status: 200)
        }
        let client = fastRetryClient(perHost: 3)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 {
                group.addTask { try await client.get(server.url("/")).status.code }
            }
            for try await status in group {
                #expect(status == 200)
            }
        }
        #expect(server.requestCount == 12)
        #expect(server.maxInFlight == 3)
        await server.shutdown()
    }

    @Test func waitingInLineRespectsTheDeadline() async throws {
        let server = try LoopbackServer { _, _ in
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: 200)
        }
        let client = fastRetryClient(perHost: 1)
        let first = Task { try await client.get(server.url("/first")).status }
        await server.waitForRequests(1)
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(100))
        let (error, elapsedMs) = await measureMs {
            await failure { () async throws(HTTPClientError) in
                try await client.get(server.url("/second"), deadline: deadline)
            }
        }
        #expect(error == .deadlineExceeded(url: server.url("/second")))
        #expect(elapsedMs >= 100)
        #expect(elapsedMs < stallTolerantBoundMs)  // the slot frees only after 10 s
        #expect(server.requestCount == 1)
        first.cancel()
        await server.shutdown()
    }

}
