import DemoUpstream
import Foundation
import Testing
import UpstreamEconomy

@testable import Catalog

/// Each injected fault kind surfaces as the right `UpstreamError`, with the retry count
/// visible in DemoUpstream's request log. The test client tries twice, 2.5 s per try; the
/// timeout tests use one try of 800 ms against answers that never come or come after 2.5 s.
extension LoopbackTests {
    @Suite struct Fault {
        @Test func serverErrorIsRetriedThenReported() async throws {
            try await Loopback.run { lb in
                try await lb.setFaults(#"{"/youtube": {"status": 503}}"#)
                let youtube = YouTubeProvider(baseURL: lb.baseURL, key: "k", transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .youTube,
                        kind: .httpStatus(code: 503, bodySummary: "The service is currently unavailable."),
                        status: 503, upstreamPath: "/youtube/v3/search")
                ) { try await youtube.search(query: "Queen") }
                let log = try await lb.requestLog()
                #expect(log.entries.map(\.status) == [503, 503])
            }
        }

        @Test func rateLimitHonoursRetryAfter() async throws {
            try await Loopback.run { lb in
                try await lb.setFaults(#"{"/3/": {"status": 429, "retryAfter": 1}}"#)
                let tmdb = TMDBProvider(baseURL: lb.baseURL, apiKey: "k", transport: lb.transport)
                let start = ContinuousClock.now
                await #expect(
                    throws: UpstreamError(
                        service: .tmdb, kind: .quotaExceeded, status: 429, retryAfterSeconds: 1,
                        upstreamPath: "/3/search/movie")
                ) {
                    try await tmdb.searchMovies(query: "x")
                }
                #expect(ContinuousClock.now - start >= .milliseconds(1_000))
                #expect(try await lb.requestLog().entries.map(\.status) == [429, 429])
            }
        }

        @Test func hangIsATimeout() async throws {
            try await Loopback.run(maxTries: 1, timeoutMs: 800) { lb in
                try await lb.setFaults(#"{"/lookup": {"hang": true}}"#)
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                await #expect(throws: UpstreamError(service: .iTunes, kind: .timeout, upstreamPath: "/lookup")) {
                    try await itunes.lookupTracks(albumIds: ["200001"])
                }
                // Held open by the demo until the client gave up; the server then saw the close and
                // cancelled the hang, which logs its 504 (before, it slept on for `hangLimitMs`).
                var statuses = try await lb.requestLog().entries.map(\.status)
                for _ in 0..<200 where statuses == [0] {
                    try await Task.sleep(for: .milliseconds(10))
                    statuses = try await lb.requestLog().entries.map(\.status)
                }
                #expect(statuses == [504])
            }
        }

        @Test func slowAnswersTimeOutOnlyPastTheClientTimeout() async throws {
            try await Loopback.run(maxTries: 1) { lb in
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                let impatient = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport(timeoutMs: 800))
                try await lb.setFaults(#"{"/search": {"latencyMs": 100}}"#)
                #expect(try await itunes.searchArtists(term: "Queen").map(\.name) == ["Queen"])
                try await lb.setFaults(#"{"/search": {"latencyMs": 2500}}"#)
                await #expect(throws: UpstreamError(service: .iTunes, kind: .timeout, upstreamPath: "/search")) {
                    try await impatient.searchArtists(term: "Queen")
                }
            }
        }

        @Test func truncatedMalformedAndHTMLBodiesAreBadResponses() async throws {
            try await Loopback.run { lb in
                try await lb.setFaults(
                    #"{"/v1/": {"truncated": true}, "/services/": {"malformed": true}, "/search": {"html": true}}"#)
                let apple = AppleMusicProvider(baseURL: lb.baseURL, token: "t", transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .appleMusic, kind: .badResponse(reason: "body is not valid JSON"), status: 200,
                        upstreamPath: "/v1/catalog/us/albums/200001")
                ) {
                    try await apple.album(id: "200001")
                }
                let rakuten = RakutenProvider(baseURL: lb.baseURL, applicationId: "k", transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .rakuten, kind: .badResponse(reason: "body is not valid JSON"), status: 200,
                        upstreamPath: "/services/api/BooksCD/Search/20170404")
                ) {
                    try await rakuten.search(artistName: "Queen")
                }
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .iTunes, kind: .badResponse(reason: "HTML page instead of JSON"), status: 200,
                        upstreamPath: "/search")
                ) {
                    try await itunes.searchArtists(term: "Queen")
                }
                #expect(try await lb.requestLog().entries.count == 3)  // 200s are not retried
            }
        }

        @Test func htmlErrorPageWithStatus() async throws {
            try await Loopback.run { lb in
                try await lb.setFaults(#"{"/lookup": {"html": true, "status": 503}}"#)
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .iTunes,
                        kind: .httpStatus(
                            code: 503, bodySummary: "Error Your request produced an error. [newNullResponse]"),
                        status: 503, upstreamPath: "/lookup")
                ) { try await itunes.lookupAlbums(ids: ["200001"]) }
            }
        }

        @Test func statusFaultsSpeakEachServicesErrorFormat() async throws {
            try await Loopback.run { lb in
                try await lb.setFaults(
                    #"{"/search": {"status": 403}, "/v1/": {"status": 401}, "/youtube": {"status": 400}, "/services/": {"status": 429}, "/3/": {"status": 404}}"#
                )
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                await #expect(
                    throws: UpstreamError(service: .iTunes, kind: .quotaExceeded, status: 403, upstreamPath: "/search")
                ) {
                    try await itunes.searchArtists(term: "x")
                }
                let apple = AppleMusicProvider(baseURL: lb.baseURL, token: "t", transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .appleMusic, kind: .authFailed, status: 401, upstreamPath: "/v1/catalog/us/search")
                ) {
                    try await apple.searchAlbums(term: "x")
                }
                let youtube = YouTubeProvider(baseURL: lb.baseURL, key: "k", transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .youTube, kind: .authFailed, status: 400, upstreamPath: "/youtube/v3/search")
                ) {
                    try await youtube.search(query: "x")
                }
                let rakuten = RakutenProvider(baseURL: lb.baseURL, applicationId: "k", transport: lb.transport)
                await #expect(
                    throws: UpstreamError(
                        service: .rakuten, kind: .quotaExceeded, status: 429,
                        upstreamPath: "/services/api/BooksCD/Search/20170404")
                ) {
                    try await rakuten.search(artistName: "x")
                }
                let tmdb = TMDBProvider(baseURL: lb.baseURL, apiKey: "k", transport: lb.transport)
                #expect(try await tmdb.movieVideos(movieId: "500001").isEmpty)  // 404 status 34: no videos
                // 403, 401, 400, 404 are final; 429 was retried once.
                #expect(try await lb.requestLog().entries.map(\.status) == [403, 401, 400, 429, 429, 404])
            }
        }

        @Test func everyNthFailsOnlyThoseRequests() async throws {
            try await Loopback.run { lb in
                try await lb.setFaults(#"{"/search": {"status": 503, "everyNth": 2}}"#)
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                #expect(try await itunes.searchArtists(term: "Queen").count == 1)
                #expect(try await itunes.searchArtists(term: "Queen").count == 1)  // 503, then retried
                #expect(try await lb.requestLog().entries.map(\.status) == [200, 503, 200])
            }
        }

        @Test func anOversizedAnswerIsResponseTooLargeAndNotRetried() async throws {
            try await Loopback.run { lb throws in
                var configuration = Loopback.clientConfiguration()
                configuration.maxResponseBytes = 512
                let small = HTTPClientTransport(client: .init(configuration: configuration))
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: small)
                // Queen's albums are a few kB: libcurl stops reading at 512 bytes.
                await #expect(
                    throws: UpstreamError(
                        service: .iTunes, kind: .responseTooLarge(limitBytes: 512), upstreamPath: "/search")
                ) { try await itunes.searchAlbums(term: "Queen", limit: 25) }
                #expect(try await lb.requestLog().entries.count == 1)
            }
        }

        @Test func connectionRefusedIsUnreachable() async throws {
            let port = try await Loopback.run { lb in lb.server.port }
            let client = HTTPClientTransport(client: .init(configuration: Loopback.clientConfiguration()))
            let itunes = ITunesProvider(baseURL: "http://127.0.0.1:\(port)", transport: client)
            do {
                _ = try await itunes.searchArtists(term: "Queen")
                Issue.record("expected a connection failure")
            } catch {
                #expect(error.code == "UPSTREAM_UNREACHABLE")
                #expect(error.status == nil)
            }
        }
    }
}
