import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// Upstream failures at the GraphQL level: a field error at the failing field's path with
    /// the service's code, every other field intact; keys never in a response.
    @Suite struct GatewayFaults {
        static let query =
            #"{ artist(name: "AC/DC") { name albums(first: 1) { title tracks { title videos(first: 1) { title } } } } }"#

        @Test func youTube503NullsOnlyTheVideoLists() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/youtube": {"status": 503}}"#)
                let response = try await h.query(Self.query)
                let data = try #require(response.result.data)
                #expect(data["artist", "name"] == .string("AC/DC"))
                #expect(data["artist", "albums", 0, "title"] == .string("For Those About To Rock We Salute You"))
                let tracks = try #require(data["artist", "albums", 0, "tracks"]?.arrayCount)
                #expect(tracks == 10)
                #expect(
                    data["artist", "albums", 0, "tracks", 0, "title"]
                        == .string("For Those About To Rock (We Salute You)"))
                #expect(data["artist", "albums", 0, "tracks", 0, "videos"] == .null)
                #expect(response.result.errors.count == 10)
                let paths = response.result.errors.compactMap { $0.path?.map(\.description).joined(separator: ".") }
                #expect(paths == (0..<10).map { "artist.albums.0.tracks.\($0).videos" })
                for error in response.result.errors {
                    #expect(error.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
                    #expect(error.extensions["service"] == .string("youtube"))
                    #expect(error.extensions["status"] == .int(503))
                }
            }
        }

        /// Issue 16: a huge body was "youtube is unreachable". libcurl stops reading at the
        /// client's 8 MiB; the error says so, names the path, and the call is not tried again.
        @Test func anOversizedUpstreamBodyIsResponseTooLargeAtEachPathAndNotRetried() async throws {
            try await GatewayHarness.configured({ $0.upstreamMaxTries = 2 }).run { h in
                try await h.loopback.setFaults(#"{"/youtube": {"padBytes": 8388609}}"#)
                let response = try await h.query(Self.query)
                let data = try #require(response.result.data)
                #expect(data["artist", "albums", 0, "tracks"]?.arrayCount == 10)
                #expect(data["artist", "albums", 0, "tracks", 0, "videos"] == .null)
                let paths = response.result.errors.compactMap { $0.path?.map(\.description).joined(separator: ".") }
                #expect(paths == (0..<10).map { "artist.albums.0.tracks.\($0).videos" })
                for error in response.result.errors {
                    #expect(
                        error.message
                            == "youtube sent a response larger than 8388608 bytes, the most read from one upstream answer"
                    )
                    #expect(error.extensions["code"] == .string("UPSTREAM_RESPONSE_TOO_LARGE"))
                    #expect(error.extensions["service"] == .string("youtube"))
                    #expect(error.extensions["upstreamPath"] == .string("/youtube/v3/search"))
                }
                let searches = try await h.loopback.requestLog().entries.filter { $0.path == "/youtube/v3/search" }
                #expect(searches.count == 10)
            }
        }

        @Test func aBodyThatIsNotTheAPIsJSONIsABadResponseAtItsPath() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/youtube": {"html": true}}"#)
                let response = try await h.query(Self.query)
                #expect(response.result.data?["artist", "albums", 0, "tracks", 9, "title"] != nil)
                #expect(response.result.errors.count == 10)
                for error in response.result.errors {
                    #expect(error.extensions["code"] == .string("UPSTREAM_BAD_RESPONSE"))
                    #expect(error.extensions["service"] == .string("youtube"))
                    #expect(error.extensions["upstreamPath"] == .string("/youtube/v3/search"))
                    #expect(error.extensions["status"] == .int(200))
                }
            }
        }

        @Test func posterSizesOutsideTMDBsListAreRefusedNotPastedIntoTheURL() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ movies(query: "Alien", first: 1) { good: posterUrl(size: "w92") bad: posterUrl(size: "../../x?y=z") } }"#
                )
                let good = try #require(response.result.data?["movies", 0, "good"])
                guard case .string(let url) = good else {
                    Issue.record("no poster URL: \(good)")
                    return
                }
                #expect(url.hasPrefix("https://image.tmdb.org/t/p/w92/"))
                #expect(response.result.data?["movies", 0, "bad"] == .null)
                #expect(response.result.errors.count == 1)
                #expect(response.result.errors.first?.path?.map(\.description) == ["movies", "0", "bad"])
                #expect(response.result.errors.first?.extensions["code"] == .string("BAD_USER_INPUT"))
            }
        }

        @Test func rootListSizesOutsideTheDocumentedRangeAreRefused() async throws {
            try await GatewayHarness.run { h in
                let one = try await h.query(#"{ one: artists(name: "Iron Maiden", first: 1) { name } }"#)
                #expect(one.result.data?["one"] == .array([.object(JSONObject([("name", .string("Iron Maiden"))]))]))
                try await h.loopback.clearLog()
                let cases = [
                    ("zero", #"zero: artists(name: "x", first: 0) { name }"#, "first must be between 1 and 50; got 0."),
                    ("big", #"big: albums(term: "x", first: 51) { title }"#, "first must be between 1 and 50; got 51."),
                    (
                        "negative", #"negative: videos(query: "x", first: -1) { title }"#,
                        "first must be between 1 and 50; got -1."
                    ),
                    (
                        "movies", #"movies: movies(query: "x", first: 21) { title }"#,
                        "first must be between 1 and 20; got 21."
                    ),
                ]
                for (key, field, message) in cases {
                    // The root lists are non-null (issue #6), so the refused field's null reaches `data`.
                    let response = try await h.query("{ \(field) }")
                    #expect(response.result.data == .null, "\(key)")
                    #expect(response.result.errors.map(\.message) == [message])
                    #expect(response.result.errors.first?.path?.map(\.description) == [key])
                    #expect(response.result.errors.first?.extensions["code"] == .string("BAD_USER_INPUT"))
                }
                #expect(try await h.loopback.requestLog().entries.count == 0)
            }
        }

        @Test func nestedListSizesOutsideTheDocumentedRangeAreRefused() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { name none: albums(first: 0) { title } "#
                        + #"two: albums(first: 2) { title tracks { title zero: videos(first: 0) { title } "#
                        + #"many: videos(first: 51) { title } } } } }"#)
                let data = try #require(response.result.data)
                #expect(data["artist", "name"] == .string("AC/DC"))
                #expect(data["artist", "none"] == .null)
                #expect(data["artist", "two"]?.arrayCount == 2)
                #expect(data["artist", "two", 0, "tracks", 0, "zero"] == .null)
                #expect(data["artist", "two", 0, "tracks", 0, "many"] == .null)
                let messages = Set(response.result.errors.map(\.message))
                #expect(
                    messages == [
                        "first must be between 1 and 200; got 0.", "first must be between 1 and 50; got 0.",
                        "first must be between 1 and 50; got 51.",
                    ])
                #expect(response.result.errors.allSatisfy { $0.extensions["code"] == .string("BAD_USER_INPUT") })
                #expect(response.result.errors.first?.path?.map(\.description) == ["artist", "none"])
                // No YouTube search was made for the refused videos fields.
                #expect(try await h.loopback.requestLog().entries.map(\.path).contains("/youtube/v3/search") == false)
            }
        }

        @Test func aMissingKeyFailsOnlyThatProvider() async throws {
            try await GatewayHarness.configured({ $0.youTubeAPIKey = nil }).run { h in
                let response = try await h.query(Self.query)
                #expect(response.result.data?["artist", "albums", 0, "tracks"]?.arrayCount == 10)
                #expect(response.result.errors.count == 10)
                #expect(response.result.errors.first?.message == "youtube is not configured (no key or token)")
                #expect(response.result.errors.first?.extensions["code"] == .string("UPSTREAM_NOT_CONFIGURED"))
                // iTunes: 1 search, 1 albums lookup, 1 songs lookup; YouTube never called.
                #expect(try await h.loopback.requestLog().entries.map(\.path) == ["/search", "/lookup", "/lookup"])
            }
        }

        @Test func canaryKeysNeverReachAResponse() async throws {
            let canary = "CANARY-gw-7c41e9d2"
            try await GatewayHarness.configured({
                $0.youTubeAPIKey = canary
                $0.tmdbAPIKey = canary
                $0.appleMusicToken = canary
                $0.rakutenApplicationId = canary
            }).run { h in
                let everything = #"""
                    { artist(name: "AC/DC") { albums(first: 1) { tracks { videos(first: 1) { title } } } }
                      a: artists(name: "AC/DC", source: APPLE_MUSIC) { name }
                      r: albums(term: "Rock", source: RAKUTEN, first: 1) { title }
                      movies(query: "Rock") { title }
                      videos(query: "AC/DC") { title } }
                    """#
                var texts: [String] = []
                for fault in [#"{"/": {"status": 500}}"#, #"{"/": {"status": 401}}"#, #"{"/": {"html": true}}"#, "{}"] {
                    try await h.loopback.setFaults(fault)
                    let response = try await h.query(everything)
                    texts.append(String(decoding: response.serialized(), as: UTF8.self))
                }
                let log = try await h.loopback.requestLog().text
                #expect(log.contains("key=***"))
                texts.append(log)
                for text in texts { #expect(!text.contains(canary)) }
                #expect(texts[0].contains("UPSTREAM_HTTP_ERROR"))
                #expect(texts[1].contains("UPSTREAM_AUTH_FAILED"))
            }
        }

        @Test func aQueryOverTheCostLimitIsRefusedBeforeAnyRequest() async throws {
            try await GatewayHarness.configured({ $0.maxQueryCost = 1_000 }).run { h in
                let response = try await h.query(GatewayRequestCounts.ironMaiden)
                #expect(response.refused)
                #expect(response.result.data == nil)
                #expect(
                    response.result.errors.map(\.message) == [
                        "Query refused: its estimated upstream cost is 37503, over the limit of 1000 (the schema's @cost weights: "
                            + "a YouTube search 100, other calls 1; lower `first` arguments or select fewer nested lists)."
                    ])
                #expect(response.result.errors.first?.extensions["code"] == .string("QUERY_COST_EXCEEDED"))
                #expect(
                    response.extensions["cost"]
                        == .object(JSONObject([("estimated", .int(37_503)), ("actual", .int(0))])))
                #expect(try await h.loopback.requestLog().entries.count == 0)
                // A cheap query still runs under the same limit.
                let cheap = try await h.query(#"{ artist(name: "AC/DC") { name } }"#)
                #expect(!cheap.refused)
                #expect(cheap.estimatedCost == 1)
            }
        }
    }
}
