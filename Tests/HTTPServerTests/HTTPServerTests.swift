import Glibc
import HTTPClient
import HTTPTypes
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

/// The server over real loopback HTTP, driven by our HTTPClient (and raw sockets where the client
/// cannot say what the test needs).
@Suite struct HTTPServerTests {
    let client = HTTPClient(
        configuration: HTTPClient.Configuration(timeoutMs: 10_000, retry: RetryPolicy(maxTries: 1)))

    @Test func bindsAnEphemeralPort() async throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 204) }
        #expect(server.configuration.port == 0)
        #expect(server.port > 0)
        let response = try await client.get("http://127.0.0.1:\(server.port)/")
        #expect(response.status == 204)
        await server.shutdown()
    }

    @Test func refusesAHostThatIsNoAddress() {
        #expect(throws: HTTPServerError.invalidHost("example.org")) {
            try HTTPServer(configuration: HTTPServer.Configuration(host: "example.org")) { _ in
                HTTPResponse(status: 200)
            }
        }
    }

    @Test func refusesATakenPort() async throws {
        let first = try HTTPServer { _ in HTTPResponse(status: 200) }
        #expect(throws: HTTPServerError.startFailed(host: "127.0.0.1", port: first.port)) {
            try HTTPServer(configuration: HTTPServer.Configuration(port: first.port)) { _ in HTTPResponse(status: 200) }
        }
        await first.shutdown()
    }

    @Test func theHandlerSeesTheWholeRequest() async throws {
        let seen = Mutex<HTTPRequest?>(nil)
        let server = try HTTPServer { request in
            seen.withLock { $0 = request }
            return HTTPResponse(status: 200, headers: ["X-Multi": "a", "x-multi": "b"], body: Array("ok".utf8))
        }
        let response = try await client.post(
            "http://127.0.0.1:\(server.port)/api/v1/a%20b?x=1&y=%C3%A9t%C3%A9&x=2+3",
            headers: ["Content-Type": "application/json", "X-Repeated": "one", "x-repeated": "two"],
            body: Array("{}".utf8))
        #expect(response.status == 200)
        #expect(response.headers.values(for: "X-MULTI") == ["a", "b"])
        let request = try #require(seen.withLock { $0 })
        #expect(request.method == "POST")
        #expect(request.path == "/api/v1/a b")
        #expect(request.rawQuery == "x=1&y=%C3%A9t%C3%A9&x=2+3")
        #expect(
            request.queryItems == [
                HTTPQueryItem(name: "x", value: "1"), HTTPQueryItem(name: "y", value: "été"),
                HTTPQueryItem(name: "x", value: "2 3"),
            ])
        #expect(request.queryValue("x") == "1")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers.values(for: "X-Repeated") == ["one", "two"])
        #expect(request.headers["Host"] == "127.0.0.1:\(server.port)")
        #expect(request.body == Array("{}".utf8))
        await server.shutdown()
    }

    @Test func aBodyOverTheCapIsAnswered413WithoutTheHandler() async throws {
        let calls = Atomic<Int>(0)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(maxBodyBytes: 1_000)) { request in
            calls.add(1, ordering: .relaxed)
            return HTTPResponse(status: 200, body: Array("\(request.body.count)".utf8))
        }
        let url = "http://127.0.0.1:\(server.port)/graphql"
        let atLimit = try await client.post(url, body: [UInt8](repeating: 1, count: 1_000))
        #expect(atLimit.status == 200)
        #expect(atLimit.body == Array("1000".utf8))
        let over = try await client.post(url, body: [UInt8](repeating: 1, count: 1_001))
        #expect(over.status == 413)
        #expect(String(decoding: over.body, as: UTF8.self) == "request body larger than 1000 bytes\n")
        let callCount = calls.load(ordering: .relaxed)
        #expect(callCount == 1)
        await server.shutdown()
    }

    @Test func aResponderAnswersNowWithoutWorkOrLaterThroughIt() async throws {
        let handlerCalls = Atomic<Int>(0)
        let server = try HTTPServer(responder: { request in
            guard request.path != "/now" else { return .now(HTTPResponse(status: 200, body: Array("now".utf8))) }
            return .later {
                handlerCalls.add(1, ordering: .relaxed)
                try? await Task.sleep(for: .milliseconds(5))
                return HTTPResponse(status: 200, body: Array("later".utf8))
            }
        })
        let base = "http://127.0.0.1:\(server.port)"
        #expect(try await client.get(base + "/now").body == Array("now".utf8))
        #expect(handlerCalls.load(ordering: .relaxed) == 0)
        #expect(try await client.get(base + "/later").body == Array("later".utf8))
        #expect(handlerCalls.load(ordering: .relaxed) == 1)
        await server.shutdown()
    }

    @Test func anOptedInHandlerAnswersOversizedBodiesItself() async throws {
        let seen = Mutex<[(Bool, Int)]>([])
        let server = try HTTPServer(
            configuration: HTTPServer.Configuration(maxBodyBytes: 10, handlerAnswersOversizedBodies: true)
        ) { request in
            seen.withLock { $0.append((request.bodyExceededLimit, request.body.count)) }
            return HTTPResponse(status: request.bodyExceededLimit ? 413 : 200, body: Array("mine".utf8))
        }
        let url = "http://127.0.0.1:\(server.port)/x"
        let announced = try await client.post(url, body: [UInt8](repeating: 1, count: 11))
        #expect(announced.status == 413)
        #expect(announced.body == Array("mine".utf8))
        let chunked = try await RawHTTPConnection.exchange(
            port: server.port,
            request: "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "6\r\nhello,\r\n6\r\n world\r\n0\r\n\r\n")
        #expect(chunked.hasPrefix("HTTP/1.1 413 "))
        #expect(chunked.hasSuffix("\r\n\r\nmine"))
        let fits = try await client.post(url, body: [UInt8](repeating: 1, count: 10))
        #expect(fits.status == 200)
        let calls = seen.withLock { $0.map { "\($0.0) \($0.1)" } }
        #expect(calls == ["true 0", "true 0", "false 10"])
        await server.shutdown()
    }

    @Test func aChunkedBodyOverTheCapIsAnswered413() async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(maxBodyBytes: 10)) { request in
            HTTPResponse(status: 200, body: request.body)
        }
        let small = try await RawHTTPConnection.exchange(
            port: server.port,
            request: "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "5\r\nhello\r\n5\r\nworld\r\n0\r\n\r\n")
        #expect(small.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(small.hasSuffix("\r\n\r\nhelloworld"))
        let large = try await RawHTTPConnection.exchange(
            port: server.port,
            request: "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "6\r\nhello,\r\n6\r\n world\r\n0\r\n\r\n")
        #expect(
            large.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n")
                || large.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"))
        #expect(large.hasSuffix("\r\n\r\nrequest body larger than 10 bytes\n"))
        await server.shutdown()
    }

    /// A handler that never suspends runs on libmicrohttpd's polling thread and is answered in
    /// the same access handler call (no hop to Swift's pool, no suspend and resume); one that
    /// suspends is answered after the resume, and both mix on one keep-alive connection.
    @Test func aHandlerThatNeverSuspendsIsAnsweredOnThePollingThread() async throws {
        let server = try HTTPServer(configuration: HTTPServer.Configuration(requestTimeoutMs: 5_000)) { request in
            if request.path == "/later" {
                try? await Task.sleep(for: .milliseconds(5))
                return HTTPResponse(status: 200, contentType: "text/plain", body: "later")
            }
            return HTTPResponse(status: 200, contentType: "text/plain", body: Self.currentThreadName())
        }
        for path in ["/now", "/later", "/now", "/later"] {
            let response = try await client.get("http://127.0.0.1:\(server.port)\(path)")
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == (path == "/now" ? "MHD-worker" : "later"))
        }
        await server.shutdown()
    }

    /// The calling thread's name, from /proc (Glibc does not import pthread_getname_np).
    static func currentThreadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        guard fd >= 0 else { return "?" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &bytes, bytes.count)
        let text = bytes.prefix(max(count, 0)).prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: text, as: UTF8.self)
    }

    @Test func aSlowHandlerIsAnswered503AtTheDeadlineAndCancelled() async throws {
        let handlerCancelled = Atomic<Bool>(false)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(requestTimeoutMs: 100)) { _ in
            do {
                try await Task.sleep(for: .seconds(10))
            } catch {
                handlerCancelled.store(true, ordering: .relaxed)
            }
            return HTTPResponse(status: 200)
        }
        let (response, elapsedMs) = try await measureMs { try await client.get("http://127.0.0.1:\(server.port)/slow") }
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self) == "request not answered within 100 ms\n")
        #expect(elapsedMs >= 100)
        #expect(elapsedMs < stallTolerantBoundMs)  // the handler would take 10 s
        try await Task.sleep(for: .milliseconds(50))
        let wasCancelled = handlerCancelled.load(ordering: .relaxed)
        #expect(wasCancelled)
        await server.shutdown()
    }

    /// A delayed answer is sent once its delay has passed, by the server itself (no handler task).
    @Test func aDelayedAnswerIsSentAfterItsDelay() async throws {
        let server = try HTTPServer(responder: { request in
            .delayed(HTTPResponse(status: 200, body: Array("late \(request.path)".utf8)), by: .milliseconds(150))
        })
        let base = "http://127.0.0.1:\(server.port)"
        let client = self.client
        let (response, elapsedMs) = try await measureMs { try await client.get(base + "/a") }
        #expect(response.status == 200)
        #expect(response.body == Array("late /a".utf8))
        #expect(elapsedMs >= 150)
        #expect(elapsedMs < stallTolerantBoundMs)
        // Many at once, each answered once, and none left in flight for the shutdown to wait for.
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<150 {
                group.addTask { String(decoding: try await client.get(base + "/\(index % 3)").body, as: UTF8.self) }
            }
            return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(bodies == ["late /0": 50, "late /1": 50, "late /2": 50])
        #expect(server.state.deadlines.pending == 0)
        let (_, shutdownMs) = await measureMs { await server.shutdown() }
        #expect(shutdownMs < 1_000)
    }

    @Test func aDelayPastTheRequestDeadlineIsAnswered503AtTheDeadline() async throws {
        let server = try HTTPServer(
            configuration: HTTPServer.Configuration(requestTimeoutMs: 100),
            responder: { _ in .delayed(HTTPResponse(status: 200), by: .seconds(10)) })
        let (response, elapsedMs) = try await measureMs { try await client.get("http://127.0.0.1:\(server.port)/") }
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self) == "request not answered within 100 ms\n")
        #expect(elapsedMs >= 100)
        #expect(elapsedMs < stallTolerantBoundMs)
        await server.shutdown()
    }

    /// A deadline too far away to count in nanoseconds is no deadline at all, not one that wraps
    /// around to the past and answers 503 at once.
    @Test func anAbsurdlyLongDeadlineNeverFires() async throws {
        let server = try HTTPServer(
            configuration: HTTPServer.Configuration(requestTimeoutMs: 18_446_744_073_710),
            responder: { request in
                guard request.path == "/later" else {
                    return .delayed(HTTPResponse(status: 200), by: .milliseconds(50))
                }
                return .later {
                    try? await Task.sleep(for: .milliseconds(50))
                    return HTTPResponse(status: 200)
                }
            })
        #expect(try await client.get("http://127.0.0.1:\(server.port)/later").status == 200)
        #expect(try await client.get("http://127.0.0.1:\(server.port)/delayed").status == 200)
        await server.shutdown()
    }

    @Test func shutdownAnswersDelayedAnswers503WhenTheGraceRunsOut() async throws {
        let server = try HTTPServer(
            configuration: HTTPServer.Configuration(shutdownGraceMs: 100),
            responder: { _ in .delayed(HTTPResponse(status: 200), by: .seconds(10)) })
        let url = "http://127.0.0.1:\(server.port)/held"
        let client = self.client
        let inFlight = Task { try await client.get(url) }
        await waitUntil { server.state.activeRequests == 1 }
        let (_, shutdownMs) = await measureMs { await server.shutdown() }
        let response = try await inFlight.value
        #expect(response.status == 503)
        #expect(shutdownMs < stallTolerantBoundMs)  // the answer was 10 s away
    }

    @Test func answersNowAndLaterLeaveNothingInFlightForShutdown() async throws {
        // Shutdown waits its grace (5 s) for any request still counted in flight: a count left
        // behind by either path would show as a slow shutdown.
        let server = try HTTPServer(responder: { request in
            guard request.path == "/later" else { return .now(HTTPResponse(status: 200, body: Array("now".utf8))) }
            return .later {
                try? await Task.sleep(for: .milliseconds(2))
                return HTTPResponse(status: 200, body: Array("later".utf8))
            }
        })
        let base = "http://127.0.0.1:\(server.port)"
        let client = self.client
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask {
                    String(
                        decoding: try await client.get(base + (index % 2 == 0 ? "/now" : "/later")).body, as: UTF8.self)
                }
            }
            return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(bodies == ["now": 100, "later": 100])
        let (_, shutdownMs) = await measureMs { await server.shutdown() }
        #expect(shutdownMs < 1_000)
    }

    @Test func shutdownLetsRequestsInFlightFinish() async throws {
        let started = Atomic<Bool>(false)
        let server = try HTTPServer { _ in
            started.store(true, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .milliseconds(200))
            return HTTPResponse(status: 200, contentType: "text/plain", body: "finished")
        }
        let url = "http://127.0.0.1:\(server.port)/work"
        let client = self.client
        let inFlight = Task { try await client.get(url) }
        await waitUntil { started.load(ordering: .sequentiallyConsistent) }
        await server.shutdown()
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "finished")
        let afterwards = await failure { () async throws(HTTPClientError) in try await client.get(url) }
        #expect(afterwards?.code == "CONNECT_FAILED")
    }

    @Test func requestsArrivingDuringTheGraceAreAnsweredAndCloseTheirConnection() async throws {
        let started = Atomic<Bool>(false)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 3_000)) { request in
            guard request.path == "/slow" else { return HTTPResponse(status: 200, body: Array("quick".utf8)) }
            started.store(true, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .milliseconds(1_500))
            return HTTPResponse(status: 200, body: Array("slow".utf8))
        }
        let base = "http://127.0.0.1:\(server.port)"
        let client = self.client
        let inFlight = Task { try await client.get(base + "/slow") }
        await waitUntil { started.load(ordering: .sequentiallyConsistent) }
        let stopping = Task { await server.shutdown() }
        try await Task.sleep(for: .milliseconds(200))
        // A new client during the grace: answered at once, not left in the backlog, and told to
        // close its connection.
        let (response, elapsedMs) = try await measureMs { try await client.get(base + "/quick") }
        #expect(response.status == 200)
        #expect(response.body == Array("quick".utf8))
        #expect(response.headers["Connection"] == "close")
        #expect(elapsedMs < 1_000)
        let slow = try await inFlight.value
        #expect(slow.body == Array("slow".utf8))
        #expect(slow.headers["Connection"] == "close")
        await stopping.value
        let afterwards = await failure { () async throws(HTTPClientError) in try await client.get(base + "/quick") }
        #expect(afterwards?.code == "CONNECT_FAILED")
    }

    @Test func shutdownAnswers503WhenTheGraceRunsOut() async throws {
        let started = Atomic<Bool>(false)
        let server = try HTTPServer(configuration: HTTPServer.Configuration(shutdownGraceMs: 100)) { _ in
            started.store(true, ordering: .sequentiallyConsistent)
            try? await Task.sleep(for: .seconds(10))
            return HTTPResponse(status: 200)
        }
        let url = "http://127.0.0.1:\(server.port)/stuck"
        let client = self.client
        let inFlight = Task { try await client.get(url) }
        await waitUntil { started.load(ordering: .sequentiallyConsistent) }
        let (_, shutdownMs) = await measureMs { await server.shutdown() }
        let response = try await inFlight.value
        #expect(response.status == 503)
        #expect(String(decoding: response.body, as: UTF8.self) == "server shutting down\n")
        #expect(shutdownMs >= 100)
        #expect(shutdownMs < stallTolerantBoundMs)  // the handler would take 10 s
    }

    @Test func anImpossibleStatusBecomes500() async throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 42) }
        #expect(try await client.get("http://127.0.0.1:\(server.port)/").status == 500)
        await server.shutdown()
    }

    @Test func shutdownTwiceIsHarmless() async throws {
        let server = try HTTPServer { _ in HTTPResponse(status: 200) }
        await server.shutdown()
        await server.shutdown()
    }

    @Test func aServerLeftRunningStopsWhenReleased() async throws {
        var server: HTTPServer? = try HTTPServer { _ in HTTPResponse(status: 200) }
        let port = try #require(server?.port)
        #expect(try await client.get("http://127.0.0.1:\(port)/").status == 200)
        server = nil
        let error = await failure { () async throws(HTTPClientError) in
            try await client.get("http://127.0.0.1:\(port)/")
        }
        #expect(error?.code == "CONNECT_FAILED")
    }

    @Test func manyConcurrentRequestsOnFewThreads() async throws {
        let server = try HTTPServer { request in
            try? await Task.sleep(for: .milliseconds(100))
            return HTTPResponse(status: 200, body: Array(request.rawQuery.utf8))
        }
        let client = HTTPClient(configuration: HTTPClient.Configuration(maxConcurrentRequestsPerHost: 100))
        let port = server.port
        let (bodies, elapsedMs) = try await measureMs {
            try await withThrowingTaskGroup(of: String.self) { group in
                for n in 0..<100 {
                    group.addTask {
                        String(decoding: try await client.get("http://127.0.0.1:\(port)/?\(n)").body, as: UTF8.self)
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
        }
        #expect(bodies == Set((0..<100).map(String.init)))
        // 100 handlers sleeping 100 ms each overlap: far less than the 10 s they would take in a row.
        #expect(elapsedMs < stallTolerantBoundMs)
        await server.shutdown()
    }
}
