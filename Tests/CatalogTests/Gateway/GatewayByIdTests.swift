import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// `artist(id:)`, `album(id:)`, `track(id:)` and `node(id:)` for every provider's ids, over
    /// real HTTP to DemoUpstream: exact values from the demo catalog, and the requests each
    /// upstream's by-id read costs (batched where the API batches: ⌈N / limit⌉ requests).
    @Suite struct GatewayById {
        /// `{ a0: field(id: "…") { selection } a1: … }` for every id.
        static func aliased(_ field: String, _ ids: [String], _ selection: String) -> String {
            "{ " + ids.enumerated().map { "a\($0): \(field)(id: \"\($1)\") { \(selection) }" }.joined(separator: " ")
                + " }"
        }

        /// The `ids=` list of each logged request to `path`, as counts, in log order.
        static func idCounts(_ entries: [(path: String, query: String, status: Int)], path: String) -> [Int] {
            entries.filter { $0.path == path }.map { entry in
                let ids = entry.query.split(separator: "&").first { $0.hasPrefix("ids=") }?.dropFirst(4) ?? ""
                return ids.split(separator: ",").count
            }
        }

        @Test func appleMusicArtistsAndSongs() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"""
                    { a: artist(id: "applemusic:artist:100001") { id name genre url }
                      b: node(id: "applemusic:artist:100088") { id ... on Artist { name } }
                      missing: artist(id: "applemusic:artist:1") { name }
                      t: track(id: "applemusic:track:300001") {
                        id title trackNumber discNumber durationMs artistName previewUrl
                        album { id title copyright releaseDate trackCount } } }
                    """#)
                #expect(response.result.errors == [])
                let data = try #require(response.result.data)
                #expect(
                    data["a"]
                        == .object(
                            JSONObject([
                                ("id", .string("applemusic:artist:100001")), ("name", .string("AC/DC")),
                                ("genre", .string("Rock")),
                                ("url", .string("https://music.demo.invalid/us/artist/ac-dc/100001")),
                            ])))
                #expect(data["b", "name"] == .string("Guns N' Roses"))
                #expect(data["missing"] == .null)
                #expect(
                    data["t"]
                        == .object(
                            JSONObject([
                                ("id", .string("applemusic:track:300001")),
                                ("title", .string("For Those About To Rock (We Salute You)")),
                                ("trackNumber", .int(1)), ("discNumber", .int(1)), ("durationMs", .int(343_719)),
                                ("artistName", .string("AC/DC")),
                                (
                                    "previewUrl",
                                    .string(
                                        "https://audio.demo.invalid/itunes-assets/AudioPreview/v4/300001/preview.plus.aac.p.m4a"
                                    )
                                ),
                                (
                                    "album",
                                    .object(
                                        JSONObject([
                                            ("id", .string("applemusic:album:200001")),
                                            ("title", .string("For Those About To Rock We Salute You")),
                                            ("copyright", .string("℗ 1970 AC/DC")),
                                            ("releaseDate", .string("1970-02-18")),
                                            ("trackCount", .int(10)),
                                        ]))
                                ),
                            ])))
                // One batch per endpoint and level: the three artists together, then the song's album.
                let log = try await h.loopback.requestLog().entries
                #expect(
                    log.map { "\($0.path)?\($0.query)" } == [
                        "/v1/catalog/us/artists?ids=1,100001,100088", "/v1/catalog/us/songs?ids=300001",
                        "/v1/catalog/us/albums?ids=200001",
                    ]
                        || log.map { "\($0.path)?\($0.query)" } == [
                            "/v1/catalog/us/songs?ids=300001", "/v1/catalog/us/artists?ids=1,100001,100088",
                            "/v1/catalog/us/albums?ids=200001",
                        ])
                #expect(log.allSatisfy { $0.status == 200 })
            }
        }

        @Test func appleMusicBatchesAtTheDocumentedLimits() async throws {
            try await GatewayHarness.run { h in
                // Artists 25 per request, songs 300, albums 100: N ids → ⌈N / limit⌉ requests.
                let artists = (1...30).map { "applemusic:artist:\(100_000 + $0)" }
                let songs = (1...301).map { "applemusic:track:\(300_000 + $0)" }
                let albums = (1...101).map { "applemusic:album:\(200_000 + $0)" }
                let a = try await h.query(Self.aliased("artist", artists, "name"))
                #expect(a.result.errors == [])
                #expect(a.result.data?["a0", "name"] == .string("AC/DC"))
                #expect(a.result.data?["a29", "name"] == .string("Jorge Vercilo"))
                let s = try await h.query(Self.aliased("track", songs, "title"))
                #expect(s.result.errors == [])
                #expect(s.result.data?["a300", "title"] == .string("A Sombra Da Maldade"))
                let b = try await h.query(Self.aliased("album", albums, "title"))
                #expect(b.result.errors == [])
                #expect(b.result.data?["a100", "title"] == .string("Killers"))
                let log = try await h.loopback.requestLog().entries
                #expect(log.count == 6)
                #expect(Self.idCounts(log, path: "/v1/catalog/us/artists").sorted() == [5, 25])
                #expect(Self.idCounts(log, path: "/v1/catalog/us/songs").sorted() == [1, 300])
                #expect(Self.idCounts(log, path: "/v1/catalog/us/albums").sorted() == [1, 100])
                #expect(a.counts.totalRequests == 2)
                #expect(s.counts.totalRequests == 2)
                #expect(b.counts.totalRequests == 2)
            }
        }

        @Test func rakutenReleasesByJANOneRequestEach() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"""
                    { r: album(id: "rakuten:album:4900010000007") {
                        id title artistName releaseDate trackCount copyright source tracks { id title } }
                      t: track(id: "rakuten:track:4900010000007-2") { id title trackNumber album { id title } }
                      n: node(id: "rakuten:album:4900010000014") { id ... on Album { title } }
                      unknown: album(id: "rakuten:album:4999999999999") { title }
                      badTrack: track(id: "rakuten:track:4900010000007-99") { title } }
                    """#)
                #expect(response.result.errors == [])
                let data = try #require(response.result.data)
                #expect(data["r", "id"] == .string("rakuten:album:4900010000007"))
                #expect(data["r", "title"] == .string("For Those About To Rock We Salute You"))
                #expect(data["r", "artistName"] == .string("AC/DC"))
                #expect(data["r", "releaseDate"] == .string("1970-02-18"))
                #expect(data["r", "trackCount"] == .int(10))
                #expect(data["r", "copyright"] == .null)  // Rakuten Books sends no copyright line
                #expect(data["r", "source"] == .string("RAKUTEN"))
                #expect(data["r", "tracks"]?.arrayCount == 10)
                #expect(
                    data["r", "tracks", 9]
                        == .object(
                            JSONObject([
                                ("id", .string("rakuten:track:4900010000007-10")), ("title", .string("Spellbound")),
                            ])))
                #expect(
                    data["t"]
                        == .object(
                            JSONObject([
                                ("id", .string("rakuten:track:4900010000007-2")),
                                ("title", .string("Put The Finger On You")),
                                ("trackNumber", .int(2)),
                                (
                                    "album",
                                    .object(
                                        JSONObject([
                                            ("id", .string("rakuten:album:4900010000007")),
                                            ("title", .string("For Those About To Rock We Salute You")),
                                        ]))
                                ),
                            ])))
                #expect(data["n", "title"] == .string("Balls to the Wall"))
                #expect(data["unknown"] == .null)
                #expect(data["badTrack"] == .null)
                // No multi-id endpoint: one search per distinct JAN (the album and its track share one).
                let log = try await h.loopback.requestLog().entries
                #expect(log.count == 3)
                #expect(log.allSatisfy { $0.path == "/services/api/BooksCD/Search/20170404" })
                #expect(
                    log.map { $0.query.split(separator: "&").first { $0.hasPrefix("jan=") } ?? "" }.sorted() == [
                        "jan=4900010000007", "jan=4900010000014", "jan=4999999999999",
                    ])
            }
        }

        @Test func tmdbMoviesOneRequestEach() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"""
                    { m: node(id: "tmdb:movie:500001") {
                        id ... on Movie { title originalTitle releaseDate voteAverage voteCount posterUrl(size: "w92") } }
                      again: node(id: "tmdb:movie:500001") { id }
                      other: node(id: "tmdb:movie:500002") { ... on Movie { title } }
                      unknown: node(id: "tmdb:movie:1") { id } }
                    """#)
                #expect(response.result.errors == [])
                let data = try #require(response.result.data)
                #expect(
                    data["m"]
                        == .object(
                            JSONObject([
                                ("id", .string("tmdb:movie:500001")), ("title", .string("AC/DC: The Story")),
                                ("originalTitle", .string("AC/DC: The Story")), ("releaseDate", .string("2015-11-15")),
                                ("voteAverage", .int(4)),  // Float 4.0, which the result map writes as JSON `4`
                                ("voteCount", .int(3229)),
                                ("posterUrl", .string("https://image.tmdb.org/t/p/w92/fnmxhhg3lI0Poster.jpg")),
                            ])))
                #expect(data["again", "id"] == .string("tmdb:movie:500001"))
                #expect(data["other", "title"] == .string("Alanis Morissette: The Story"))
                #expect(data["unknown"] == .null)
                let log = try await h.loopback.requestLog().entries
                #expect(log.map(\.path).sorted() == ["/3/movie/1", "/3/movie/500001", "/3/movie/500002"])
                #expect(log.allSatisfy { $0.query == "language=en-US&api_key=***" })

                // The search result carries the same vote count as the details.
                let search = try await h.query(#"{ movies(query: "AC/DC: The Story", first: 1) { id voteCount } }"#)
                #expect(
                    search.result.data?["movies"]
                        == .array([
                            .object(JSONObject([("id", .string("tmdb:movie:500001")), ("voteCount", .int(3229))]))
                        ]))
            }
        }

        @Test func iTunesMusicVideosByIdAndWhatCannotBeFetched() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"""
                    { v: node(id: "itunes:video:400004") { id ... on Video { title channelTitle url } }
                      w: node(id: "itunes:video:400008") { id }
                      tmdbVideo: node(id: "tmdb:video:iS7gpfybFTn") { id }
                      nonsense: node(id: "tmdb:album:1") { id }
                      wrongKind: album(id: "itunes:track:1") { id }
                      wrongKind2: track(id: "itunes:album:1") { id } }
                    """#)
                let data = try #require(response.result.data)
                #expect(
                    data["v"]
                        == .object(
                            JSONObject([
                                ("id", .string("itunes:video:400004")), ("title", .string("Restless and Wild")),
                                ("channelTitle", .string("Accept")),
                                (
                                    "url",
                                    .string("https://music.demo.invalid/us/music-video/restless-and-wild/400004?uo=4")
                                ),
                            ])))
                #expect(data["w", "id"] == .string("itunes:video:400008"))
                let errors = Dictionary(
                    uniqueKeysWithValues: response.result.errors.map {
                        ($0.path?.map(\.description).joined() ?? "", $0)
                    })
                #expect(errors.count == 4)
                #expect(
                    errors["tmdbVideo"]?.message
                        == "TMDB videos cannot be fetched by id: TMDB has no endpoint that reads one video by its key "
                        + "(only /3/movie/{id}/videos, a movie's list); reach them through `Movie.videos`.")
                #expect(errors["tmdbVideo"]?.extensions["code"] == .string("UNSUPPORTED"))
                #expect(
                    errors["nonsense"]?.message
                        == "'tmdb:album:1' names nothing: TMDB has no albums; album ids start with `itunes:`, `applemusic:` or `rakuten:`."
                )
                #expect(errors["wrongKind"]?.message == "'itunes:track:1' is a track id, not an album id.")
                #expect(errors["wrongKind2"]?.message == "'itunes:album:1' is an album id, not a track id.")
                for key in ["nonsense", "wrongKind", "wrongKind2"] {
                    #expect(errors[key]?.extensions["code"] == .string("BAD_USER_INPUT"))
                }
                // Both music videos in one lookup.
                let log = try await h.loopback.requestLog().entries
                #expect(log.map { "\($0.path)?\($0.query)" } == ["/lookup?id=400004,400008&country=US"])
            }
        }

        @Test func aMalformedITunesIdFailsAloneBeforeAnyRequest() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ a: album(id: "itunes:album:200004") { title } b: album(id: "itunes:album:abc") { title } "#
                        + #"c: track(id: "itunes:track:99999999999999999999") { title } d: node(id: "tmdb:movie:1x") { id } }"#
                )
                let data = try #require(response.result.data)
                #expect(data["a", "title"] == .string("Let There Be Rock"))
                #expect(data["b"] == .null)
                #expect(data["c"] == .null)
                #expect(data["d"] == .null)
                let errors = Dictionary(
                    uniqueKeysWithValues: response.result.errors.map {
                        ($0.path?.map(\.description).joined() ?? "", $0)
                    })
                #expect(
                    errors["b"]?.message
                        == "'itunes:album:abc' is not an album id iTunes issues: iTunes ids are decimal numbers of at most 18 digits."
                )
                #expect(
                    errors["c"]?.message
                        == "'itunes:track:99999999999999999999' is not a track id iTunes issues: "
                        + "iTunes ids are decimal numbers of at most 18 digits.")
                #expect(
                    errors["d"]?.message
                        == "'tmdb:movie:1x' is not a movie id TMDB issues: TMDB ids are decimal numbers of at most 18 digits."
                )
                for key in ["b", "c", "d"] { #expect(errors[key]?.extensions["code"] == .string("BAD_USER_INPUT")) }
                // Only the valid id went upstream.
                let log = try await h.loopback.requestLog().entries
                #expect(log.map { "\($0.path)?\($0.query)" } == ["/lookup?id=200004&country=US"])
            }
        }

        @Test func appleMusicArtistAlbumsNameTheirArtistByAFetchableId() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ artist(id: "applemusic:artist:100001") { albums(first: 1) { artist { id name genre } } } }"#)
                #expect(response.result.errors == [])
                let artist = try #require(response.result.data?["artist", "albums", 0, "artist"])
                #expect(
                    artist
                        == .object(
                            JSONObject([
                                ("id", .string("applemusic:artist:100001")), ("name", .string("AC/DC")),
                                ("genre", .string("Rock")),
                            ])))
            }
        }

        @Test func copyrightOfITunesAndAppleMusicAlbums() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"""
                    { i: album(id: "itunes:album:200004") { title copyright }
                      a: album(id: "applemusic:album:200004") { title copyright } }
                    """#)
                #expect(response.result.errors == [])
                let expected = JSONValue.object(
                    JSONObject([("title", .string("Let There Be Rock")), ("copyright", .string("℗ 1972 AC/DC"))]))
                #expect(response.result.data?["i"] == expected)
                #expect(response.result.data?["a"] == expected)
            }
        }

        @Test func appleMusicAlbumArtistIsReadThroughTheArtistsBatch() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"""
                    { a: album(id: "applemusic:album:200001") { artist { id name genre url } }
                      b: album(id: "applemusic:album:200004") { artist { id } }
                      c: album(id: "applemusic:album:200002") { artist { name } } }
                    """#)
                #expect(response.result.errors == [])
                #expect(
                    response.result.data?["a", "artist"]
                        == .object(
                            JSONObject([
                                ("id", .string("applemusic:artist:100001")), ("name", .string("AC/DC")),
                                ("genre", .string("Rock")),
                                ("url", .string("https://music.demo.invalid/us/artist/ac-dc/100001")),
                            ])))
                #expect(response.result.data?["b", "artist", "id"] == .string("applemusic:artist:100001"))
                #expect(response.result.data?["c", "artist", "name"] == .string("Accept"))
                let log = try await h.loopback.requestLog().entries
                #expect(
                    log.map { "\($0.path)?\($0.query)" } == [
                        "/v1/catalog/us/albums?ids=200001,200002,200004", "/v1/catalog/us/artists?ids=100001,100002",
                    ])
            }
        }

        /// The root lists are `[T!]!` as issue #6 gives them: a failing upstream still answers a
        /// clear error at the field's path, and the null propagates to `data` (spec §6.4.4).
        @Test func aFailingUpstreamUnderANonNullRootListNullsData() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/v1": {"status": 503}}"#)
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { name } albums(term: "Rock", source: APPLE_MUSIC) { title } }"#)
                #expect(response.result.data == .null)
                guard case .object(let body) = response.json else {
                    Issue.record("not an object: \(response.json)")
                    return
                }
                #expect(body["data"] == .null)
                let error = try #require(response.result.errors.first)
                #expect(response.result.errors.count == 1)
                #expect(error.path?.map(\.description) == ["albums"])
                #expect(error.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
                #expect(error.extensions["service"] == .string("applemusic"))
                #expect(error.extensions["status"] == .int(503))
            }
        }
    }
}
