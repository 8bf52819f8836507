import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    /// Route answers are kept serialized: a repeat is the same bytes without a route run, a
    /// fault's answer is never kept, and the memo stays within its bound.
    @Suite struct AnswerMemoTests {
        private func post(_ demo: DemoUpstream, _ json: String) async -> DemoResponse {
            await demo.handle(DemoRequest(method: "POST", path: "/__demo/faults", body: Array(json.utf8)))
        }

        @Test func aRepeatedSearchIsTheKeptAnswer() async throws {
            let demo = try await Demo.make()
            let query = "part=snippet&type=video&q=Iron%20Maiden%20Aces%20High&maxResults=1&key=k"
            let first = await Demo.get(demo, "/youtube/v3/search", query)
            #expect(first.status == 200)
            #expect(first.text.contains(#""kind": "youtube#searchListResponse""#))
            #expect(demo.answers.usage.entries == 1)
            let second = await Demo.get(demo, "/youtube/v3/search", query)
            #expect(second == first)
            #expect(demo.answers.usage.entries == 1)
            // Another query, another key (the key is part of the request, and of the etag).
            let other = await Demo.get(demo, "/youtube/v3/search", query.replacing("key=k", with: "key=j"))
            #expect(other.status == 200 && other != first)
            #expect(demo.answers.usage.entries == 2)
            // Every request is still logged.
            let log = await Demo.get(demo, "/__demo/requests")
            #expect(try (Demo.json(log) as? [Any])?.count == 3)
        }

        @Test func theAuthorizationHeaderIsPartOfTheKey() async throws {
            let demo = try await Demo.make()
            let refused = await Demo.get(demo, "/v1/catalog/us/search", "term=queen&types=artists")
            let served = await Demo.get(
                demo, "/v1/catalog/us/search", "term=queen&types=artists", headers: ["authorization": "Bearer t"])
            #expect(refused.status == 401)
            #expect(served.status == 200)
        }

        @Test func aFaultsAnswerIsNeverKept() async throws {
            let demo = try await Demo.make()
            _ = await post(demo, #"{"/lookup": {"truncated": true}}"#)
            let truncated = await Demo.get(demo, "/lookup", "id=200001")
            _ = await post(demo, "{}")
            let normal = await Demo.get(demo, "/lookup", "id=200001")
            #expect(normal.body.count > truncated.body.count)
            #expect(normal == (await Demo.get(try await Demo.make(), "/lookup", "id=200001")))
            _ = await post(demo, #"{"/lookup": {"status": 500}}"#)
            #expect(await Demo.get(demo, "/lookup", "id=200001").status == 500)
        }

        @Test func theMemoStaysWithinItsBound() {
            let memo = AnswerMemo(maxBytes: 1_000)
            let body = DemoResponse(status: 200, body: Array(repeating: 0x41, count: 300))
            for i in 0..<5 { memo.keep(body, for: "k\(i)") }
            // Each entry is 300 + 2 + 128 = 430 bytes: two fit, the oldest went first.
            #expect(memo.usage.entries == 2)
            #expect(memo.usage.bytes == 860)
            #expect(memo.answer(for: "k0") == nil)
            #expect(memo.answer(for: "k4") == body)
            memo.keep(DemoResponse(status: 200, body: Array(repeating: 0x41, count: 2_000)), for: "big")
            #expect(memo.answer(for: "big") == nil)
        }
    }
}
