import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// Issue 16 item 5, the one rule extended to ids: a record without its id is kept; its `id`
    /// errors at its path, and every field that needs the id to fetch errors the same way
    /// without an upstream request (never a lookup of `""`).
    @Suite struct GatewayHonestIds {

        static func log(_ h: GatewayHarness, path: String) async throws -> [String] {
            try await h.loopback.requestLog().entries.filter { $0.path == path }.map(\.query)
        }

        @Test func anITunesArtistWithoutItsIdErrorsAtIdAndAlbumsWithoutALookup() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                try await h.loopback.setFaults(#"{"/search": {"omitKeys": ["artistId"]}}"#)
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { name genre albums(first: 1) { title } } }"#)
                #expect(response.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(response.result.data?["artist", "genre"] == .string("Rock"))
                #expect(response.result.data?["artist", "albums"] == .null)
                #expect(MissingFieldErrors.paths(response.result.errors) == ["artist.albums"])
                MissingFieldErrors.expectMissing(
                    response.result.errors, field: "Artist.id", service: "itunes", nonEmpty: true, located: true)
                #expect(try await Self.log(h, path: "/lookup") == [])

                let id = try await h.query(#"{ artist(name: "AC/DC") { id name } }"#)
                #expect(id.result.data?["artist"] == .null)
                #expect(MissingFieldErrors.paths(id.result.errors) == ["artist.id"])
                MissingFieldErrors.expectMissing(
                    id.result.errors, field: "Artist.id", service: "itunes", nonEmpty: true, located: true)
                #expect(try await Self.log(h, path: "/search").count == 2)
                #expect(try await Self.log(h, path: "/lookup") == [])
            }
        }

        /// Two id-less albums stay two albums (no grouping under `""`), each answering its own
        /// title, and their tracks error without an `entity=song` lookup.
        @Test func iTunesAlbumsWithoutTheirIdsAreKeptApartAndNeedNoTrackLookup() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                try await h.loopback.setFaults(#"{"/lookup": {"omitKeys": ["collectionId"]}}"#)
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { name albums(first: 2) { title tracks { title } } } }"#)
                let data = try #require(response.result.data)
                #expect(data["artist", "name"] == .string("AC/DC"))
                #expect(data["artist", "albums"]?.arrayCount == 2)
                let titles = [data["artist", "albums", 0, "title"], data["artist", "albums", 1, "title"]]
                #expect(titles[0] == .string("For Those About To Rock We Salute You"))
                #expect(titles[1] != nil && titles[1] != titles[0] && titles[1] != .null)
                #expect(data["artist", "albums", 0, "tracks"] == .null)
                #expect(data["artist", "albums", 1, "tracks"] == .null)
                #expect(
                    MissingFieldErrors.paths(response.result.errors) == [
                        "artist.albums.0.tracks", "artist.albums.1.tracks",
                    ])
                MissingFieldErrors.expectMissing(
                    response.result.errors, field: "Album.id", service: "itunes", nonEmpty: true, located: true)
                let lookups = try await Self.log(h, path: "/lookup")
                #expect(lookups.count == 1)
                #expect(lookups.allSatisfy { $0.contains("entity=album") }, "\(lookups)")

                let ids = try await h.query(#"{ artist(name: "AC/DC") { albums(first: 2) { id } } }"#)
                #expect(ids.result.data?["artist", "albums"] == .null)
                #expect(MissingFieldErrors.paths(ids.result.errors) == ["artist.albums.0.id"])
                MissingFieldErrors.expectMissing(
                    ids.result.errors, field: "Album.id", service: "itunes", nonEmpty: true, located: true)
            }
        }

        /// A search item that says it is a video but lacks its `videoId`: its id and url (made
        /// from the id) error; its title is as sent.
        @Test func aYouTubeSearchItemWithoutItsVideoIdIsKept() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search": {"omitKeys": ["videoId"]}}"#)
                let kept = try await h.query(#"{ videos(query: "AC/DC", first: 2) { title } }"#)
                #expect(kept.result.errors == [])
                #expect(kept.result.data?["videos"]?.arrayCount == 2)

                let url = try await h.query(#"{ videos(query: "AC/DC", first: 2) { title url } }"#)
                #expect(url.result.data?["videos", 0, "url"] == .null)  // url is nullable
                #expect(url.result.data?["videos", 0, "title"] == kept.result.data?["videos", 0, "title"])
                #expect(MissingFieldErrors.paths(url.result.errors) == ["videos.0.url", "videos.1.url"])
                MissingFieldErrors.expectMissing(
                    url.result.errors, field: "Video.url", service: "youtube", nonEmpty: true, located: true)
                #expect(!String(decoding: url.serialized(), as: UTF8.self).contains("watch?v="))

                let id = try await h.query(#"{ videos(query: "AC/DC", first: 2) { id } }"#)
                #expect(id.result.data == nil || id.result.data == .null)  // Video.id is ID! in [Video!]!
                #expect(MissingFieldErrors.paths(id.result.errors) == ["videos.0.id"])
                MissingFieldErrors.expectMissing(
                    id.result.errors, field: "Video.id", service: "youtube", nonEmpty: true, located: true)
            }
        }
        /// A Rakuten item without its JAN (its id, and its tracks' ids made from it) is kept.
        @Test func aRakutenReleaseWithoutItsJANIsKept() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/services/api/": {"omitKeys": ["jan"]}}"#)
                let kept = try await h.query(
                    #"{ albums(term: "For Those About To Rock", source: RAKUTEN, first: 1) { title tracks { title } } }"#
                )
                #expect(kept.result.errors == [])
                #expect(kept.result.data?["albums", 0, "title"] == .string("For Those About To Rock We Salute You"))
                #expect(kept.result.data?["albums", 0, "tracks"]?.arrayCount == 10)

                let ids = try await h.query(
                    #"{ a: album(id: "rakuten:album:4900010000007") { title } albums(term: "For Those About To Rock", source: RAKUTEN, first: 1) { tracks { id } } }"#
                )
                #expect(ids.result.data?["a"] == .null)  // no id-less item is taken for this JAN
                #expect(ids.result.data?["albums", 0, "tracks"] == .null)
                #expect(MissingFieldErrors.paths(ids.result.errors) == ["albums.0.tracks.0.id"])
                MissingFieldErrors.expectMissing(
                    ids.result.errors, field: "Track.id", service: "rakuten", nonEmpty: true, located: true)
            }
        }

        /// A TMDB video without its `key`: its id and its url (made from the key) error.
        @Test func aTMDBVideoWithoutItsKeyIsKept() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/3/movie/": {"omitKeys": ["key"]}}"#)
                let response = try await h.query(
                    #"{ movies(query: "Alien", first: 1) { title videos(first: 1) { title url } } }"#)
                let data = try #require(response.result.data)
                #expect(data["movies", 0, "videos"]?.arrayCount == 1)
                #expect(data["movies", 0, "videos", 0, "title"] != nil)
                #expect(data["movies", 0, "videos", 0, "url"] == .null)
                #expect(MissingFieldErrors.paths(response.result.errors) == ["movies.0.videos.0.url"])
                MissingFieldErrors.expectMissing(
                    response.result.errors, field: "Video.url", service: "tmdb", nonEmpty: true, located: true)
            }
        }
    }
}
