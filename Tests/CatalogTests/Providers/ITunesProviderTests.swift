import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct ITunesProviderTests {
    let provider = ITunesProvider(baseURL: "http://127.0.0.1:9", transport: CannedTransport(status: 200))

    private func decode<T>(_ file: String, _ f: (Int, [String: String], [UInt8]) throws(UpstreamError) -> T) throws -> T
    {
        try f(200, ["content-type": "text/javascript; charset=utf-8"], Fixture.bytes("itunes/" + file))
    }

    // MARK: URLs

    @Test func searchURLEncodesHostileTerms() {
        #expect(
            provider.searchURL(term: "AC/DC", entity: .musicArtist, limit: 5)
                == "http://127.0.0.1:9/search?term=AC%2FDC&media=music&entity=musicArtist&limit=5&country=US")
        #expect(
            provider.searchURL(term: "Guns N' Roses", entity: .album, limit: 500)
                == "http://127.0.0.1:9/search?term=Guns%20N%27%20Roses&media=music&entity=album&limit=200&country=US")
        #expect(
            provider.searchURL(term: "a&b=c+#%", entity: .song, limit: 0)
                == "http://127.0.0.1:9/search?term=a%26b%3Dc%2B%23%25&media=music&entity=song&limit=1&country=US")
        var jp = provider
        jp.country = "JP"
        jp.language = "ja_jp"
        #expect(
            jp.searchURL(term: "東京", entity: .musicVideo, limit: 3)
                == "http://127.0.0.1:9/search?term=%E6%9D%B1%E4%BA%AC&media=musicVideo&entity=musicVideo&limit=3&country=JP&lang=ja_jp"
        )
    }

    @Test func lookupURLJoinsIds() {
        #expect(
            provider.lookupURL(ids: ["1", "22", "333"], entity: .song, limit: 200)
                == "http://127.0.0.1:9/lookup?id=1,22,333&entity=song&limit=200&country=US")
        #expect(provider.lookupURL(ids: ["5"]) == "http://127.0.0.1:9/lookup?id=5&country=US")
        #expect(
            provider.lookupURL(ids: ["7"], entity: .album, limit: 1, recentFirst: true)
                == "http://127.0.0.1:9/lookup?id=7&entity=album&limit=1&sort=recent&country=US")
    }

    // MARK: Fixtures

    @Test func albumTracksLookupGroupsByCollection() throws {
        let byAlbum = try decode("lookup-album-tracks_entity-song_kpop-ep_us.json", ITunesProvider.decodeTracksByAlbum)
        #expect(byAlbum.keys.sorted() == ["1728639278"])
        let tracks = try #require(byAlbum["1728639278"])
        #expect(
            tracks.map(\.title) == [
                "INSIDE-OUTSIDE (Intro)", "YOU AND I", "Mayday", "Which a star", "Scar", "YOU AND I (Instrumental)",
            ])
        #expect(tracks[0].id == "1728639279")
        #expect(tracks[0].durationMs == 83720)
        #expect(tracks[0].trackNumber == 1)
        #expect(tracks[0].albumTitle == "Nightmare·Escape The ERA - EP")
        #expect(tracks[0].kind == "song")
        #expect(tracks[0].source == .iTunes)
    }

    @Test func albumWrapperOfKpopEP() throws {
        let albums = try decode("lookup-album-tracks_entity-song_kpop-ep_us.json", ITunesProvider.decodeAlbums)
        #expect(
            albums == [
                Album(
                    id: "1728639278", title: "Nightmare·Escape The ERA - EP", artistId: "1194912387",
                    artistName: "Dreamcatcher",
                    releaseDate: "2018-05-10", trackCount: 6, genre: "K-Pop",
                    artworkURL:
                        "https://is1-ssl.mzstatic.com/image/thumb/Music116/v4/0e/a4/29/0ea429d0-fcf0-6f98-d433-d2fa4700fc37/cover_KM0019454_1.jpg/100x100bb.jpg",
                    url: "https://music.apple.com/us/album/nightmare-escape-the-era-ep/1728639278?uo=4",
                    copyright: "℗ 2018 DREAMCATCHER COMPANY,under license to Kakao Entertainment", source: .iTunes)
            ])
    }

    @Test func twoDiscAlbumKeepsDiscNumbersAndLeavesOutMusicVideos() throws {
        let byAlbum = try decode("lookup-album-tracks_entity-song_2-discs_gb.json", ITunesProvider.decodeTracksByAlbum)
        let tracks = try #require(byAlbum["1441458047"])
        // The listing's three music videos (Bohemian Rhapsody, Seaside Rendezvous, Love Of My
        // Life) are not tracks of the album (issue 16: a video was among an album's tracks).
        #expect(tracks.count == 18)
        #expect(tracks.allSatisfy { $0.kind == "song" })
        let firstOfDiscTwo = try #require(tracks.first { $0.discNumber == 2 })
        #expect(firstOfDiscTwo.title == "Keep Yourself Alive (Long-Lost Retake / June 1975)")
        #expect(firstOfDiscTwo.trackNumber == 1)
        // Audio only:
        let songs = try decode("lookup-album-tracks_entity-song_2-discs_gb.json", ITunesProvider.decodeTracks)
        #expect(songs.count == 18)
    }

    @Test func compilationTracksJoinByCollectionIdNotArtist() throws {
        let file = "lookup-album-tracks_entity-song_various-artists-missing-tracks_gb.json"
        let album = try #require(try decode(file, ITunesProvider.decodeAlbums).first)
        #expect(album.artistName == "Various Artists")
        #expect(album.trackCount == 19)
        #expect(album.url == "https://music.apple.com/gb/album/hits-of-the-90s/255636575?uo=4")
        let tracks = try #require(try decode(file, ITunesProvider.decodeTracksByAlbum)["255636575"])
        #expect(tracks.count == 15)  // trackCount says 19: unavailable tracks are omitted
        #expect(tracks.map(\.trackNumber) == [1, 2, 4, 5, 6, 8, 9, 10, 11, 13, 14, 15, 17, 18, 19])
        #expect(tracks[7].artistName == "Los del Río")
        #expect(tracks[7].title == "Macarena")
    }

    @Test func artistAlbumsGroupUnderTheirWrapper() throws {
        let byArtist = try decode(
            "lookup-artist-albums_entity-album_sort-recent.json", ITunesProvider.decodeAlbumsByArtist)
        #expect(byArtist.keys.sorted() == ["941107698"])
        let albums = try #require(byArtist["941107698"])
        #expect(albums.map(\.id) == ["1547602422", "1502525547", "1460231725", "1410715068", "1055594755"])
        #expect(albums[0].artistId == "1547602427")  // a collaboration: a different artistId
        #expect(albums[2].title == "もしもまたいつか (Moshimo Mata Itsuka) [feat. Ariel Nidji] - Single")
    }

    @Test func multiIdAlbumLookupWithLimitOne() throws {
        let byArtist = try decode("lookup-multi-id_entity-album_limit-1.json", ITunesProvider.decodeAlbumsByArtist)
        #expect(
            byArtist.mapValues { $0.map(\.id) } == [
                "126411124": ["767394329"], "320569549": ["1440661543"], "941107698": ["1502525547"],
                "463996386": ["980209955"],
            ])
    }

    @Test func multiIdSongLookupWithoutCollectionWrappersGroupsNothing() throws {
        let file = "lookup-multi-id_entity-song_limit-1_sort-recent.json"
        #expect(try decode(file, ITunesProvider.decodeTracksByAlbum).isEmpty)
        let tracks = try decode(file, ITunesProvider.decodeTracks)
        #expect(tracks.count == 7)
        #expect(tracks[3].title == "Essence (feat. Justin Bieber & Tems)")
        #expect(tracks[3].durationMs == 61274)
        let artists = try decode(file, ITunesProvider.decodeArtists)
        #expect(
            artists.map(\.name) == [
                "peterpan", "Alan Walker", "Sia", "Justin Bieber", "Ariel NOAH", "Maudy Ayunda", "Melly Goeslaw",
            ])
    }

    @Test func artistSongsWithJapaneseTitle() throws {
        let tracks = try decode(
            "lookup-artist-songs_entity-song_sort-recent_ja-title.json", ITunesProvider.decodeTracks)
        #expect(tracks.count == 6)
        #expect(tracks[2].title == "もしもまたいつか (Moshimo Mata Itsuka) [feat. Ariel Nidji]")
        #expect(tracks[2].durationMs == 264438)
    }

    @Test func artistById() throws {
        let artists = try decode("lookup-artist-by-id.json", ITunesProvider.decodeArtists)
        #expect(
            artists == [
                Artist(
                    id: "941107698", name: "Ariel NOAH", genre: "Pop",
                    url: "https://music.apple.com/us/artist/ariel-noah/941107698?uo=4",
                    source: .iTunes)
            ])
    }

    @Test func lookupByUPC() throws {
        let albums = try decode("lookup-by-upc.json", ITunesProvider.decodeAlbums)
        #expect(albums.map(\.title) == ["Random Access Memories"])
        #expect(albums.first?.releaseDate == "2013-05-17")
        #expect(albums.first?.trackCount == 14)
    }

    @Test func albumSearch() throws {
        let albums = try decode("search_entity-album_limit-25.json", ITunesProvider.decodeAlbums)
        #expect(albums.count == 7)
        #expect(albums.last?.artistName == "G¥RO BEATS")
        #expect(albums.last?.title == "Daft Punk-Memories - Single")
        let daftLife =
            "℗ 2013 Daft Life Limited under exclusive license to Columbia Records, a Division of Sony Music Entertainment"
        #expect(
            albums.map(\.copyright) == [
                daftLife, daftLife.replacing("2013", with: "2023"), daftLife.replacing("2013", with: "2023"),
                "℗ 2014 Helisek Music Publishing", "℗ 2016 Vitamin Records", "℗ 2021 2784851 Records DK",
                "℗ 2026 9376628 Records DK",
            ])
    }

    @Test func emptySearchIsNoError() throws {
        #expect(try decode("search_empty-results.json", ITunesProvider.decodeAlbums).isEmpty)
    }

    @Test func trimmedArtistSearchUsesTheArrayNotResultCount() throws {
        let artists = try decode(
            "search_entity-allArtist_attribute-allArtistTerm_trimmed.json", ITunesProvider.decodeArtists)
        #expect(artists.map(\.name) == ["LINKIN PARK", "Linkin Bridge"])
        #expect(artists.map(\.genre) == ["Hard Rock", "Pop"])
    }

    @Test func musicVideoSearch() throws {
        let videos = try decode("search_entity-musicVideo.json", ITunesProvider.decodeMusicVideos)
        #expect(videos.count == 4)
        #expect(videos[0].id == "1451289202")
        #expect(videos[0].title == "Are You Bored Yet? (feat. Clairo)")
        #expect(videos[0].channelTitle == "Wallows")
        #expect(videos[0].durationMs == 205630)
        #expect(videos[0].url == "https://music.apple.com/us/music-video/are-you-bored-yet-feat-clairo/1451289202?uo=4")
        #expect(try decode("search_entity-musicVideo.json", ITunesProvider.decodeTracks).isEmpty)
    }

    // MARK: Errors

    @Test func throttling403WithEmptyBodyIsQuota() {
        #expect(throws: UpstreamError(service: .iTunes, kind: .quotaExceeded, status: 403)) {
            try ITunesProvider.decodeAlbums(status: 403, headers: ["cache-control": "no-store"], body: [])
        }
    }

    @Test func htmlErrorPages() {
        let page = Array("<html><body>Your request produced an error. <BR>[newNullResponse]</body></html>".utf8)
        #expect(
            throws: UpstreamError(
                service: .iTunes, kind: .badResponse(reason: "HTML page instead of JSON"), status: 200)
        ) {
            try ITunesProvider.decodeAlbums(status: 200, headers: [:], body: page)
        }
        #expect(
            throws: UpstreamError(
                service: .iTunes,
                kind: .httpStatus(code: 503, bodySummary: "Your request produced an error. [newNullResponse]"),
                status: 503)
        ) {
            try ITunesProvider.decodeAlbums(status: 503, headers: [:], body: page)
        }
    }

    @Test func truncatedAndWrongShapeBodies() throws {
        let full = try Fixture.bytes("itunes/lookup-by-upc.json")
        #expect(
            throws: UpstreamError(service: .iTunes, kind: .badResponse(reason: "body is not valid JSON"), status: 200)
        ) {
            try ITunesProvider.decodeAlbums(status: 200, headers: [:], body: Array(full.prefix(full.count / 2)))
        }
        #expect(throws: UpstreamError(service: .iTunes, kind: .badResponse(reason: "missing resultCount"), status: 200))
        {
            try ITunesProvider.decodeAlbums(status: 200, headers: [:], body: Array(#"{"results":[]}"#.utf8))
        }
    }

    @Test func rateLimitWithRetryAfter() {
        #expect(throws: UpstreamError(service: .iTunes, kind: .quotaExceeded, status: 429, retryAfterSeconds: 7)) {
            try ITunesProvider.decodeTracks(status: 429, headers: ["retry-after": "7"], body: [])
        }
    }

    // MARK: Calls

    @Test func lookupCallUsesTheTransport() async throws {
        let transport = CannedTransport(
            status: 200, body: try Fixture.bytes("itunes/lookup-album-tracks_entity-song_kpop-ep_us.json"))
        let itunes = ITunesProvider(baseURL: "http://demo", transport: transport)
        let byAlbum = try await itunes.lookupTracks(albumIds: ["1728639278", "404"])
        #expect(byAlbum.mapValues(\.count) == ["1728639278": 6])
        #expect(transport.urls == ["http://demo/lookup?id=1728639278,404&entity=song&limit=200&country=US"])
    }

    @Test func transportFailuresBecomeUpstreamErrors() async {
        let timeout = ITunesProvider(transport: CannedTransport(.failure(.timedOut)))
        await #expect(throws: UpstreamError(service: .iTunes, kind: .timeout, upstreamPath: "/search")) {
            try await timeout.searchArtists(term: "x")
        }
        let refused = ITunesProvider(transport: CannedTransport(.failure(.connectFailed(reason: "connection refused"))))
        await #expect(
            throws: UpstreamError(
                service: .iTunes, kind: .unreachable(reason: "connection refused"), upstreamPath: "/search")
        ) {
            try await refused.searchArtists(term: "x")
        }
    }
}
