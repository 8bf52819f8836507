import Foundation
import GraphQL
import Testing

@testable import Catalog

extension LoopbackTests {
    /// Issue 16, honest data: a non-null field an upstream record lacks is never made up (no
    /// `""`); it is a field error at its path, and nulls propagate as the spec says.
    @Suite struct GatewayHonestData {

        @Test func aYouTubeVideoWithoutItsTitleIsAnErrorAtTheTitleNotAnEmptyString() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/youtube": {"omitKeys": ["title"]}}"#)
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { name albums(first: 1) { title tracks { title videos(first: 1) { url title } } } } }"#
                )
                let data = try #require(response.result.data)
                #expect(data["artist", "name"] == .string("AC/DC"))
                #expect(data["artist", "albums", 0, "tracks"]?.arrayCount == 10)
                #expect(
                    data["artist", "albums", 0, "tracks", 0, "title"]
                        == .string("For Those About To Rock (We Salute You)"))
                // Video.title is String! inside [Video!]: the list is the nearest nullable position.
                #expect(data["artist", "albums", 0, "tracks", 0, "videos"] == .null)
                #expect(!String(decoding: response.serialized(), as: UTF8.self).contains(#""title":"""#))
                #expect(
                    MissingFieldErrors.paths(response.result.errors)
                        == (0..<10).map { "artist.albums.0.tracks.\($0).videos.0.title" }
                )
                for error in response.result.errors {
                    #expect(error.extensions["code"] == .string("UPSTREAM_BAD_RESPONSE"))
                    #expect(error.extensions["service"] == .string("youtube"))
                    #expect(error.extensions["field"] == .string("Video.title"))
                    #expect(error.message.hasPrefix("youtube sent video "))
                    #expect(error.message.contains("without its title, a non-null field"))
                    #expect(!error.locations.isEmpty)
                }
            }
        }

        @Test func anITunesAlbumWithoutItsArtistNameIsAnErrorAtThatField() async throws {
            try await GatewayHarness.run { h in
                try await h.loopback.setFaults(#"{"/lookup": {"omitKeys": ["artistName"]}}"#)
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { name albums(first: 2) { title artistName } } }"#)
                let data = try #require(response.result.data)
                #expect(data["artist", "name"] == .string("AC/DC"))
                // Album.artistName is String! inside [Album!]: the album list is null.
                #expect(data["artist", "albums"] == .null)
                #expect(MissingFieldErrors.paths(response.result.errors) == ["artist.albums.0.artistName"])
                let error = try #require(response.result.errors.first)
                #expect(error.extensions["code"] == .string("UPSTREAM_BAD_RESPONSE"))
                #expect(error.extensions["service"] == .string("itunes"))
                #expect(error.extensions["field"] == .string("Album.artistName"))
                // Without the missing field selected, the same records answer in full.
                let titles = try await h.query(#"{ artist(name: "AC/DC") { albums(first: 2) { title } } }"#)
                #expect(titles.result.errors.isEmpty)
                #expect(titles.result.data?["artist", "albums"]?.arrayCount == 2)
            }
        }

        @Test func withTheFieldPresentNothingChanges() async throws {
            try await GatewayHarness.run { h in
                let response = try await h.query(
                    #"{ artist(name: "AC/DC") { albums(first: 1) { artistName tracks { videos(first: 1) { title } } } } }"#
                )
                #expect(response.result.errors.isEmpty)
                #expect(response.result.data?["artist", "albums", 0, "artistName"] == .string("AC/DC"))
            }
        }
    }
}
