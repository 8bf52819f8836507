import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// Issue 16 item 5, the one rule extended to names: a record without its name or title is
    /// kept (it used to be left out without a word), and that field errors at its path.
    @Suite struct GatewayHonestNames {

        static func count(_ h: GatewayHarness, path: String) async throws -> Int {
            try await h.loopback.requestLog().entries.filter { $0.path == path }.count
        }

        @Test func anITunesArtistWithoutItsNameIsKeptAndItsNameErrors() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                try await h.loopback.setFaults(#"{"/search": {"omitKeys": ["artistName"]}}"#)
                let kept = try await h.query(#"{ artist(name: "AC/DC") { id albums(first: 1) { title } } }"#)
                #expect(kept.result.errors == [])
                #expect(kept.result.data?["artist", "id"] == .string("itunes:artist:100001"))
                #expect(kept.result.data?["artist", "albums"]?.arrayCount == 1)

                let named = try await h.query(#"{ artist(name: "AC/DC") { id name } }"#)
                #expect(named.result.data?["artist"] == .null)  // Artist.name is String!; artist is nullable
                #expect(MissingFieldErrors.paths(named.result.errors) == ["artist.name"])
                MissingFieldErrors.expectMissing(named.result.errors, field: "Artist.name", service: "itunes")
                #expect(
                    named.result.errors.first?.message.hasPrefix("itunes sent artist 100001 without its name") == true)
                #expect(try await Self.count(h, path: "/search") == 2)
            }
        }

        @Test func anITunesAlbumWithoutItsTitleIsKeptAndItsTitleErrors() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/lookup": {"omitKeys": ["collectionName"]}}"#)
                let kept = try await h.query(#"{ artist(name: "AC/DC") { name albums(first: 2) { id artistName } } }"#)
                #expect(kept.result.errors == [])
                #expect(kept.result.data?["artist", "albums"]?.arrayCount == 2)
                #expect(kept.result.data?["artist", "albums", 0, "artistName"] == .string("AC/DC"))

                let titled = try await h.query(#"{ artist(name: "AC/DC") { name albums(first: 2) { title } } }"#)
                #expect(titled.result.data?["artist", "name"] == .string("AC/DC"))
                #expect(titled.result.data?["artist", "albums"] == .null)
                #expect(MissingFieldErrors.paths(titled.result.errors) == ["artist.albums.0.title"])
                MissingFieldErrors.expectMissing(titled.result.errors, field: "Album.title", service: "itunes")
            }
        }

        /// A track without its title keeps its other fields; its title errors, and so do its
        /// videos, without a search: a search for the artist alone would be another track's videos.
        @Test func anITunesTrackWithoutItsTitleIsKeptAndNeedsNoVideoSearch() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/lookup": {"omitKeys": ["trackName"]}}"#)
                let kept = try await h.query(
                    #"{ artist(name: "AC/DC") { albums(first: 1) { title tracks { trackNumber videos(first: 1) { url } } } } }"#
                )
                let data = try #require(kept.result.data)
                #expect(data["artist", "albums", 0, "title"] == .string("For Those About To Rock We Salute You"))
                #expect(data["artist", "albums", 0, "tracks"]?.arrayCount == 10)
                #expect(data["artist", "albums", 0, "tracks", 9, "trackNumber"] == .int(10))
                #expect(data["artist", "albums", 0, "tracks", 0, "videos"] == .null)
                #expect(
                    MissingFieldErrors.paths(kept.result.errors)
                        == (0..<10).map { "artist.albums.0.tracks.\($0).videos" })
                MissingFieldErrors.expectMissing(kept.result.errors, field: "Track.title", service: "itunes")
                #expect(try await Self.count(h, path: "/youtube/v3/search") == 0)

                let titled = try await h.query(
                    #"{ artist(name: "AC/DC") { albums(first: 1) { title tracks { title } } } }"#)
                #expect(titled.result.data?["artist", "albums", 0, "tracks"] == .null)
                #expect(MissingFieldErrors.paths(titled.result.errors).first == "artist.albums.0.tracks.0.title")
                MissingFieldErrors.expectMissing(titled.result.errors, field: "Track.title", service: "itunes")
            }
        }

        @Test func appleMusicResourcesWithoutAttributesNameAreKept() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/v1/": {"omitKeys": ["name"]}}"#)
                let kept = try await h.query(
                    #"""
                    { a: artist(id: "applemusic:artist:100001") { id genre }
                      t: track(id: "applemusic:track:300001") { id durationMs album { id copyright } } }
                    """#)
                #expect(kept.result.errors == [])
                #expect(kept.result.data?["a", "genre"] == .string("Rock"))
                #expect(kept.result.data?["t", "durationMs"] == .int(343_719))
                #expect(kept.result.data?["t", "album", "copyright"] == .string("℗ 1970 AC/DC"))

                let named = try await h.query(
                    #"""
                    { a: artist(id: "applemusic:artist:100001") { name }
                      b: album(id: "applemusic:album:200001") { title }
                      t: track(id: "applemusic:track:300001") { id title } }
                    """#)
                #expect(named.result.data?["a"] == .null)
                #expect(named.result.data?["b"] == .null)
                #expect(named.result.data?["t"] == .null)
                #expect(Set(MissingFieldErrors.paths(named.result.errors)) == ["a.name", "b.title", "t.title"])
                let fields = Set(
                    named.result.errors.compactMap { error -> String? in
                        if case .string(let field)? = error.extensions["field"] { return field }
                        return nil
                    })
                #expect(fields == ["Artist.name", "Album.title", "Track.title"])
                for error in named.result.errors {
                    #expect(error.extensions["code"] == .string("UPSTREAM_BAD_RESPONSE"))
                    #expect(error.extensions["service"] == .string("applemusic"))
                }
            }
        }

        /// A Rakuten item without `title` used to fail the whole search as a bad response.
        @Test func aRakutenReleaseWithoutItsTitleIsKept() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/services/api/": {"omitKeys": ["title"]}}"#)
                let response = try await h.query(
                    #"{ r: album(id: "rakuten:album:4900010000007") { id artistName trackCount } t: album(id: "rakuten:album:4900010000014") { title } }"#
                )
                #expect(response.result.data?["r", "artistName"] == .string("AC/DC"))
                #expect(response.result.data?["r", "trackCount"] == .int(10))
                #expect(response.result.data?["t"] == .null)
                #expect(MissingFieldErrors.paths(response.result.errors) == ["t.title"])
                MissingFieldErrors.expectMissing(response.result.errors, field: "Album.title", service: "rakuten")
            }
        }

        /// A YouTube search item without its snippet used to vanish from the list.
        @Test func aYouTubeSearchItemWithoutItsSnippetIsKept() async throws {
            try await GatewayHarness.configured({ $0.cacheMaxBytes = 0 }).run { h in
                try await h.loopback.setFaults(#"{"/youtube/v3/search": {"omitKeys": ["snippet"]}}"#)
                let kept = try await h.query(#"{ videos(query: "AC/DC", first: 2) { id url } }"#)
                #expect(kept.result.errors == [])
                #expect(kept.result.data?["videos"]?.arrayCount == 2)

                let titled = try await h.query(
                    #"{ artist(name: "AC/DC") { name } videos(query: "AC/DC", first: 2) { title } }"#)
                #expect(titled.result.data == nil || titled.result.data == .null)  // videos is [Video!]!
                #expect(MissingFieldErrors.paths(titled.result.errors) == ["videos.0.title"])
                MissingFieldErrors.expectMissing(titled.result.errors, field: "Video.title", service: "youtube")
                #expect(try await Self.count(h, path: "/youtube/v3/search") == 2)
            }
        }
    }
}
