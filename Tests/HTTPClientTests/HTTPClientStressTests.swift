import HTTPServer
import TestSupport
import Testing

@testable import HTTPClient

/// Races between answers, cancellations, client timeouts and shutdown: every call must end
/// exactly once with a response or the matching error, and the server must still stop.
@Suite struct HTTPClientStressTests {
    @Test func cancellationsAtRandomMomentsEachEndOnce() async throws {
        let server = try LoopbackServer { request, _ in
            try? await Task.sleep(for: .milliseconds(Int(request.queryValue("sleep") ?? "0") ?? 0))
            return HTTPResponse(status: 200)
        }
        let client = fastRetryClient(perHost: 16)
        var generator = SystemRandomNumberGenerator()
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                let url = server.url("/?sleep=\(Int.random(in: 0...15, using: &generator))")
                // Every other call is left alone, as a control that must succeed.
                let cancelAfterMs = index.isMultiple(of: 2) ? nil : Int.random(in: 0...15, using: &generator)
                group.addTask {
                    let call = Task { await failure { () async throws(HTTPClientError) in try await client.get(url) } }
                    if let cancelAfterMs {
                        try? await Task.sleep(for: .milliseconds(cancelAfterMs))
                        call.cancel()
                    }
                    switch await call.value {
                    case nil: return "ok"
                    case .cancelled(let cancelledURL)? where cancelledURL == url && cancelAfterMs != nil:
                        return "cancelled"
                    case let other?: return "unexpected \(other)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes.keys.allSatisfy { $0 == "ok" || $0 == "cancelled" }, "\(outcomes)")
        #expect(outcomes.values.reduce(0, +) == 200)
        #expect(outcomes["ok", default: 0] >= 100)
        await server.shutdown()
    }

    @Test func clientsThatGiveUpDoNotWedgeShutdown() async throws {
        let server = try LoopbackServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 50)) { _, _ in
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: 200)
        }
        let client = fastRetryClient(maxTries: 1, timeoutMs: 20, perHost: 50)
        let errors = await withTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await failure { () async throws(HTTPClientError) in try await client.get(server.url("/slow")) }?
                        .code ?? "ok"
                }
            }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(errors == ["TIMED_OUT"])
        // The server still holds 50 suspended connections whose clients are gone.
        let (_, shutdownMs) = await measureMs { await server.shutdown() }
        #expect(shutdownMs < stallTolerantBoundMs)  // the handlers would take 10 s
    }
}
