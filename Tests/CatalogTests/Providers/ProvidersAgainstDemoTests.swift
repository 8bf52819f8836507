import DemoUpstream
import Testing
import UpstreamEconomy

@testable import Catalog

extension LoopbackTests {
    /// Every provider's calls against DemoUpstream in-process: the demo's wire format must
    /// decode with the same code that decodes the recorded samples.
    @Suite struct ProvidersAgainstDemoTests {
        let transport: DemoTransport

        init() async throws {
            transport = DemoTransport(demo: try await DemoUpstream.make(options: .init(appleMusicTracksPageSize: 4)))
        }

        @Test func iTunesArtistAlbumsTracks() async throws {
            let itunes = ITunesProvider(baseURL: "http://demo", transport: transport)
            let artists = try await itunes.searchArtists(term: "AC/DC")
            #expect(
                artists.first
                    == Artist(
                        id: "100001", name: "AC/DC", genre: "Rock",
                        url: "https://music.demo.invalid/us/artist/ac-dc/100001?uo=4",
                        source: .iTunes))
            let albums = try await itunes.lookupAlbums(artistIds: ["100001", "100088", "999999"])
            #expect(
                albums.mapValues { $0.map(\.title) } == [
                    "100001": ["For Those About To Rock We Salute You", "Let There Be Rock"],
                    "100088": ["Appetite for Destruction", "Use Your Illusion I", "Use Your Illusion II"],
                ])
            let tracks = try await itunes.lookupTracks(albumIds: ["200004", "200001"])
            #expect(tracks["200004"]?.count == 8)
            #expect(tracks["200001"]?.first?.title == "For Those About To Rock (We Salute You)")
            #expect(tracks["200001"]?.first?.durationMs == 343719)
            #expect(tracks["200001"]?.first?.trackNumber == 1)
        }

        @Test func iTunesRanksExactNameFirst() async throws {
            let itunes = ITunesProvider(baseURL: "http://demo", transport: transport)
            let artists = try await itunes.searchArtists(term: "queen")
            #expect(artists.map(\.name) == ["Queen"])
            let ozzy = try await itunes.searchArtists(term: "Ozzy Osbourne")
            #expect(ozzy.first?.name == "Ozzy Osbourne")
        }

        @Test func appleMusicAlbumFollowsNextLinks() async throws {
            let apple = AppleMusicProvider(baseURL: "http://demo", token: "demo-token", transport: transport)
            let album = try #require(try await apple.album(id: "200001"))
            #expect(album.album.title == "For Those About To Rock We Salute You")
            #expect(album.album.artistId == "100001")
            #expect(album.tracks.count == 10)  // pages of 4: 4 + 4 + 2
            #expect(album.tracks.map(\.trackNumber) == Array(1...10))
            #expect(album.tracks.allSatisfy { $0.albumId == "200001" })
            #expect(album.moreTracksPath == nil)
            #expect(try await apple.album(id: "12345") == nil)
            let batch = try await apple.albums(ids: ["200001", "200004", "1"])
            #expect(batch.keys.sorted() == ["200001", "200004"])
            let search = try await apple.searchArtists(term: "Guns N' Roses")
            #expect(search.items.map(\.name) == ["Guns N' Roses"])
        }

        @Test func appleMusicWithoutTokenIsAuthFailedOnTheWire() async {
            // A provider with a token never sends an empty one; check the demo's 401 decodes.
            let response = await transport.demo.handle(DemoRequest(path: "/v1/catalog/us/albums/200001"))
            #expect(throws: UpstreamError(service: .appleMusic, kind: .authFailed, status: 401)) {
                try AppleMusicProvider.decodeAlbums(
                    status: response.status, headers: response.headers, body: response.body)
            }
        }

        @Test func rakutenSearchPages() async throws {
            let rakuten = RakutenProvider(baseURL: "http://demo", applicationId: "demo-app", transport: transport)
            let page = try await rakuten.search(artistName: "Iron Maiden", hits: 5)
            #expect(page.totalResults == 21)
            #expect(page.items.count == 5)
            #expect(page.nextPageToken == "2")
            #expect(page.items.allSatisfy { $0.album.artistName == "Iron Maiden" })
            let last = try await rakuten.search(artistName: "Iron Maiden", hits: 5, page: 5)
            #expect(last.items.count == 1)
            #expect(last.nextPageToken == nil)
            var v1 = rakuten
            v1.formatVersion = 1
            let motorhead = try await v1.search(artistName: "Motörhead")
            #expect(motorhead.items.map(\.album.title) == ["Ace Of Spades"])
            #expect(motorhead.items.first?.tracks.count == 15)
            #expect(motorhead.items.first?.album.releaseDate == "1999-11-26")
        }

        @Test func youTubeSearchThenVideos() async throws {
            let youtube = YouTubeProvider(baseURL: "http://demo", key: "demo-key", transport: transport)
            let page = try await youtube.search(query: "Welcome to the Jungle", maxResults: 1)
            #expect(page.items.map(\.title) == ["Guns N' Roses - Welcome to the Jungle (Official Video)"])
            #expect(page.totalResults == 2)
            let next = try await youtube.search(
                query: "Welcome to the Jungle", maxResults: 1, pageToken: page.nextPageToken)
            #expect(next.items.map(\.title) == ["Guns N' Roses - Welcome to the Jungle (Live)"])
            #expect(next.nextPageToken == nil)
            let ids = page.items.map(\.id) + next.items.map(\.id)
            let details = try await youtube.videos(ids: ids + ["unknownvid1"])
            #expect(details.count == 2)
            #expect(details[ids[0]]?.durationMs == 273_000)
            #expect(details[ids[1]]?.durationMs == 303_000)  // live cuts run 30 s longer
            #expect(
                details[ids[0]]?.description
                    == "\"Welcome to the Jungle\" by Guns N' Roses, from the album \"Appetite for Destruction\".")
            let broad = try await youtube.search(query: "Guns N' Roses", maxResults: 50)
            #expect(broad.items.count == 50)
            #expect(broad.items.allSatisfy { $0.title.contains("Guns N' Roses") || $0.channelTitle == "Guns N' Roses" })
            let long = try await youtube.search(query: "Jungle", maxResults: 50, duration: .long)
            #expect(long.items.isEmpty)
        }

        @Test func tmdbMoviesAndVideos() async throws {
            let tmdb = TMDBProvider(baseURL: "http://demo", apiKey: "demo-key", transport: transport)
            let movies = try await tmdb.searchMovies(query: "AC/DC")
            #expect(movies.items.map(\.title) == ["AC/DC: The Story"])
            #expect(movies.items.first?.id == "500001")
            let videos = try await tmdb.movieVideos(movieId: "500001")
            #expect(videos.map(\.type) == ["Trailer", "Teaser", "Clip"])
            #expect(try await tmdb.movieVideos(movieId: "42").isEmpty)
        }
    }
}
