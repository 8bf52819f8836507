import Testing

@testable import Catalog

@Suite struct IdBatchesTests {
    @Test func chunksDropDuplicatesAndEmptyBatches() {
        #expect(IdBatches.chunks([], size: 3).isEmpty)
        #expect(IdBatches.chunks(["a", "b", "a", "c", "d"], size: 3) == [["a", "b", "c"], ["d"]])
        #expect(IdBatches.chunks(["a", "b"], size: 2) == [["a", "b"]])
    }

    @Test func providersSplitLongIdListsAtTheirBatchLimits() async throws {
        let empty = Array(#"{"resultCount":0,"results":[]}"#.utf8)
        let itunesTransport = CannedTransport(status: 200, body: empty)
        let itunes = ITunesProvider(baseURL: "http://demo", transport: itunesTransport)
        _ = try await itunes.lookupTracks(albumIds: (1...250).map(String.init) + ["1", "2"])
        #expect(itunesTransport.urls.count == 2)
        #expect(
            itunesTransport.urls[1]
                == "http://demo/lookup?id=\((201...250).map(String.init).joined(separator: ","))&entity=song&limit=200&country=US"
        )
        _ = try await itunes.lookupAlbums(ids: [])
        #expect(itunesTransport.urls.count == 2)

        let appleTransport = CannedTransport(status: 200, body: Array(#"{"data":[]}"#.utf8))
        let apple = AppleMusicProvider(baseURL: "http://demo", token: "token", transport: appleTransport)
        _ = try await apple.albums(ids: (1...120).map(String.init))
        #expect(appleTransport.urls.count == 2)

        let youtubeTransport = CannedTransport(status: 200, body: Array(#"{"items":[]}"#.utf8))
        let youtube = YouTubeProvider(baseURL: "http://demo", key: "key1", transport: youtubeTransport)
        _ = try await youtube.videos(ids: (1...101).map(String.init))
        #expect(youtubeTransport.urls.count == 3)
    }

    @Test func keyedKeepsTheFirstValueOfAnIdThatRepeats() {
        let keyed = IdBatches.keyed([("a", 1), ("b", 2), ("a", 3)], by: { $0.0 })
        #expect(keyed.count == 2)
        #expect(keyed["a"]?.1 == 1)
        #expect(keyed["b"]?.1 == 2)
        #expect(IdBatches.keyed([(String, Int)](), by: { $0.0 }).isEmpty)
    }

    /// One chunk is answered as its request decoded it; the first record of an id the upstream
    /// repeats wins, and an id it left out is absent, as when every chunk was merged.
    @Test func aOneChunkLookupIsItsResponseKeyedById() async throws {
        let body = Array(
            #"""
            {"resultCount":3,"results":[
              {"wrapperType":"artist","artistId":1,"artistName":"First"},
              {"wrapperType":"artist","artistId":2,"artistName":"Second"},
              {"wrapperType":"artist","artistId":1,"artistName":"Repeated"}]}
            """#.utf8)
        let transport = CannedTransport(status: 200, body: body)
        let itunes = ITunesProvider(baseURL: "http://demo", transport: transport)
        let artists = try await itunes.lookupArtists(ids: ["1", "2", "3", "1"])
        #expect(transport.urls == ["http://demo/lookup?id=1,2,3&country=US"])
        #expect(artists.keys.sorted() == ["1", "2"])
        #expect(artists["1"]?.name == "First")
        #expect(artists["2"]?.name == "Second")
    }
}
