import Glibc
import GraphQL
import HTTPClient
import HTTPServer
import Synchronization
import Testing

@testable import GraphQLHTTP

/// Everything around the GraphQL endpoint over loopback HTTP: CORS, the GraphiQL page,
/// `/healthz`, `/metrics`, the request log and graceful shutdown.
@Suite struct OperationsTests {
    static let browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"

    // MARK: - CORS

    @Test func corsEchoesAnAllowedOriginOnly() async throws {
        let test = try TestServer(configure: { $0.cors = CORSPolicy(allowedOrigins: .list(["https://app.example"])) })
        let allowed = try await test.post(#"{"query":"{ hello }"}"#, headers: [("Origin", "https://app.example")])
        #expect(allowed.status == 200)
        #expect(allowed.headers.values(for: "Access-Control-Allow-Origin") == ["https://app.example"])
        #expect(allowed.headers.values(for: "Vary") == ["Origin"])
        let other = try await test.post(#"{"query":"{ hello }"}"#, headers: [("Origin", "https://evil.example")])
        #expect(other.status == 200)
        #expect(other.headers["Access-Control-Allow-Origin"] == nil)
        #expect(other.headers["Vary"] == "Origin")
        await test.server.shutdown()
    }

    @Test func corsPreflightFromAnAllowedOrigin() async throws {
        let test = try TestServer(configure: { $0.cors = CORSPolicy(allowedOrigins: .list(["https://app.example"])) })
        let response = try await test.request(
            "OPTIONS", "/graphql",
            headers: [
                "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            ])
        #expect(response.status == 204)
        #expect(response.headers.values(for: "Access-Control-Allow-Origin") == ["https://app.example"])
        #expect(response.headers.values(for: "Vary") == ["Origin, Access-Control-Request-Headers"])
        #expect(response.headers["Access-Control-Allow-Methods"] == "GET, HEAD, POST, OPTIONS")
        #expect(response.headers["Access-Control-Allow-Headers"] == "content-type")
        #expect(response.headers["Access-Control-Max-Age"] == "600")
        #expect(response.body.isEmpty)
        let refused = try await test.request(
            "OPTIONS", "/graphql", headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])
        #expect(refused.status == 403)
        #expect(refused.headers["Access-Control-Allow-Origin"] == nil)
        #expect(refused.headers.values(for: "Vary") == ["Origin, Access-Control-Request-Headers"])
        await test.server.shutdown()
    }

    @Test func corsWildcardAndDisabled() async throws {
        let open = try TestServer(configure: { $0.cors = CORSPolicy(allowedOrigins: .any) })
        let preflight = try await open.request(
            "OPTIONS", "/graphql",
            headers: ["Origin": "https://anyone.example", "Access-Control-Request-Method": "POST"])
        #expect(preflight.status == 204)
        #expect(preflight.headers.values(for: "Access-Control-Allow-Origin") == ["*"])
        #expect(preflight.headers["Vary"] == "Access-Control-Request-Headers")
        let actual = try await open.get("/graphql?query=%7Bhello%7D", headers: [("Origin", "https://anyone.example")])
        #expect(actual.headers["Access-Control-Allow-Origin"] == "*")
        await open.server.shutdown()

        let closed = try TestServer()
        let noCORS = try await closed.request(
            "OPTIONS", "/graphql",
            headers: ["Origin": "https://anyone.example", "Access-Control-Request-Method": "POST"])
        #expect(noCORS.status == 403)
        #expect(noCORS.headers["Access-Control-Allow-Origin"] == nil)
        let plainOptions = try await closed.request("OPTIONS", "/graphql")
        #expect(plainOptions.status == 204)
        #expect(plainOptions.headers["Allow"] == "GET, HEAD, POST, OPTIONS")
        await closed.server.shutdown()
    }

    // MARK: - GraphiQL

    @Test func withoutGraphiQLFilesBrowsersGetThePlainQueryBox() async throws {
        let test = try TestServer()
        let response = try await test.get("/graphql", accept: Self.browserAccept)
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        let page = response.text
        #expect(page.hasPrefix("<!doctype html>\n"))
        #expect(!page.contains("<script src="))
        #expect(!page.contains("unpkg"))
        #expect(page.contains(#"var endpoint = "/graphql";"#))
        #expect(page.contains("GraphiQL is not installed on this server"))
        #expect(page.contains(#"<button id="run" type="button">Run (Ctrl+Enter)</button>"#))
        await test.server.shutdown()
    }

    @Test func nonBrowserClientsGetGraphQLResponses() async throws {
        let test = try TestServer()
        let curlLike = try await test.get("/graphql?query=%7Bhello%7D", accept: "*/*")
        #expect(curlLike.status == 200)
        #expect(curlLike.headers["Content-Type"] == GraphQLEndpointTests.modern)
        let jsonFirst = try await test.get("/graphql?query=%7Bhello%7D", accept: "application/json, text/html")
        #expect(jsonFirst.headers["Content-Type"] == GraphQLEndpointTests.legacy)
        // POST never gets the page, whatever the Accept header says.
        let post = try await test.post(#"{"query":"{ hello }"}"#, accept: Self.browserAccept)
        #expect(post.status == 200)
        #expect(post.headers["Content-Type"] == GraphQLEndpointTests.modern)
        await test.server.shutdown()
    }

    @Test func graphiQLCanBeTurnedOff() async throws {
        let test = try TestServer(configure: { $0.graphiQL = false })
        let response = try await test.get("/graphql", accept: Self.browserAccept)
        #expect(response.status == 422)  // no query: not a GraphQL request
        #expect(response.headers["Content-Type"] == GraphQLEndpointTests.modern)
        await test.server.shutdown()
    }

    // MARK: - Health and metrics

    @Test func healthz() async throws {
        let test = try TestServer()
        let response = try await test.get("/healthz")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        #expect(response.text == "ok")
        let post = try await test.post("", path: "/healthz")
        #expect(post.status == 405)
        #expect(post.headers["Allow"] == "GET, HEAD")
        await test.server.shutdown()
    }

    @Test func readyzAnswersTheApplicationsReadinessEachTime() async throws {
        let state = Mutex(#"{"status":"ready"}"#)
        let test = try TestServer(configure: { configuration in
            configuration.readinessJSON = { state.withLock { $0 } }
        })
        let ready = try await test.get("/readyz")
        #expect(ready.status == 200)
        #expect(ready.headers["Content-Type"] == "application/json")
        #expect(ready.headers["Cache-Control"] == "no-store")
        #expect(ready.text == #"{"status":"ready"}"#)
        state.withLock { $0 = #"{"status":"degraded"}"# }
        #expect(try await test.get("/readyz").text == #"{"status":"degraded"}"#)
        let post = try await test.post("", path: "/readyz")
        #expect(post.status == 405)
        let metrics = try await test.get("/metrics")
        #expect(metrics.text.contains(#"path="/readyz""#))
        await test.server.shutdown()
    }

    @Test func metricsCountRequestsLatencyUpstreamsAndCacheHits() async throws {
        let test = try TestServer()
        _ = try await test.post(#"{"query":"{ hello }"}"#)
        _ = try await test.get("/graphql?query=%7Bhello%7D")
        _ = try await test.post(#"{"query":"{"}"#)
        _ = try await test.get("/healthz")
        _ = try await test.get("/nowhere/secret-path")
        let response = try await test.get("/metrics")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "text/plain; version=0.0.4; charset=utf-8")
        let lines = response.text.split(separator: "\n").map(String.init)
        let requestSeries = lines.filter { $0.hasPrefix("musicgraph_http_requests_total{") }
        #expect(
            requestSeries == [
                #"musicgraph_http_requests_total{path="/graphql",status="200"} 2"#,
                #"musicgraph_http_requests_total{path="/graphql",status="400"} 1"#,
                #"musicgraph_http_requests_total{path="/healthz",status="200"} 1"#,
                #"musicgraph_http_requests_total{path="other",status="404"} 1"#,
            ])
        #expect(lines.contains(#"musicgraph_http_request_duration_seconds_bucket{status="200",le="+Inf"} 3"#))
        #expect(lines.contains(#"musicgraph_http_request_duration_seconds_count{status="200"} 3"#))
        #expect(lines.contains(#"musicgraph_http_request_duration_seconds_count{status="400"} 1"#))
        #expect(lines.contains(#"musicgraph_http_request_duration_seconds_count{status="404"} 1"#))
        #expect(lines.contains("musicgraph_http_requests_in_flight 1"))  // the /metrics request itself
        #expect(lines.contains(#"musicgraph_upstream_requests_total{service="itunes",outcome="ok"} 4"#))
        #expect(lines.contains("musicgraph_cache_hits_total 2"))
        #expect(lines.contains("# TYPE musicgraph_http_request_duration_seconds histogram"))
        await test.server.shutdown()
    }

    // MARK: - Request log

    @Test func oneLogLinePerRequestWithoutSecrets() async throws {
        let test = try TestServer()
        let canary = "sk-canary-7f3a9c"
        _ = try await test.post(
            #"{"query":"query ($n: String) { hello(name: $n) }","variables":{"n":"\#(canary)"}}"#,
            headers: [("Authorization", "Bearer \(canary)"), ("X-Api-Key", canary), ("X-Request-Id", "req-1")])
        _ = try await test.get(
            "/graphql?query=\(urlEncoded("query ($n: String) { hello(name: $n) }"))&variables=\(urlEncoded(#"{"n":"\#(canary)"}"#))&key=\(canary)",
            headers: [("X-Request-Id", "req-2")])
        _ = try await test.post(#"{"query":"{ costly }"}"#, headers: [("X-Request-Id", "req-3")])
        let lines = test.log.all
        #expect(lines.count == 3)
        #expect(!lines.contains { $0.contains(canary) })
        #expect(!lines.contains { $0.contains("hello") })

        let first = try #require(lines.first.map { try JSONReader.parse($0) })
        guard case .object(let object) = first else {
            Issue.record("not a JSON object: \(lines[0])")
            return
        }
        #expect(
            object.keys == [
                "time", "requestId", "method", "path", "client", "status", "durationMs", "upstreamRequests",
                "cacheHits",
            ])
        #expect(object["client"] == .string("anonymous"))
        #expect(object["requestId"] == .string("req-1"))
        #expect(object["method"] == .string("POST"))
        #expect(object["path"] == .string("/graphql"))
        #expect(object["status"] == .int(200))
        #expect(object["upstreamRequests"] == .int(2))
        #expect(object["cacheHits"] == .int(1))
        guard case .string(let time)? = object["time"], case .double(let durationMs)? = object["durationMs"] else {
            Issue.record("time or durationMs missing: \(lines[0])")
            return
        }
        #expect(time.utf8.count == 24)
        #expect(time.hasSuffix("Z"))
        #expect(durationMs >= 0 && durationMs < 5_000)

        #expect(
            lines[1].contains(
                #""requestId":"req-2","method":"GET","path":"/graphql","client":"anonymous","status":200,"#))
        #expect(
            lines[2].contains(
                #""requestId":"req-3","method":"POST","path":"/graphql","client":"anonymous","status":400,"#))
        #expect(lines[2].hasSuffix(#""upstreamRequests":0,"cacheHits":0}"#))
        await test.server.shutdown()
    }

    // MARK: - Shutdown

    @Test func gracefulShutdownFinishesRequestsInFlight() async throws {
        let test = try TestServer()
        let inFlight = Task { try await test.post(#"{"query":"{ pause(ms: 300) }"}"#) }
        try await test.waitUntilARequestIsInFlight()
        await test.server.shutdown()
        let response = try await inFlight.value
        #expect(response.status == 200)
        #expect(response.text == #"{"data":{"pause":"paused 300 ms"},"extensions":{"cost":1}}"#)
        await #expect(throws: HTTPClientError.self) { try await test.get("/healthz") }
    }

    @Test(arguments: [30_000, 0])
    func aRequestStillRunningPastTheGraceIsLoggedAs503LikeItsAnswer(requestTimeoutMs: Int) async throws {
        // With no deadline the execution is awaited directly; cancelled, it returns a result.
        let test = try TestServer(
            configure: { $0.requestTimeoutMs = requestTimeoutMs }, http: HTTPServer.Configuration(shutdownGraceMs: 100))
        let query = requestTimeoutMs == 0 ? "{ pause(ms: 5000) }" : "{ slowForever }"
        let inFlight = Task { try await test.post(#"{"query":"\#(query)"}"#) }
        try await test.waitUntilARequestIsInFlight()
        await test.server.shutdown()
        let response = try await inFlight.value
        #expect(response.status == 503)
        for _ in 0..<100 where test.log.all.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(test.log.all.count == 1)
        #expect(test.log.all.first?.contains(#""status":503,"#) == true)
    }

    @Test func executeNowAnswersWithoutTheAsyncPathAndNilFallsBackToIt() async throws {
        let asyncCalls = Atomic<Int>(0)
        let test = try TestServer(
            executeNow: { _, operationName, _ in
                operationName == "Now"
                    ? .executed(ExecutionResult(data: .object(JSONObject([("now", .bool(true))])))) : nil
            },
            execute: { document, operationName, variables in
                asyncCalls.add(1, ordering: .sequentiallyConsistent)
                return await TestGateway.execute(document, operationName, variables)
            })
        let document = "query Now { hello } query Later { hello }"
        let now = try await test.post(#"{"query":"\#(document)","operationName":"Now"}"#)
        #expect(now.status == 200)
        #expect(now.text == #"{"data":{"now":true}}"#)
        #expect(asyncCalls.load(ordering: .sequentiallyConsistent) == 0)
        let later = try await test.post(#"{"query":"\#(document)","operationName":"Later"}"#)
        #expect(later.status == 200)
        #expect(later.text.hasPrefix(#"{"data":{"hello":"#))
        #expect(asyncCalls.load(ordering: .sequentiallyConsistent) == 1)
        // One log line and one count per request, whichever path answered it.
        #expect(test.log.all.count == 2)
        let metrics = try await test.get("/metrics")
        #expect(metrics.text.contains(#"musicgraph_http_requests_total{path="/graphql",status="200"} 2"#))
        #expect(test.server.handler.metrics.requestsInFlight == 0)
        await test.server.shutdown()
    }

    /// `executeStart` answers a finished operation in the handler's own call (no task) and runs
    /// an unfinished one's rest under the deadline, `execute` never called; batches keep to
    /// `executeNow` and `execute`.
    @Test func executeStartAnswersFinishedOperationsAtOnceAndRunsTheRestOfOthers() async throws {
        let asyncCalls = Atomic<Int>(0)
        let rests = Atomic<Int>(0)
        let executeStart: GraphQLHTTPHandler.ExecuteStart = { document, operationName, variables in
            guard operationName == "Later" else {
                return .finished(.executed(ExecutionResult(data: .object(JSONObject([("now", .bool(true))])))))
            }
            return .later {
                rests.add(1, ordering: .sequentiallyConsistent)
                return await TestGateway.execute(document, operationName, variables)
            }
        }
        let execute: GraphQLHTTPHandler.Execute = { document, operationName, variables in
            asyncCalls.add(1, ordering: .sequentiallyConsistent)
            return await TestGateway.execute(document, operationName, variables)
        }
        let handler = GraphQLHTTPHandler(
            schema: TestGateway.schema, configuration: GraphQLHTTPHandler.Configuration(logSink: { _ in }),
            executeStart: executeStart, execute: execute)
        let document = "query Now { hello } query Later { hello }"
        let request = HTTPRequest(
            method: "POST", path: "/graphql", headers: ["Content-Type": "application/json"],
            body: Array(#"{"query":"\#(document)","operationName":"Now"}"#.utf8))
        guard case .now(let now) = handler.respond(to: request) else {
            Issue.record("a finished start was answered later")
            return
        }
        #expect(String(decoding: now.body, as: UTF8.self) == #"{"data":{"now":true}}"#)

        let test = try TestServer(executeStart: executeStart, execute: execute)
        let later = try await test.post(#"{"query":"\#(document)","operationName":"Later"}"#)
        #expect(later.status == 200)
        #expect(later.text.hasPrefix(#"{"data":{"hello":"#))
        #expect(rests.load(ordering: .sequentiallyConsistent) == 1)
        let batch = try await test.post(
            #"[{"query":"\#(document)","operationName":"Later"},{"query":"{ hello }"}]"#)
        #expect(batch.status == 200)
        #expect(rests.load(ordering: .sequentiallyConsistent) == 1)
        #expect(asyncCalls.load(ordering: .sequentiallyConsistent) == 2)
        #expect(test.log.all.count == 2)
        await test.server.shutdown()
    }

    /// SIGUSR2 stands in for SIGTERM, which would stop the test runner if the source missed it.
    @Test func runUntilSignalledShutsDownOnTheSignal() async throws {
        let test = try TestServer()
        #expect(try await test.get("/healthz").status == 200)
        let received = Atomic<Int32>(0)
        let stopped = Task {
            let number = await test.server.runUntilSignalled([SIGUSR2])
            received.store(number, ordering: .sequentiallyConsistent)
        }
        // The signal source may not be installed yet: raise until it is seen (ignored before).
        for _ in 0..<200 where received.load(ordering: .sequentiallyConsistent) == 0 {
            try await Task.sleep(for: .milliseconds(10))
            kill(getpid(), SIGUSR2)
        }
        await stopped.value
        let number = received.load(ordering: .sequentiallyConsistent)
        #expect(number == SIGUSR2)
        await #expect(throws: HTTPClientError.self) { try await test.get("/healthz") }
    }
}
