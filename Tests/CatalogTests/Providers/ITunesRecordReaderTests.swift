import Testing
import UpstreamEconomy

@testable import Catalog

/// The JSONReader path of `decodeRecords` against the Codable one it stands in for: the same
/// records for every real body, and none (so the Codable path's error) for other shapes.
@Suite struct ITunesRecordReaderTests {
    /// The records `ITunesEnvelope` (Codable, `WireJSON.decode`) makes of `body`, as `decodeRecords` did alone.
    func codableRecords(_ body: [UInt8]) throws -> [ITunesRecord] {
        try WireJSON.decode(ITunesEnvelope.self, from: body, service: .iTunes, status: 200).results
    }

    @Test(arguments: [
        "itunes/lookup-album-tracks_entity-song_2-discs_gb.json",
        "itunes/lookup-album-tracks_entity-song_kpop-ep_us.json",
        "itunes/lookup-album-tracks_entity-song_various-artists-missing-tracks_gb.json",
        "itunes/lookup-artist-albums_entity-album_sort-recent.json",
        "itunes/lookup-artist-by-id.json",
        "itunes/lookup-artist-songs_entity-song_sort-recent_ja-title.json",
        "itunes/lookup-by-upc.json",
        "itunes/lookup-multi-id_entity-album_limit-1.json",
        "itunes/lookup-multi-id_entity-song_limit-1_sort-recent.json",
        "itunes/search_empty-results.json",
        "itunes/search_entity-album_limit-25.json",
        "itunes/search_entity-allArtist_attribute-allArtistTerm_trimmed.json",
        "itunes/search_entity-musicVideo.json",
    ])
    func fixtureRecordsMatchCodable(_ name: String) throws {
        let body = try Fixture.bytes(name)
        let records = try #require(ITunesRecordReader.records(body))
        #expect(records == (try codableRecords(body)))
    }

    /// Nulls, integral doubles, a repeated key (its last value), unknown keys, escapes and an
    /// absent wrapper type read as Codable reads them.
    @Test func edgeValuesMatchCodable() throws {
        let body = Array(
            #"""
            {"resultCount":3.0,"results":[
            {"wrapperType":"track","kind":"song","trackId":1.0,"trackName":"A \"quoted\" \u00e9","trackName":"Last wins",
             "collectionId":null,"artistName":null,"trackTimeMillis":215000,"isStreamable":true,"trackPrice":1.29,
             "collectionViewUrl":"https://x/y?a=1&b=2","primaryGenreName":"Rock","discNumber":2,"extra":{"nested":[1,2]}},
            {"wrapperType":"collection","collectionId":7,"collectionName":"C","artistId":9,"copyright":"℗ 2014",
             "artworkUrl100":"a","artistViewUrl":"v","trackCount":12,"releaseDate":"2014-12-03T08:00:00Z"},
            {"artistLinkUrl":"l","previewUrl":"p","trackViewUrl":"t","trackNumber":3}]}
            """#.utf8)
        let records = try #require(ITunesRecordReader.records(body))
        #expect(records == (try codableRecords(body)))
        #expect(records.count == 3)
        #expect(records[0].trackName == "Last wins")
        #expect(records[0].trackId == 1)
        #expect(records[0].collectionViewUrl == "https://x/y?a=1&b=2")
        #expect(records[1].copyright == "℗ 2014")
        #expect(records[2].wrapperType == nil)
    }

    @Test(arguments: [
        #"{"results":[]}"#, #"{"resultCount":0}"#, #"{"resultCount":"0","results":[]}"#,
        #"{"resultCount":0.5,"results":[]}"#,
        #"{"resultCount":null,"results":[]}"#, #"{"resultCount":0,"results":{}}"#, #"[]"#,
        #"{"resultCount":1,"results":[1]}"#,
        #"{"resultCount":1,"results":[{"trackId":"5"}]}"#, #"{"resultCount":1,"results":[{"trackId":5.5}]}"#,
        #"{"resultCount":1,"results":[{"trackName":5}]}"#, #"{"resultCount":1,"results":[{"kind":[]}]}"#,
        #"{"resultCount":1,"results":[{"trackCount":1e300}]}"#, #"{"resultCount":0,"results":[]"#, "",
    ])
    func otherShapesGoToTheCodablePath(_ text: String) throws {
        #expect(ITunesRecordReader.records(Array(text.utf8)) == nil)
        // …whose error is the one decodeRecords always gave.
        #expect(throws: UpstreamError.self) {
            try ITunesProvider.decodeTracks(status: 200, headers: [:], body: Array(text.utf8))
        }
    }
}
