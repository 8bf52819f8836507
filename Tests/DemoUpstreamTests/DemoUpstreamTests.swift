import Foundation
import Testing

@testable import DemoUpstream

/// Every DemoUpstream suite, one test at a time: they are CPU-bound (debug-build searches
/// over the derived catalog), and running them all at once starves the timing-sensitive
/// HTTP tests that share the test process and its two cores.
@Suite(.serialized) enum DemoUpstreamSuite {}

/// Helpers for driving a DemoUpstream in-process (the catalog is loaded once per process).
enum Demo {
    static func make(_ options: DemoUpstream.Options = .init()) async throws -> DemoUpstream {
        try await DemoUpstream.make(options: options)
    }

    static func get(_ demo: DemoUpstream, _ path: String, _ query: String = "", headers: [String: String] = [:]) async
        -> DemoResponse
    {
        await demo.handle(DemoRequest(path: path, rawQuery: query, headers: headers))
    }

    /// The body parsed as JSON (tests only).
    static func json(_ response: DemoResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
    }
}

extension DemoUpstreamSuite {
    @Suite struct DemoCatalogTests {
        @Test func bundledCatalogLoads() async throws {
            let chinook = try await Demo.make().catalog.chinook
            #expect(chinook.artists.count == 275)
            #expect(chinook.albums.count == 347)
            #expect(chinook.tracks.count == 3503)
            #expect(chinook.genres.count == 25)
            #expect(chinook.primaryGenre(artistId: 1) == "Rock")
        }

        @Test func derivedMediaIsDeterministicAndUnique() async throws {
            let demo = try await Demo.make()
            let videos = demo.catalog.videos
            #expect(videos.count == 10424)
            #expect(Set(videos.map(\.id)).count == videos.count)
            #expect(videos.allSatisfy { $0.id.count == 11 })
            #expect(Dictionary(grouping: videos, by: \.chinookTrackId).values.allSatisfy { (1...5).contains($0.count) })
            #expect(videos.contains { $0.title.contains("'") } && videos.contains { $0.title.contains("&") })
            #expect(demo.catalog.movies.count == 92 + 86)  // every third artist, every fourth album
            #expect(
                demo.catalog.movies.contains { $0.posterPath == nil }
                    && demo.catalog.movies.contains { $0.releaseDate.isEmpty }
            )
            // Deterministic: the same ids on every start (values from the first derivation).
            #expect(videos.prefix(3).map(\.id) == ["_UGJjHg0CY2", "mRkAvdeZdqv", "nVHnkfQ-zn7"])
        }

        @Test func idRanges() {
            #expect(DemoIDs.entity(100_001) == .artist(1))
            #expect(DemoIDs.entity(200_347) == .album(347))
            #expect(DemoIDs.entity(303_503) == .track(3503))
            #expect(DemoIDs.entity(400_004) == .musicVideo(4))
            #expect(DemoIDs.entity(100_000) == nil)
            #expect(DemoIDs.entity(42) == nil)
            #expect(DemoIDs.slug("AC/DC") == "ac-dc")
            #expect(DemoIDs.slug("Guns N' Roses") == "guns-n-roses")
            #expect(DemoIDs.slug("Motörhead") == "mot-rhead")
        }

        @Test func rankingPutsExactMatchesFirst() {
            #expect(SearchRanking.rank(term: "Aerosmith", name: "aerosmith") == 0)
            #expect(SearchRanking.rank(term: "aero", name: "aerosmith") == 1)
            #expect(SearchRanking.rank(term: "smith", name: "aerosmith") == 2)
            #expect(SearchRanking.rank(term: "ac/dc", name: "let there be rock", others: ["ac/dc"]) == 3)
            #expect(SearchRanking.rank(term: "rock jungle", name: "welcome to the jungle", others: ["rock"]) == 5)
            #expect(SearchRanking.rank(term: "zzz", name: "aerosmith") == nil)
            #expect(SearchRanking.rank(term: "  ", name: "aerosmith") == nil)
            // NFD term, NFC name: canonically equivalent.
            #expect(SearchRanking.rank(term: "Moto\u{0308}rhead", name: "mot\u{00F6}rhead") == 0)
        }

        @Test func queryDecoding() {
            let items = QueryDecoding.items("a=1&b=x+y%2Bz&c&d=%E6%9D%B1&e=%zz&a=2")
            #expect(items.map(\.name) == ["a", "b", "c", "d", "e", "a"])
            #expect(items.map(\.value) == ["1", "x y+z", "", "東", "%zz", "2"])
            #expect(QueryDecoding.formEncode("beach bunny/é") == "beach+bunny%2F%C3%A9")
        }

        @Test func jsonTextLayouts() {
            let value = JSONText.object([("a", .int(1)), ("b", .array([.string("x\"\n"), .null])), ("c", .object([]))])
            #expect(value.compact == #"{"a":1,"b":["x\"\n",null],"c":{}}"#)
            #expect(
                value.pretty(indent: 2)
                    == "{\n  \"a\": 1,\n  \"b\": [\n    \"x\\\"\\n\",\n    null\n  ],\n  \"c\": {}\n}")
            let record = JSONText.object([
                ("trackName", .string("AC/DC")), ("previewUrl", .string("u")), ("price", .number("9.90")),
            ])
            #expect(record.iTunesRecord == "{\"trackName\":\"AC/DC\", \n\"previewUrl\":\"u\", \"price\":9.90}")
            #expect(JSONText.string("\u{01}é").compact == "\"\\u0001é\"")
        }
    }
}
