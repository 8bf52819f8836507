import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct FaultsAndLogTests {
        private func post(_ demo: DemoUpstream, _ json: String) async -> DemoResponse {
            await demo.handle(DemoRequest(method: "POST", path: "/__demo/faults", body: Array(json.utf8)))
        }

        @Test func invalidFaultBodiesAreRejected() async throws {
            let demo = try await Demo.make()
            #expect(await post(demo, "[1,2]").status == 400)
            #expect(
                await post(demo, #"{"youtube": {"status": 500}}"#).text
                    == #"{"error":"prefix 'youtube' must start with /"}"#)
            #expect(await post(demo, #"{"/x": {"status": 99}}"#).status == 400)
            #expect(await post(demo, #"{"/x": {"everyNth": 0}}"#).status == 400)
            #expect(await post(demo, #"{"/x": {"padBytes": -1}}"#).status == 400)
            #expect(await post(demo, #"{"/x": {"status": "500"}}"#).status == 400)
        }

        @Test func longestPrefixWinsAndEmptyObjectClears() async throws {
            let demo = try await Demo.make()
            #expect(
                await post(
                    demo, #"{"/youtube": {"status": 500}, "/youtube/v3/videos": {"status": 429, "retryAfter": 7}}"#
                )
                .status
                    == 200)
            let videos = await Demo.get(demo, "/youtube/v3/videos", "part=snippet&id=x&key=k")
            #expect(videos.status == 429)
            #expect(videos.headers["Retry-After"] == "7")
            #expect(videos.text.contains(#""reason": "rateLimitExceeded""#))
            #expect(await Demo.get(demo, "/youtube/v3/search", "part=snippet&q=x&key=k").status == 500)
            #expect(await Demo.get(demo, "/3/search/movie", "query=x&api_key=k").status == 200)
            #expect(await post(demo, "{}").text == "{}")
            #expect(await Demo.get(demo, "/youtube/v3/search", "part=snippet&q=x&key=k").status == 200)
        }

        @Test func statusFaultsUseEachServicesErrorBody() async throws {
            let demo = try await Demo.make()
            _ = await post(demo, #"{"/": {"status": 429}}"#)
            #expect(await Demo.get(demo, "/search", "term=x").body.isEmpty)
            #expect(await Demo.get(demo, "/3/search/movie", "api_key=k").text.contains(#""status_code":25"#))
            #expect(
                await Demo.get(demo, "/services/api/BooksCD/Search/20170404", "applicationId=a").text.contains(
                    "too_many_requests"))
            #expect(
                await Demo.get(demo, "/v1/catalog/us/search", headers: ["Authorization": "Bearer t"]).text.contains(
                    #""status":"429""#))
            _ = await post(demo, #"{"/youtube": {"status": 403}}"#)
            #expect(await Demo.get(demo, "/youtube/v3/search", "key=k").text.contains(#""reason": "quotaExceeded""#))
        }

        @Test func bodyFaults() async throws {
            let demo = try await Demo.make()
            let normal = await Demo.get(demo, "/lookup", "id=200001")
            _ = await post(demo, #"{"/lookup": {"truncated": true}}"#)
            let truncated = await Demo.get(demo, "/lookup", "id=200001")
            #expect(truncated.status == 200)
            #expect(truncated.body == Array(normal.body.prefix(normal.body.count / 2)))
            _ = await post(demo, #"{"/lookup": {"malformed": true}}"#)
            let malformed = await Demo.get(demo, "/lookup", "id=200001")
            #expect(malformed.text.hasPrefix("\n\n\n{\n '"))
            _ = await post(demo, #"{"/lookup": {"html": true}}"#)
            let html = await Demo.get(demo, "/lookup", "id=200001")
            #expect(html.status == 200)
            #expect(html.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(html.text.contains("[newNullResponse]"))
            _ = await post(demo, #"{"/lookup": {"padBytes": 100000}}"#)
            let padded = await Demo.get(demo, "/lookup", "id=200001")
            #expect(padded.status == 200)
            #expect(padded.body.count == 100_000)
            #expect(padded.body.prefix(normal.body.count) == normal.body[...])
            #expect(padded.body.dropFirst(normal.body.count).allSatisfy { $0 == UInt8(ascii: " ") })
        }

        @Test func latencyAndHang() async throws {
            let demo = try await Demo.make(.init(hangLimitMs: 150))
            _ = await post(demo, #"{"/search": {"latencyMs": 120}, "/lookup": {"hang": true}}"#)
            let clock = ContinuousClock()
            let start = clock.now
            #expect(await Demo.get(demo, "/search", "term=x").status == 200)
            #expect(clock.now - start >= .milliseconds(120))
            #expect(await Demo.get(demo, "/lookup", "id=1").status == 504)
        }

        @Test func everyNthCountsPerPrefix() async throws {
            let demo = try await Demo.make()
            _ = await post(demo, #"{"/search": {"status": 503, "everyNth": 3}}"#)
            var statuses: [Int] = []
            for _ in 0..<6 { statuses.append(await Demo.get(demo, "/search", "term=x").status) }
            #expect(statuses == [200, 200, 503, 200, 200, 503])
        }

        @Test func requestLogRedactsSecretsAndClears() async throws {
            let demo = try await Demo.make()
            _ = await Demo.get(demo, "/youtube/v3/search", "part=snippet&q=a%26b&key=SECRET1")
            _ = await Demo.get(demo, "/3/search/movie", "query=x&api_key=SECRET2")
            _ = await Demo.get(
                demo, "/services/api/BooksCD/Search/20170404", "applicationId=SECRET3&accessKey=SECRET4&title=x")
            _ = await Demo.get(
                demo, "/v1/catalog/us/search", "term=x&types=albums", headers: ["Authorization": "Bearer SECRET5"])
            _ = await demo.handle(DemoRequest(method: "POST", path: "/search", rawQuery: "term=x"))
            _ = await Demo.get(demo, "/__demo/health")
            let log = await Demo.get(demo, "/__demo/requests").text
            #expect(
                log == "["
                    + #"{"method":"GET","path":"/youtube/v3/search","query":"part=snippet&q=a%26b&key=***","service":"youtube","status":200},"#
                    + #"{"method":"GET","path":"/3/search/movie","query":"query=x&api_key=***","service":"tmdb","status":200},"#
                    + #"{"method":"GET","path":"/services/api/BooksCD/Search/20170404","query":"applicationId=***&accessKey=***&title=x","service":"rakuten","status":200},"#
                    + #"{"method":"GET","path":"/v1/catalog/us/search","query":"term=x&types=albums","service":"applemusic","status":200,"authorization":"***"},"#
                    + #"{"method":"POST","path":"/search","query":"term=x","service":"itunes","status":405}"#
                    + "]")
            #expect(
                await demo.handle(DemoRequest(method: "DELETE", path: "/__demo/requests")).text == #"{"cleared":5}"#)
            #expect(await Demo.get(demo, "/__demo/requests").text == "[]")
        }

        /// An answer made before is handed out at once with its latency, and logged as `handle`
        /// logs it (its secret redacted when the log is read); a fault rule on its path, a
        /// control path, a method other than GET and an answer not made yet go to `handle`.
        @Test func aKeptAnswerIsHandedOutWithItsLatency() async throws {
            let demo = try await Demo.make(.init(latencyMs: 7))
            let search = DemoRequest(method: "GET", path: "/youtube/v3/search", rawQuery: "part=snippet&q=x&key=SECRET")
            #expect(demo.keptAnswer(search) == nil)  // not made yet
            let made = await demo.handle(search)
            let kept = try #require(demo.keptAnswer(search))
            #expect(kept.response.body == made.body)
            #expect(kept.response.status == made.status)
            #expect(kept.latency == .milliseconds(7))
            #expect(
                demo.keptAnswer(DemoRequest(method: "POST", path: "/youtube/v3/search", rawQuery: search.rawQuery))
                    == nil)
            #expect(demo.keptAnswer(DemoRequest(method: "GET", path: "/__demo/requests")) == nil)
            _ = await post(demo, #"{"/youtube": {"status": 500}}"#)
            #expect(demo.keptAnswer(search) == nil)
            let log = await Demo.get(demo, "/__demo/requests").text
            #expect(
                log.components(separatedBy: #""query":"part=snippet&q=x&key=***","service":"youtube","status":200"#)
                    .count == 3)
            #expect(!log.contains("SECRET"))
        }

        @Test func logIsBounded() async throws {
            let demo = try await Demo.make(.init(maxLogEntries: 3))
            for i in 0..<5 { _ = await Demo.get(demo, "/search", "term=\(i)") }
            let log = await Demo.get(demo, "/__demo/requests").text
            #expect(log.contains("term=2") && log.contains("term=4") && !log.contains("term=1"))
        }

        @Test func unknownPaths() async throws {
            let demo = try await Demo.make()
            #expect(await Demo.get(demo, "/nope").status == 404)
            #expect(await Demo.get(demo, "/__demo/nope").status == 404)
            #expect(await Demo.get(demo, "/__demo/health").text == #"{"ok":true}"#)
        }
    }
}
