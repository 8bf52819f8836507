import DemoUpstream
import Foundation
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// Unique canary strings as keys, each with the characters that change under some encoding
    /// (`" / \ + = %`): across every fault kind, an upstream echoing the credentials back
    /// included, no form of any (`CanaryForms`) may appear in an error (description, kind,
    /// GraphQL form) or in DemoUpstream's request log.
    @Suite struct Canary {
        static let canaries = [
            "youtube": #"CANARY-yt"5f/1d\0c+2b=%4"#, "tmdb": #"CANARY-tmdb"a9/3e\7+7=%9"#,
            "rakuten": #"CANARY-rk"0b/44\e+1=%2"#, "applemusic": #"CANARY-am"c2/d9\f+0=%z"#,
        ]

        static let faults = [
            #"{"/": {"status": 500}}"#, #"{"/": {"status": 503, "retryAfter": 0}}"#, #"{"/": {"status": 429}}"#,
            #"{"/": {"status": 400}}"#, #"{"/": {"status": 401}}"#, #"{"/": {"status": 403}}"#,
            #"{"/": {"status": 404}}"#,
            #"{"/": {"html": true}}"#, #"{"/": {"html": true, "status": 502}}"#, #"{"/": {"malformed": true}}"#,
            #"{"/": {"truncated": true}}"#, #"{"/": {"hang": true}}"#, #"{"/": {"latencyMs": 2500}}"#,
            #"{"/": {"echo": true}}"#, #"{"/": {"echo": true, "status": 500}}"#, "{}",
        ]

        @Test func keysNeverAppearInErrorsOrLogs() async throws {
            let c = Self.canaries
            var texts: [String] = []
            let refusedPort = try await Loopback.run { lb in lb.server.port }
            try await Loopback.run(maxTries: 1, timeoutMs: 1_000) { lb in
                for fault in Self.faults {
                    try await lb.setFaults(fault)
                    texts += await Self.callAll(baseURL: lb.baseURL, transport: lb.transport, canaries: c)
                }
                texts += await Self.callAll(
                    baseURL: "http://127.0.0.1:\(refusedPort)", transport: lb.transport, canaries: c)
                let log = try await lb.requestLog()
                #expect(log.entries.count == Self.faults.count * 4)
                #expect(log.text.contains("key=***"))
                #expect(log.text.contains("api_key=***"))
                #expect(log.text.contains("applicationId=***"))
                #expect(log.text.contains(#""authorization":"***""#))
                texts.append(log.text)
            }
            // Every fault round produced errors; the `{}` round normally none (a slow machine
            // may time one out), the refused round 4, plus the log.
            #expect(texts.count >= (Self.faults.count - 1) * 4 + 4 + 1)
            for text in texts {
                #expect(CanaryForms.leaks(of: Array(c.values), in: text).isEmpty, "canary leaked: \(text)")
            }
            // The echo rounds did echo (the upstream's message reached the error, masked).
            #expect(texts.contains { $0.contains("rejected: authorization=") && $0.contains("***") })
        }

        /// One call per keyed provider, concurrently; the texts of the errors they threw.
        static func callAll(baseURL: String, transport: HTTPClientTransport, canaries c: [String: String]) async
            -> [String]
        {
            let youtube = YouTubeProvider(baseURL: baseURL, key: c["youtube"], transport: transport)
            let tmdb = TMDBProvider(baseURL: baseURL, apiKey: c["tmdb"], transport: transport)
            let rakuten = RakutenProvider(baseURL: baseURL, applicationId: c["rakuten"], transport: transport)
            let apple = AppleMusicProvider(baseURL: baseURL, token: c["applemusic"], transport: transport)
            async let a = texts { () async throws(UpstreamError) in _ = try await youtube.search(query: "Queen") }
            async let b = texts { () async throws(UpstreamError) in _ = try await tmdb.searchMovies(query: "Queen") }
            async let d = texts { () async throws(UpstreamError) in _ = try await rakuten.search(artistName: "Queen") }
            async let e = texts { () async throws(UpstreamError) in _ = try await apple.searchAlbums(term: "Queen") }
            return await a + b + d + e
        }

        private static func texts(_ call: () async throws(UpstreamError) -> Void) async -> [String] {
            do {
                try await call()
                return []
            } catch {
                let gql = error.graphQLError(path: [.key("x")])
                return ["\(error) | \(String(reflecting: error)) | \(gql.message) | \(gql.extensions)"]
            }
        }
    }
}
