import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct AppleMusicProviderTests {
    let provider = AppleMusicProvider(
        baseURL: "http://127.0.0.1:9", token: "T", transport: CannedTransport(status: 200))

    // MARK: URLs

    @Test func searchURL() {
        #expect(
            provider.searchURL(term: "a&b=c", types: [.albums, .songs], limit: 50)
                == "http://127.0.0.1:9/v1/catalog/us/search?term=a%26b%3Dc&types=albums%2Csongs&limit=25")
        #expect(
            provider.searchURL(term: "Guns N' Roses", types: [.artists], limit: 5, offset: 5)
                == "http://127.0.0.1:9/v1/catalog/us/search?term=Guns%20N%27%20Roses&types=artists&limit=5&offset=5")
    }

    @Test func albumURLs() {
        #expect(provider.albumURL(id: "1616728060") == "http://127.0.0.1:9/v1/catalog/us/albums/1616728060")
        #expect(provider.albumURL(id: "../x") == "http://127.0.0.1:9/v1/catalog/us/albums/..%2Fx")
        #expect(provider.albumsURL(ids: ["1", "2"]) == "http://127.0.0.1:9/v1/catalog/us/albums?ids=1,2")
        #expect(provider.artistsURL(ids: ["1147783278"]) == "http://127.0.0.1:9/v1/catalog/us/artists?ids=1147783278")
        #expect(provider.songsURL(ids: ["1", "a&b"]) == "http://127.0.0.1:9/v1/catalog/us/songs?ids=1,a%26b")
        #expect(provider.artistAlbumsURL(artistId: "9") == "http://127.0.0.1:9/v1/catalog/us/artists/9/albums")
        #expect(
            provider.nextURL("/v1/catalog/us/albums/1/tracks?offset=300")
                == "http://127.0.0.1:9/v1/catalog/us/albums/1/tracks?offset=300")
    }

    // MARK: Fixtures

    @Test func albumWithTracks() throws {
        let body = try Fixture.bytes("applemusic/catalog-album_id-1616728060_with-tracks_us.json")
        let albums = try AppleMusicProvider.decodeAlbums(status: 200, headers: [:], body: body)
        let result = try #require(albums.first)
        #expect(albums.count == 1)
        #expect(
            result.album
                == Album(
                    id: "1616728060", title: "Heart On My Sleeve", artistId: "1160482144", artistName: "Ella Mai",
                    releaseDate: "2022-05-06", trackCount: 15, genre: "R&B/Soul",
                    artworkURL:
                        "https://is3-ssl.mzstatic.com/image/thumb/Music112/v4/03/45/19/034519dc-9ff9-7f63-3d02-23a101a0cc3a/22UMGIM01299.rgb.jpg/600x600bb.jpg",
                    url: "https://music.apple.com/us/album/heart-on-my-sleeve/1616728060",
                    copyright: "A 10 Summers/Interscope Records Release; ℗ 2022 10 Summers Records, LLC",
                    source: .appleMusic))
        #expect(result.tracks.count == 15)
        #expect(result.moreTracksPath == nil)
        let first = result.tracks[0]
        #expect(first.id == "1616728064")
        #expect(first.title == "Trying")
        #expect(first.durationMs == 197314)
        #expect(first.albumId == "1616728060")
        #expect(
            first.composer
                == "Charles Hinshaw Jr, Dijon McFarlane, Ella Mai Howell, NICHOLAS MATTHEW BALDING, Peter Johnson & Shah Rukh Zaman Khan"
        )
        #expect(
            first.previewURL
                == "https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview112/v4/c8/99/a7/c899a79c-e0b1-68ff-ac5e-37cb41c8bc6a/mzaf_613689503757681664.plus.aac.p.m4a"
        )
        #expect(first.kind == "songs")
        #expect(result.tracks.last?.title == "Fading Out")
        #expect(result.tracks.last?.trackNumber == 15)
    }

    @Test func searchAllTypes() throws {
        let body = try Fixture.bytes("applemusic/catalog-search_types-songs-albums-artists_us.json")
        let results = try AppleMusicProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(results.artists.items.map(\.name) == ["Beach Bunny"])
        #expect(results.artists.items.first?.genre == "Alternative")
        #expect(results.artists.nextPageToken == nil)
        #expect(results.songs.items.map(\.title) == ["Cloud 9", "Prom Queen", "Sports", "Love Song", "Gravity"])
        #expect(results.songs.items.first?.albumTitle == "Honeymoon")
        #expect(results.songs.nextPageToken == "/v1/catalog/us/search?offset=5&term=beach+bunny&types=songs")
        #expect(
            results.albums.items.map(\.id) == ["1613600183", "1482041821", "1476463573", "1537898980", "1476463541"])
        #expect(
            results.albums.items.first?.artworkURL
                == "https://is1-ssl.mzstatic.com/image/thumb/Music112/v4/df/4e/68/df4e6833-9828-51d7-cdeb-71ecf6d3a23d/810090090962.png/600x600bb.jpg"
        )
        #expect(results.albums.nextPageToken == "/v1/catalog/us/search?offset=5&term=beach+bunny&types=albums")
        #expect(
            results.albums.items.map(\.copyright)
                == ["℗ 2022 Mom+Pop", "℗ 2019 Mom+Pop", "℗ 2019 Mom+Pop", "℗ 2020 Mom+Pop", "℗ 2019 Mom+Pop"])
    }

    @Test func pagedListWithNext() throws {
        // Storefronts are no catalog type of ours, but the paging envelope is the same.
        let body = try Fixture.bytes("applemusic/storefronts_limit-2_with-next.json")
        let page = try AppleMusicProvider.decodeAlbumsPage(status: 200, headers: [:], body: body)
        #expect(page.items.isEmpty)
        #expect(page.nextPageToken == "/v1/storefronts?offset=2")
    }

    /// Issue 16 item 5: a resource without its `id` (or its `attributes`) is kept, what it
    /// lacks in `missingFields`, and does not fail its neighbours' decoding; its tracks are
    /// joined to no album id (never `""`).
    @Test func resourcesWithoutIdOrAttributesAreKept() throws {
        let body = Array(
            #"""
            {"data":[{"type":"albums","attributes":{"name":"A","artistName":"X"},
                      "relationships":{"tracks":{"data":[{"type":"songs","attributes":{"name":"S"}}]}}},
                     {"id":"2","type":"albums"}]}
            """#.utf8)
        let albums = try AppleMusicProvider.decodeAlbums(status: 200, headers: [:], body: body)
        #expect(albums.map(\.album.id) == ["", "2"])
        #expect(albums[0].album.missingFields == ["id"])
        #expect(albums[0].album.title == "A")
        #expect(albums[0].tracks.map(\.title) == ["S"])
        #expect(albums[0].tracks[0].missingFields == ["id"])
        #expect(albums[0].tracks[0].albumId == nil)
        #expect(albums[1].album.missingFields == ["title", "artistName"])
    }

    // MARK: Errors

    @Test func invalidParameterValue() throws {
        let body = try Fixture.bytes("applemusic/error-400-invalid-parameter-value_code-40005.json")
        #expect(
            throws: UpstreamError(
                service: .appleMusic,
                kind: .httpStatus(
                    code: 400, bodySummary: "Invalid Parameter Value: offset must be less than 200 (code 40005)"),
                status: 400)
        ) { try AppleMusicProvider.decodeSearch(status: 400, headers: [:], body: body) }
    }

    @Test func noRelatedResources() throws {
        let body = try Fixture.bytes("applemusic/error-404-no-related-resources_code-40403.json")
        #expect(
            throws: UpstreamError(
                service: .appleMusic,
                kind: .httpStatus(
                    code: 404, bodySummary: "No related resources: No related resources found for catalog (code 40403)"),
                status: 404)
        ) { try AppleMusicProvider.decodeTracksPage(status: 404, headers: [:], body: body) }
    }

    @Test func emptyBodied401IsAuthFailed() {
        #expect(throws: UpstreamError(service: .appleMusic, kind: .authFailed, status: 401)) {
            try AppleMusicProvider.decodeAlbums(
                status: 401, headers: ["content-type": "application/json; charset=utf-8"], body: [])
        }
    }

    @Test func tooManyRequests() {
        #expect(throws: UpstreamError(service: .appleMusic, kind: .quotaExceeded, status: 429, retryAfterSeconds: 2)) {
            try AppleMusicProvider.decodeAlbums(status: 429, headers: ["retry-after": "2"], body: [])
        }
    }

    // MARK: Calls

    @Test func bearerTokenIsSentAndNeverLeaks() async throws {
        let canary = "canary-token-3f9a"
        let transport = CannedTransport(status: 503, body: Array("upstream echoed \(canary)".utf8))
        let apple = AppleMusicProvider(baseURL: "http://demo", token: canary, transport: transport)
        do {
            _ = try await apple.album(id: "1")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .httpStatus(code: 503, bodySummary: "upstream echoed ***"))
            #expect(!error.description.contains(canary))
        }
        #expect(transport.headerLines == ["Authorization: Bearer \(canary)"])
    }

    @Test func missingTokenMakesNoRequest() async {
        let transport = CannedTransport(status: 200)
        let apple = AppleMusicProvider(token: nil, transport: transport)
        await #expect(throws: UpstreamError(service: .appleMusic, kind: .notConfigured)) {
            try await apple.searchAlbums(term: "x")
        }
        #expect(transport.urls.isEmpty)
    }

    @Test func unknownAlbumIsNil() async throws {
        let body = Array(
            #"{"errors":[{"id":"X","title":"Resource Not Found","detail":"","status":"404","code":"40400"}]}"#.utf8)
        let apple = AppleMusicProvider(token: "t", transport: CannedTransport(status: 404, body: body))
        #expect(try await apple.album(id: "0") == nil)
    }

    // MARK: By id

    /// `artists?ids=` in the documented shape (Apple's own example: Beach Bunny).
    @Test func artistsById() throws {
        let body = Array(
            #"""
            {"data":[{"id":"1147783278","type":"artists","href":"/v1/catalog/us/artists/1147783278",
            "attributes":{"genreNames":["Alternative"],"name":"Beach Bunny",
            "url":"https://music.apple.com/us/artist/beach-bunny/1147783278"},
            "relationships":{"albums":{"href":"/v1/catalog/us/artists/1147783278/albums",
            "data":[{"id":"1613600183","type":"albums","href":"/v1/catalog/us/albums/1613600183"}]}}}]}
            """#.utf8)
        #expect(
            try AppleMusicProvider.decodeArtists(status: 200, headers: [:], body: body)
                == [
                    Artist(
                        id: "1147783278", name: "Beach Bunny", genre: "Alternative",
                        url: "https://music.apple.com/us/artist/beach-bunny/1147783278", source: .appleMusic)
                ])
        #expect(
            try AppleMusicProvider.decodeArtists(status: 200, headers: [:], body: Array(#"{"data":[]}"#.utf8)) == [])
    }

    /// `songs?ids=`: a song's album comes from its default `albums` relationship.
    @Test func songsByIdTakeTheirAlbumFromTheRelationship() throws {
        let body = Array(
            #"""
            {"data":[{"id":"1482041830","type":"songs","href":"/v1/catalog/us/songs/1482041830",
            "attributes":{"albumName":"Honeymoon","genreNames":["Alternative","Music"],"trackNumber":2,"durationInMillis":201000,
            "discNumber":1,"name":"Cloud 9","artistName":"Beach Bunny","url":"https://music.apple.com/us/album/cloud-9/1482041821?i=1482041830",
            "previews":[{"url":"https://audio-ssl.itunes.apple.com/preview.m4a"}]},
            "relationships":{"albums":{"href":"/v1/catalog/us/songs/1482041830/albums",
            "data":[{"id":"1482041821","type":"albums","href":"/v1/catalog/us/albums/1482041821"}]},
            "artists":{"href":"/v1/catalog/us/songs/1482041830/artists",
            "data":[{"id":"1147783278","type":"artists","href":"/v1/catalog/us/artists/1147783278"}]}}}]}
            """#.utf8)
        #expect(
            try AppleMusicProvider.decodeSongs(status: 200, headers: [:], body: body)
                == [
                    Track(
                        id: "1482041830", title: "Cloud 9", albumId: "1482041821", albumTitle: "Honeymoon",
                        artistName: "Beach Bunny",
                        durationMs: 201000, trackNumber: 2, discNumber: 1, genre: "Alternative",
                        previewURL: "https://audio-ssl.itunes.apple.com/preview.m4a",
                        url: "https://music.apple.com/us/album/cloud-9/1482041821?i=1482041830", kind: "songs",
                        source: .appleMusic)
                ])
    }

    @Test func byIdReadsBatchAtTheDocumentedLimits() async throws {
        let transport = CannedTransport(status: 200, body: Array(#"{"data":[]}"#.utf8))
        let apple = AppleMusicProvider(baseURL: "http://127.0.0.1:9", token: "T", transport: transport)
        #expect(try await apple.artists(ids: (1...26).map(String.init)).isEmpty)
        #expect(try await apple.songs(ids: (1...601).map(String.init)).isEmpty)
        #expect(
            transport.urls.map { $0.split(separator: "?")[0] + ":" + String($0.split(separator: ",").count) } == [
                "http://127.0.0.1:9/v1/catalog/us/artists:25", "http://127.0.0.1:9/v1/catalog/us/artists:1",
                "http://127.0.0.1:9/v1/catalog/us/songs:300", "http://127.0.0.1:9/v1/catalog/us/songs:300",
                "http://127.0.0.1:9/v1/catalog/us/songs:1",
            ])
    }
}
