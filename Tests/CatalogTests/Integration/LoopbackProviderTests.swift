import DemoUpstream
import Foundation
import Testing

@testable import Catalog

/// Every provider over real loopback HTTP: libcurl HTTPClient → DemoUpstream on HTTPServer.
extension LoopbackTests {
    @Suite struct Provider {
        @Test func everyProviderOverHTTP() async throws {
            try await Loopback.run { lb in
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                let artists = try await itunes.searchArtists(term: "Iron Maiden", limit: 1)
                #expect(artists.map(\.id) == ["100090"])
                let albums = try await itunes.lookupAlbums(artistIds: ["100090"])
                #expect(albums["100090"]?.count == 21)
                let tracks = try await itunes.lookupTracks(albumIds: ["200001", "200004"])
                #expect(tracks.mapValues(\.count) == ["200001": 10, "200004": 8])

                let apple = AppleMusicProvider(baseURL: lb.baseURL, token: "demo-token", transport: lb.transport)
                let album = try #require(try await apple.album(id: "200004"))
                #expect(album.album.title == "Let There Be Rock")
                #expect(album.tracks.count == 8)

                let rakuten = RakutenProvider(baseURL: lb.baseURL, applicationId: "demo-app", transport: lb.transport)
                let releases = try await rakuten.search(artistName: "AC/DC")
                #expect(
                    releases.items.map(\.album.title) == ["For Those About To Rock We Salute You", "Let There Be Rock"])

                let youtube = YouTubeProvider(baseURL: lb.baseURL, key: "demo-key", transport: lb.transport)
                let videos = try await youtube.search(query: "Welcome to the Jungle", maxResults: 5)
                #expect(videos.items.count == 2)
                let details = try await youtube.videos(ids: videos.items.map(\.id))
                #expect(details.count == 2)

                let tmdb = TMDBProvider(baseURL: lb.baseURL, apiKey: "demo-key", transport: lb.transport)
                let movies = try await tmdb.searchMovies(query: "Guns N' Roses")
                #expect(movies.items.map(\.title) == ["Guns N' Roses: The Story"])

                let log = try await lb.requestLog()
                #expect(
                    log.entries.map(\.path) == [
                        "/search", "/lookup", "/lookup", "/v1/catalog/us/albums/200004",
                        "/services/api/BooksCD/Search/20170404",
                        "/youtube/v3/search", "/youtube/v3/videos", "/3/search/movie",
                    ])
                #expect(log.entries.allSatisfy { $0.status == 200 })
            }
        }

        @Test func hostileStringsArriveByteExact() async throws {
            let hostile = [
                "AC/DC", "Guns N' Roses", "a&b=c", "+", "#", "%", "100%25", "Mot\u{00F6}rhead", "Moto\u{0308}rhead",
                "東京事変",
            ]
            try await Loopback.run { lb in
                let itunes = ITunesProvider(baseURL: lb.baseURL, transport: lb.transport)
                let youtube = YouTubeProvider(baseURL: lb.baseURL, key: "k", transport: lb.transport)
                let tmdb = TMDBProvider(baseURL: lb.baseURL, apiKey: "k", transport: lb.transport)
                let rakuten = RakutenProvider(baseURL: lb.baseURL, applicationId: "k", transport: lb.transport)
                for text in hostile {
                    _ = try await itunes.searchArtists(term: text)
                    _ = try await youtube.search(query: text)
                    _ = try await tmdb.searchMovies(query: text)
                    _ = try await rakuten.search(artistName: text)
                }
                let log = try await lb.requestLog()
                #expect(log.entries.count == hostile.count * 4)
                for (i, text) in hostile.enumerated() {
                    let encoded = QueryEncoding.percentEncode(text)
                    let entries = log.entries[(i * 4)..<(i * 4 + 4)]
                    let names = ["term", "q", "query", "artistName"]
                    for (entry, name) in zip(entries, names) {
                        let pairs = entry.query.split(separator: "&").map {
                            $0.split(separator: "=", maxSplits: 1).map(String.init)
                        }
                        let values = pairs.filter { $0.first == name }.compactMap { $0.count == 2 ? $0[1] : nil }
                        // Exactly one such parameter, with exactly our encoding…
                        #expect(values == [encoded], "\(entry.path) \(entry.query)")
                        // …which decodes to the original bytes (NFC and NFD stay apart).
                        #expect(
                            values.first.flatMap { $0.removingPercentEncoding }.map { Array($0.utf8) }
                                == Array(text.utf8))
                    }
                }
                // The parameter lists are exactly ours: nothing a value contained became a parameter.
                #expect(log.entries[8].query == "term=a%26b%3Dc&media=music&entity=musicArtist&limit=10&country=US")
                // Both normal forms find the same artist.
                #expect(try await itunes.searchArtists(term: "Moto\u{0308}rhead").first?.name == "Motörhead")
                #expect(try await itunes.searchArtists(term: "Mot\u{00F6}rhead").first?.name == "Motörhead")
            }
        }
    }
}
