import GraphQL
import HTTPServer
import Synchronization
import Testing

@testable import GraphQLHTTP

@Suite struct DocumentCacheTests {
    static let schema = TestGateway.schema

    private func prepared(_ query: String) throws -> PreparedDocument {
        try prepareDocument(Source(query), schema: Self.schema).get()
    }

    @Test func keepsAtMostCapacityDroppingTheOldest() throws {
        let cache = DocumentCache(capacity: 2)
        cache.insert(try prepared("{ hello }"), for: "a")
        cache.insert(try prepared("{ broken }"), for: "b")
        #expect(cache.document(for: "a")?.source.body == "{ hello }")
        cache.insert(try prepared("{ mandatory }"), for: "c")
        #expect(cache.count == 2)
        #expect(cache.document(for: "a") == nil)
        #expect(cache.document(for: "b")?.source.body == "{ broken }")
        #expect(cache.document(for: "c")?.source.body == "{ mandatory }")
        for index in 0..<10 {
            cache.insert(try prepared("{ hello }"), for: "k\(index)")
        }
        #expect(cache.count == 2)
        #expect(cache.document(for: "k8") != nil)
        #expect(cache.document(for: "k9") != nil)
    }

    @Test func textsThatDifferOnlyInNormalizationAreDifferentDocuments() throws {
        let cache = DocumentCache(capacity: 4)
        let nfd = "{ echo(text: \"Vini\u{301}cius\") }"
        let nfc = "{ echo(text: \"Vin\u{ED}cius\") }"
        #expect(nfd == nfc)  // as Swift Strings
        cache.insert(try prepared("{ hello }"), for: nfd)
        #expect(cache.document(for: nfd) != nil)
        #expect(cache.document(for: nfc) == nil)
    }

    @Test func capacityZeroKeepsNothing() throws {
        let cache = DocumentCache(capacity: 0)
        cache.insert(try prepared("{ hello }"), for: "a")
        #expect(cache.document(for: "a") == nil)
        #expect(cache.count == 0)
    }
}

@Suite struct RequestIDGeneratorTests {
    @Test func acceptsOnlyShortPlainTokens() {
        #expect(RequestIDGenerator.isAcceptable("abc-123_X.y"))
        #expect(RequestIDGenerator.isAcceptable(String(repeating: "a", count: 64)))
        #expect(!RequestIDGenerator.isAcceptable(String(repeating: "a", count: 65)))
        #expect(!RequestIDGenerator.isAcceptable(""))
        #expect(!RequestIDGenerator.isAcceptable("a b"))
        #expect(!RequestIDGenerator.isAcceptable("a\"}\n{"))
    }

    @Test func generatesCountingIDsWithAProcessPrefix() {
        let generator = RequestIDGenerator()
        let first = generator.next(incoming: nil)
        let second = generator.next(incoming: "bad id")
        #expect(first.utf8.count == 10)
        #expect(first.hasSuffix("-1"))
        #expect(second == String(first.dropLast()) + "2")
        #expect(generator.next(incoming: "mine") == "mine")
        var last = second
        for _ in 3...1_203 { last = generator.next(incoming: nil) }
        #expect(last == String(first.dropLast()) + "1203")
    }
}

@Suite struct ExecutionDeadlineTests {
    @Test func returnsTheValueInTime() async {
        let value = await withDeadline(timeoutMs: 1_000, scheduler: DeadlineScheduler()) { 42 }
        #expect(value == 42)
        let unbounded = await withDeadline(timeoutMs: 0, scheduler: DeadlineScheduler()) { 7 }
        #expect(unbounded == 7)
    }

    @Test func schedulesADeadlineOnlyForWorkThatSuspendsAndForgetsIt() async {
        let scheduler = DeadlineScheduler()
        #expect(await withDeadline(timeoutMs: 1_000, scheduler: scheduler) { 42 } == 42)
        #expect(scheduler.pendingCount == 0)
        let slow = await withDeadline(timeoutMs: 5_000, scheduler: scheduler) { () async -> Int in
            try? await Task.sleep(for: .milliseconds(20))
            return 7
        }
        #expect(slow == 7)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anAlreadyCancelledCallerDoesNotStartTheWork() async {
        let started = Atomic<Bool>(false)
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return await withDeadline(timeoutMs: 1_000, scheduler: DeadlineScheduler()) { () async -> Int in
                started.store(true, ordering: .sequentiallyConsistent)
                return 1
            }
        }
        task.cancel()
        #expect(await task.value == nil)
        let didStart = started.load(ordering: .sequentiallyConsistent)
        #expect(!didStart)
    }

    @Test func answersNilAtTheDeadlineAndCancelsTheWork() async {
        let cancelled = Atomic<Bool>(false)
        let clock = ContinuousClock()
        let started = clock.now
        let value = await withDeadline(timeoutMs: 50, scheduler: DeadlineScheduler()) { () async -> Int in
            do {
                try await Task.sleep(for: .seconds(5))
            } catch {
                cancelled.store(true, ordering: .sequentiallyConsistent)
            }
            return 1
        }
        #expect(value == nil)
        #expect(started.duration(to: clock.now) < .milliseconds(4_000))
        try? await Task.sleep(for: .milliseconds(50))
        let wasCancelled = cancelled.load(ordering: .sequentiallyConsistent)
        #expect(wasCancelled)
    }

    @Test func doesNotWaitForWorkThatIgnoresCancellation() async {
        let clock = ContinuousClock()
        let started = clock.now
        let value = await withDeadline(timeoutMs: 50, scheduler: DeadlineScheduler()) { () async -> Int in
            // A detached task does not inherit the cancellation: this waits the full 6 s.
            await Task.detached { try? await Task.sleep(for: .seconds(6)) }.value
            return 1
        }
        #expect(value == nil)
        // Far below the work's 6 s, with room for a test run that saturates the thread pool.
        #expect(started.duration(to: clock.now) < .milliseconds(4_000))
    }

    @Test func followsTheCallersCancellation() async {
        let task = Task {
            await withDeadline(timeoutMs: 5_000, scheduler: DeadlineScheduler()) { () async -> Int in
                try? await Task.sleep(for: .seconds(5))
                return 1
            }
        }
        try? await Task.sleep(for: .milliseconds(20))
        task.cancel()
        #expect(await task.value == nil)
    }

    /// A client that hung up: the work is cancelled, and what it did (its value) still comes back.
    @Test func waitsForTheCancelledWorkWhenAskedTo() async {
        let task = Task {
            await withDeadline(timeoutMs: 5_000, scheduler: DeadlineScheduler(), waitsWhenCancelled: { true }) {
                () async -> Int in
                do {
                    try await Task.sleep(for: .seconds(5))
                    return 1
                } catch {
                    return 2  // cancelled: what it did so far
                }
            }
        }
        try? await Task.sleep(for: .milliseconds(20))
        task.cancel()
        #expect(await task.value == 2)
    }
}

@Suite struct GraphQLHTTPMetricsTests {
    @Test func rendersTheExpositionFormat() {
        let metrics = GraphQLHTTPMetrics()
        var report = RequestReport(cacheHits: 3, deduplicated: 4)
        report.recordUpstream(service: "youtube", outcome: "timeout")
        report.recordUpstream(service: "itunes", outcome: "ok", count: 2)
        metrics.requestStarted()
        metrics.requestFinished(
            pathLabel: "/graphql", status: 200, durationSeconds: 0.004, report: report, client: "web")
        metrics.requestStarted()
        metrics.requestFinished(pathLabel: "/graphql", status: 200, durationSeconds: 20, report: RequestReport())
        metrics.requestStarted()
        #expect(
            metrics.render(application: "app_series 1\n") == """
                # HELP musicgraph_http_requests_total HTTP requests answered, by path and status.
                # TYPE musicgraph_http_requests_total counter
                musicgraph_http_requests_total{path="/graphql",status="200"} 2
                # HELP musicgraph_http_request_duration_seconds Time to answer HTTP requests, by status.
                # TYPE musicgraph_http_request_duration_seconds histogram
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.001"} 0
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.0025"} 0
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.005"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.01"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.025"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.05"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.1"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.25"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="0.5"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="1.0"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="2.5"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="5.0"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="10.0"} 1
                musicgraph_http_request_duration_seconds_bucket{status="200",le="+Inf"} 2
                musicgraph_http_request_duration_seconds_sum{status="200"} 20.004
                musicgraph_http_request_duration_seconds_count{status="200"} 2
                # HELP musicgraph_client_requests_total GraphQL requests answered, by client and status.
                # TYPE musicgraph_client_requests_total counter
                musicgraph_client_requests_total{client="web",status="200"} 1
                # HELP musicgraph_http_requests_in_flight HTTP requests being handled.
                # TYPE musicgraph_http_requests_in_flight gauge
                musicgraph_http_requests_in_flight 1
                # HELP musicgraph_upstream_requests_total Upstream API requests, by service and outcome.
                # TYPE musicgraph_upstream_requests_total counter
                musicgraph_upstream_requests_total{service="itunes",outcome="ok"} 2
                musicgraph_upstream_requests_total{service="youtube",outcome="timeout"} 1
                # HELP musicgraph_cache_hits_total Upstream reads answered from the cache.
                # TYPE musicgraph_cache_hits_total counter
                musicgraph_cache_hits_total 3
                # HELP musicgraph_upstream_deduplicated_total Upstream reads that shared a request already in flight.
                # TYPE musicgraph_upstream_deduplicated_total counter
                musicgraph_upstream_deduplicated_total 4
                # HELP musicgraph_http_incremental_parts_total Parts of multipart incremental answers sent.
                # TYPE musicgraph_http_incremental_parts_total counter
                musicgraph_http_incremental_parts_total 0
                app_series 1

                """)
    }

    @Test func escapesLabelValues() {
        let metrics = GraphQLHTTPMetrics()
        var report = RequestReport()
        report.recordUpstream(service: "a\"b\\c\nd", outcome: "ok")
        metrics.requestStarted()
        metrics.requestFinished(pathLabel: "/graphql", status: 200, durationSeconds: 0, report: report)
        #expect(metrics.render().contains(#"musicgraph_upstream_requests_total{service="a\"b\\c\nd",outcome="ok"} 1"#))
    }
}

@Suite struct RequestLogTests {
    @Test func lineHasFixedKeysAndRoundedDuration() {
        let log = RequestLog(
            time: "2026-11-29T14:03:07.123Z", requestID: "r-1", method: "POST", path: "/graphql\"x", status: 504,
            durationMs: 12.345678, upstreamRequests: 3, cacheHits: 1)
        #expect(
            log.line
                == #"{"time":"2026-11-29T14:03:07.123Z","requestId":"r-1","method":"POST","path":"/graphql\"x","status":504,"#
                + #""durationMs":12.346,"upstreamRequests":3,"cacheHits":1}"#)
    }

    @Test func lineEscapesLikeTheJSONWriter() {
        let path = "/a\\b\u{01}\n\u{1F}é\""
        let log = RequestLog(
            time: "t", requestID: "id\u{7F}", method: "GET", path: path, status: 200, durationMs: 0.5,
            upstreamRequests: 0, cacheHits: 0)
        #expect(
            log.line
                == #"{"time":"t","requestId":"id\#u{7F}","method":"GET","path":"#
                + JSONWriter.string(.string(path))
                + #","status":200,"durationMs":0.5,"upstreamRequests":0,"cacheHits":0}"#)
        #expect(JSONWriter.string(.string(path)) == #""/a\\b\u0001\n\u001fé\"""#)
    }

    @Test func durationsPrintAsTheJSONWriterPrintsTheRoundedDouble() {
        for (milliseconds, text) in [
            (3.0, "3"), (0.0004, "0"), (0.0005, "0.001"), (1.05, "1.05"), (12.3456, "12.346"), (0.02, "0.02"),
            (1_234_567.8909, "1234567.891"), (0.1 + 0.2, "0.3"),
        ] {
            let line = RequestLog(
                time: "t", requestID: "r", method: "GET", path: "/", status: 200, durationMs: milliseconds,
                upstreamRequests: 0, cacheHits: 0
            ).line
            #expect(line.contains(#""durationMs":\#(text),"#), "\(milliseconds)")
            #expect(text == JSONWriter.string(.double((milliseconds * 1000).rounded() / 1000)))
        }
    }

    @Test func extremeNumbersAndAPathOfOnlyControlCharactersFit() {
        let path = String(repeating: "\u{01}", count: 200)
        let log = RequestLog(
            time: "t", requestID: "r", method: "GET", path: path, status: 12_345, durationMs: -.infinity,
            upstreamRequests: Int.max, cacheHits: Int.min)
        #expect(
            log.line
                == #"{"time":"t","requestId":"r","method":"GET","path":"# + JSONWriter.string(.string(path))
                + #","status":12345,"durationMs":null,"upstreamRequests":9223372036854775807,"#
                + #""cacheHits":-9223372036854775808}"#)
        let huge = RequestLog(
            time: "t", requestID: "r", method: "GET", path: "/", status: 200, durationMs: -1.5e300,
            upstreamRequests: 0, cacheHits: 10)
        #expect(huge.line.contains(#""durationMs":-1.5e+300,"#))
        #expect(huge.line.hasSuffix(#""cacheHits":10}"#))
    }

    @Test func nowIsRFC3339WithMilliseconds() {
        let time = RequestLog.now()
        let bytes = Array(time.utf8)
        #expect(bytes.count == 24)
        #expect(time.hasPrefix("20"))
        #expect(bytes[4] == UInt8(ascii: "-") && bytes[10] == UInt8(ascii: "T") && bytes[19] == UInt8(ascii: "."))
        #expect(time.hasSuffix("Z"))
    }
}

@Suite struct GraphQLHTTPOutcomeTests {
    @Test func reportTotalsUpstreamRequests() {
        var report = RequestReport()
        report.recordUpstream(service: "itunes", outcome: "ok")
        report.recordUpstream(service: "itunes", outcome: "ok", count: 2)
        report.recordUpstream(service: "tmdb", outcome: "http_error")
        #expect(report.upstreamRequests[RequestReport.UpstreamKey(service: "itunes", outcome: "ok")] == 3)
        #expect(report.totalUpstreamRequests == 4)
    }
}

@Suite struct NegotiationCacheTests {
    @Test func remembersDecisionsAndStaysBounded() {
        let cache = NegotiationCache()
        #expect(cache.decision(for: "application/json") == .init(media: .json, prefersHTML: false))
        #expect(cache.decision(for: "application/json") == .init(media: .json, prefersHTML: false))
        #expect(cache.decision(for: "text/html, */*;q=0.8") == .init(media: .graphQLResponseJSON, prefersHTML: true))
        #expect(cache.decision(for: "text/plain") == .init(media: nil, prefersHTML: false))
        for index in 0..<200 {
            #expect(cache.decision(for: "application/json;q=0.\(index % 9 + 1), x/y\(index)").media == .json)
        }
    }

    @Test func wellKnownValuesAreDecidedAsAnyOtherValue() {
        let cache = NegotiationCache()
        for value in NegotiationCache.wellKnownValues {
            let parsed = AcceptHeader(value)
            #expect(
                cache.decision(for: value)
                    == .init(
                        media: parsed.responseMediaType(), prefersHTML: parsed.prefersHTML(),
                        incremental: parsed.incrementalFormat()), "\(value)")
        }
        #expect(cache.decision(for: "*/*") == .init(media: .graphQLResponseJSON, prefersHTML: false))
        #expect(cache.decision(for: "application/json") == .init(media: .json, prefersHTML: false))
        #expect(
            cache.decision(for: "application/graphql-response+json,application/json;q=0.9")
                == .init(media: .graphQLResponseJSON, prefersHTML: false))
    }
}

@Suite struct TimestampFormatterTests {
    @Test func formatsUTCWithMilliseconds() {
        #expect(TimestampFormatter.format((0, 5)).text == "1970-01-01T00:00:00.005Z")
        #expect(TimestampFormatter.format((1_795_960_987, 123)) == ("2026-11-29T14:03:07.", "2026-11-29T14:03:07.123Z"))
        #expect(TimestampFormatter.format((951_825_599, 42)).text == "2000-02-29T11:59:59.042Z")
    }

    @Test func millisecondsArePaddedToThreeDigits() {
        let prefix = "2026-11-29T14:03:07."
        #expect(TimestampFormatter.appendingMillisecondsAndZone(0, to: prefix) == "2026-11-29T14:03:07.000Z")
        #expect(TimestampFormatter.appendingMillisecondsAndZone(7, to: prefix) == "2026-11-29T14:03:07.007Z")
        #expect(TimestampFormatter.appendingMillisecondsAndZone(42, to: prefix) == "2026-11-29T14:03:07.042Z")
        #expect(TimestampFormatter.appendingMillisecondsAndZone(999, to: prefix) == "2026-11-29T14:03:07.999Z")
    }

    @Test func cachedNowMatchesAFreshFormat() {
        let formatter = TimestampFormatter()
        let first = formatter.now()
        let second = formatter.now()
        #expect(first.utf8.count == 24)
        #expect(second.utf8.count == 24)
        #expect(second >= first)
    }
}

/// POST bodies seen before skip reading their JSON and preparing their document.
@Suite struct BodyCacheTests {
    static let greet = "query($n: String) { hello(name: $n) }"

    private func handler(documentCacheSize: Int = 512) -> GraphQLHTTPHandler {
        GraphQLHTTPHandler(
            schema: TestGateway.schema,
            configuration: GraphQLHTTPHandler.Configuration(logSink: { _ in }, documentCacheSize: documentCacheSize),
            execute: TestGateway.execute)
    }

    private func post(_ handler: GraphQLHTTPHandler, _ body: String) async -> (status: Int, text: String) {
        let response = await handler.handle(
            HTTPRequest(
                method: "POST", path: "/graphql", headers: ["Content-Type": "application/json"], body: Array(body.utf8))
        )
        return (response.status.code, String(decoding: response.body, as: UTF8.self))
    }

    private func body(_ name: String, padding: Int = 0) -> String {
        #"{"query":"\#(Self.greet)","variables":{"n":"\#(name)"}}"# + String(repeating: " ", count: padding)
    }

    @Test func aRepeatedBodyIsKeptOnceAndAnswersTheSame() async {
        let handler = handler()
        let first = await post(handler, body("AC/DC"))
        let second = await post(handler, body("AC/DC"))
        #expect(first.status == 200)
        #expect(first.text == #"{"data":{"hello":"Hello, AC/DC!"},"extensions":{"cost":1}}"#)
        #expect(second.status == 200)
        #expect(second.text == first.text)
        #expect(handler.bodyCache.count == 1)
        #expect(handler.documentCache.count == 1)
        // Other variables: another body, the same document.
        let other = await post(handler, body("Björk"))
        #expect(other.text == #"{"data":{"hello":"Hello, Björk!"},"extensions":{"cost":1}}"#)
        #expect(handler.bodyCache.count == 2)
        #expect(handler.documentCache.count == 1)
    }

    @Test func refusedBodiesAreNotKeptAndRefusedAgain() async {
        let handler = handler()
        for body in [
            #"{"query":"{ hello"#, #"{"query":"{ nope }"}"#, #"{"variables":{}}"#,
            #"{"query":"{ hello }","variables":3}"#,
        ] {
            let first = await post(handler, body)
            let again = await post(handler, body)
            // A document that does not parse is 400; one that does not validate, or parameters
            // that are not a request, 422.
            #expect(first.status == (body == #"{"query":"{ hello"# ? 400 : 422))
            #expect(again.status == first.status)
            #expect(again.text == first.text)
        }
        #expect(handler.bodyCache.count == 0)
    }

    @Test func bodiesThatDifferOnlyInNormalizationAreAnsweredWithTheirOwnBytes() async {
        let handler = handler()
        let nfc = await post(handler, body("Vin\u{ED}cius"))
        let nfd = await post(handler, body("Vini\u{301}cius"))
        #expect(
            Array(nfc.text.utf8) == Array(#"{"data":{"hello":"Hello, Vin\#u{ED}cius!"},"extensions":{"cost":1}}"#.utf8))
        #expect(
            Array(nfd.text.utf8)
                == Array(#"{"data":{"hello":"Hello, Vini\#u{301}cius!"},"extensions":{"cost":1}}"#.utf8))
        #expect(handler.bodyCache.count == 2)
    }

    @Test func longBodiesAndAZeroSizeAreNotKept() async {
        let handler = handler()
        let long = await post(handler, body("AC/DC", padding: BodyCache.maxBodyBytes))
        #expect(long.text == #"{"data":{"hello":"Hello, AC/DC!"},"extensions":{"cost":1}}"#)
        #expect(handler.bodyCache.count == 0)
        #expect(handler.documentCache.count == 1)
        let uncached = self.handler(documentCacheSize: 0)
        for _ in 0..<2 {
            #expect(await post(uncached, body("AC/DC")).status == 200)
        }
        #expect(uncached.bodyCache.count == 0)
        #expect(uncached.documentCache.count == 0)
    }
}
