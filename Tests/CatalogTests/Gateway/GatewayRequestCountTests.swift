import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// The issue's lower bound, checked against DemoUpstream's request log: the nested Iron
    /// Maiden query costs 1 artist search + 1 albums lookup + ⌈21 / 200⌉ songs lookups + one
    /// YouTube search per distinct "artist title" (150 of 213 tracks); repeated, nothing.
    @Suite struct GatewayRequestCounts {
        static let ironMaiden =
            #"{ artist(name: "Iron Maiden") { name albums { title tracks { title videos(first: 1) { title url } } } } }"#

        @Test func ironMaidenMakesExactlyTheLowerBoundThenNothing() async throws {
            try await GatewayHarness.run { h in
                let first = try await h.query(Self.ironMaiden)
                #expect(first.result.errors == [])
                let data = try #require(first.result.data)
                #expect(data["artist", "name"] == .string("Iron Maiden"))
                let albums = try #require(data["artist", "albums"])
                #expect(albums.arrayCount == 21)
                var tracks = 0
                var withVideo = 0
                for a in 0..<21 {
                    let count = albums[a, "tracks"]?.arrayCount ?? 0
                    tracks += count
                    for t in 0..<count where albums[a, "tracks", t, "videos"]?.arrayCount == 1 { withVideo += 1 }
                }
                #expect(tracks == 213)
                #expect(withVideo == 213)

                let log = try await h.loopback.requestLog().entries
                #expect(log.count == 153)
                #expect(log.filter { $0.path == "/search" }.count == 1)
                #expect(log.filter { $0.path == "/lookup" && $0.query.contains("entity=album") }.count == 1)
                #expect(log.filter { $0.path == "/lookup" && $0.query.contains("entity=song") }.count == 1)
                #expect(log.filter { $0.path == "/youtube/v3/search" }.count == 150)
                #expect(first.counts.totalRequests == 153)
                #expect(first.counts.cacheHits == 0)
                #expect(first.estimatedCost == 37_503)
                #expect(first.counts.cost == 15_003)
                #expect(
                    first.extensions
                        == JSONObject([
                            ("cost", .object(JSONObject([("estimated", .int(37_503)), ("actual", .int(15_003))]))),
                            (
                                "upstream",
                                .object(
                                    JSONObject([
                                        ("requests", .int(153)), ("cacheHits", .int(0)), ("deduplicated", .int(0)),
                                    ]))
                            ),
                            ("quota", .object(JSONObject())),
                        ]))

                try await h.loopback.clearLog()
                let again = try await h.query(Self.ironMaiden)
                #expect(again.result.data == first.result.data)
                #expect(try await h.loopback.requestLog().entries.count == 0)
                #expect(again.counts.totalRequests == 0)
                #expect(again.counts.cacheHits == 153)
                #expect(again.counts.cost == 0)
            }
        }

        /// The estimate counts an artist's albums once per artist where the catalog asks per
        /// artist (Apple Music `artists/{id}/albums`, Rakuten's search by name): before, it
        /// counted them as one iTunes batch, 2 units for a query that sent 26 requests.
        @Test(arguments: ["APPLE_MUSIC", "RAKUTEN"])
        func anArtistsAlbumsAreEstimatedOncePerArtistWhereTheCatalogAsksPerArtist(source: String) async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ artists(name: "a", first: 50, source: \#(source)) { name albums { id } } }"#)
                #expect(response.result.errors == [])
                let artists = try #require(response.result.data?["artists"]?.arrayCount)
                #expect(artists >= 20)
                #expect(response.counts.totalRequests == 1 + artists)
                #expect(response.estimatedCost == 1 + 50)
                #expect(response.estimatedCost >= response.counts.cost)
            }
        }

        @Test func aNameAloneIsOneRequest() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(#"{ artist(name: "AC/DC") { name } }"#)
                #expect(
                    response.result.json
                        == .object(
                            JSONObject([
                                (
                                    "data",
                                    .object(JSONObject([("artist", .object(JSONObject([("name", .string("AC/DC"))])))]))
                                )
                            ])))
                let log = try await h.loopback.requestLog().entries
                #expect(log.count == 1)
                #expect(log.first?.path == "/search")
                #expect(log.first?.query == "term=AC%2FDC&media=music&entity=musicArtist&limit=1&country=US")
            }
        }

        @Test func everyTryOfARetriedCallIsCountedAndCosted() async throws {
            try await GatewayHarness.configured({ $0.upstreamMaxTries = 2 }).run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search":{"status":503}}"#)
                let response = try await h.query(#"{ videos(query: "Back in Black", first: 1) { title } }"#)
                #expect(response.result.errors.first?.extensions["code"] == .string("UPSTREAM_HTTP_ERROR"))
                #expect(try await h.loopback.requestLog().entries.count == 2)
                #expect(response.counts.requests == ["youtube": ["http_error": 1, "retried": 1]])
                #expect(response.counts.cost == 200)
            }
        }

        @Test func aTryThatWasRetriedIsCountedApartFromTheOutcome() async throws {
            try await GatewayHarness.configured({ $0.upstreamMaxTries = 2 }).run { h in
                // Every second YouTube request fails: the first query's is the first (answered), the
                // second query's first try is the second (503), and its retry the third (answered).
                try await h.loopback.setFaults(#"{"/youtube/v3/search":{"status":503,"everyNth":2}}"#)
                let first = try await h.query(#"{ videos(query: "Back in Black", first: 1) { title } }"#)
                #expect(first.counts.requests == ["youtube": ["ok": 1]])
                let second = try await h.query(#"{ videos(query: "Thunderstruck", first: 1) { title } }"#)
                #expect(second.result.errors == [])
                #expect(second.counts.requests == ["youtube": ["ok": 1, "retried": 1]])
                #expect(second.counts.totalRequests == 2)
                #expect(second.counts.cost == 200)
                #expect(try await h.loopback.requestLog().entries.map(\.status) == [200, 503, 200])
            }
        }

        @Test func cachingOffMeansEveryRepeatGoesUpstream() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                _ = try await h.query(#"{ artist(name: "AC/DC") { name } }"#)
                let again = try await h.query(#"{ artist(name: "AC/DC") { name } }"#)
                #expect(again.counts.totalRequests == 1)
                #expect(try await h.loopback.requestLog().entries.count == 2)
            }
        }
    }
}
