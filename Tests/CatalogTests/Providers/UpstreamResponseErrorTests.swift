import Catalog
import Testing
import UpstreamEconomy

/// A 200 whose body is not the API's JSON is `UPSTREAM_BAD_RESPONSE` for every provider, and
/// an oversized body `UPSTREAM_RESPONSE_TOO_LARGE`, each naming the service and the path.
@Suite struct UpstreamResponseErrorTests {
    typealias Call = @Sendable (any UpstreamTransport) async throws(UpstreamError) -> Void

    /// One call per provider API shape, with the path it asks for.
    static let calls: [(String, UpstreamService, String, Call)] = [
        (
            "itunes search", .iTunes, "/search",
            { t throws(UpstreamError) in
                _ = try await ITunesProvider(transport: t).searchArtists(term: "x")
            }
        ),
        (
            "itunes lookup", .iTunes, "/lookup",
            { t throws(UpstreamError) in
                _ = try await ITunesProvider(transport: t).lookupAlbums(ids: ["1"])
            }
        ),
        (
            "apple music search", .appleMusic, "/v1/catalog/us/search",
            { t throws(UpstreamError) in
                _ = try await AppleMusicProvider(token: "token", transport: t).searchAlbums(term: "x")
            }
        ),
        (
            "apple music albums", .appleMusic, "/v1/catalog/us/albums",
            { t throws(UpstreamError) in
                _ = try await AppleMusicProvider(token: "token", transport: t).albums(ids: ["1"])
            }
        ),
        (
            "rakuten", .rakuten, "/services/api/BooksCD/Search/20170404",
            { t throws(UpstreamError) in
                _ = try await RakutenProvider(applicationId: "app-id", transport: t).search(artistName: "x")
            }
        ),
        (
            "youtube search", .youTube, "/youtube/v3/search",
            { t throws(UpstreamError) in
                _ = try await YouTubeProvider(key: "key-1", transport: t).search(query: "x")
            }
        ),
        (
            "youtube videos", .youTube, "/youtube/v3/videos",
            { t throws(UpstreamError) in
                _ = try await YouTubeProvider(key: "key-1", transport: t).videos(ids: ["a"])
            }
        ),
        (
            "tmdb search", .tmdb, "/3/search/movie",
            { t throws(UpstreamError) in
                _ = try await TMDBProvider(apiKey: "key-1", transport: t).searchMovies(query: "x")
            }
        ),
        (
            "tmdb movie", .tmdb, "/3/movie/550",
            { t throws(UpstreamError) in
                _ = try await TMDBProvider(apiKey: "key-1", transport: t).movie(id: "550")
            }
        ),
    ]

    static let notTheAPIsJSON = [
        "", "not json", "{}", #"{"results": "x", "items": 3, "data": {}}"#, "[]", "[1,2]", "\"text\"", "42", "null",
        "<html>oops</html>",
    ]

    @Test(arguments: 0..<calls.count)
    func aBodyThatIsNotTheAPIsJSONIsABadResponse(call index: Int) async {
        let (name, service, path, call) = Self.calls[index]
        for body in Self.notTheAPIsJSON {
            let transport = CannedTransport(status: 200, body: Array(body.utf8))
            do {
                try await call(transport)
                Issue.record("\(name) accepted \(body.debugDescription)")
            } catch {
                #expect(error.code == "UPSTREAM_BAD_RESPONSE", "\(name), body \(body.debugDescription): \(error)")
                #expect(error.service == service)
                #expect(error.upstreamPath == path, "\(name)")
                #expect(error.extensions["upstreamPath"] == .string(path))
                #expect(error.extensions["service"] == .string(service.rawValue))
            }
        }
    }

    @Test(arguments: 0..<calls.count)
    func anOversizedBodyIsResponseTooLarge(call index: Int) async {
        let (name, service, path, call) = Self.calls[index]
        let transport = CannedTransport(.failure(.responseTooLarge(limitBytes: 8 << 20)))
        do {
            try await call(transport)
            Issue.record("\(name) succeeded")
        } catch {
            #expect(error.code == "UPSTREAM_RESPONSE_TOO_LARGE")
            #expect(error.kind == .responseTooLarge(limitBytes: 8 << 20))
            #expect(error.service == service)
            #expect(error.upstreamPath == path)
            #expect(
                error.clientMessage
                    == "\(service) sent a response larger than 8388608 bytes, the most read from one upstream answer")
        }
    }
}
