import Testing
import UpstreamEconomy

@testable import Catalog

/// The JSONReader path of `decodeSearch` against the Codable one it stands in for: the same
/// page for every real body, and no page (so the Codable path's error) for other shapes.
@Suite struct YouTubeSearchReaderTests {
    /// The page `YTSearchResponse` (Codable, `WireJSON.decode`) makes of `body`, as `decodeSearch` did alone.
    func codablePage(_ body: [UInt8]) throws -> Page<Video> {
        try YouTubeProvider.decodeSearchPage(body, status: 200)
    }

    @Test(arguments: [
        "youtube/search-list_part-snippet_regionCode-JP_page1.json",
        "youtube/search-list_part-snippet_regionCode-JP_page2.json",
    ])
    func fixturePagesMatchCodable(_ name: String) throws {
        let body = try Fixture.bytes(name)
        let page = try #require(YouTubeSearchReader.page(body))
        #expect(page == (try codablePage(body)))
        #expect(page.items.count > 10)
    }

    @Test func nullsSkippedItemsAndMissingTitlesMatchCodable() throws {
        let body = Array(
            #"""
            {"nextPageToken":null,"items":[{"id":{"kind":"youtube#channel","channelId":"UC1"},"snippet":{"title":"A channel"}},
            {"id":{"videoId":"abc"},"snippet":{"title":"Rock &amp; Roll","thumbnails":{"default":{"url":"d"},"high":{"url":"h"}}}},
            {"id":{"videoId":"nosnippet"}},{"id":null,"snippet":{}},{"id":{"videoId":"untitled"},"snippet":{"title":null}}]}
            """#.utf8)
        let page = try #require(YouTubeSearchReader.page(body))
        #expect(page == (try codablePage(body)))
        #expect(page.items.map(\.id) == ["abc", "nosnippet", "untitled"])
        #expect(page.items[0].thumbnailURL == "h")
        #expect(page.items[1].missingFields == ["title"])
        #expect(page.items[2].missingFields == ["title"])
    }

    @Test(arguments: [
        #"{"items":{}}"#, #"{"kinds":[]}"#, #"[]"#, #"{"items":[1]}"#, #"{"items":[{"snippet":{"title":5}}]}"#,
        #"{"items":[],"pageInfo":{"totalResults":"5"}}"#, #"{"items":[{"id":{"videoId":7}}]}"#,
        #"{"items":[{"snippet":{"thumbnails":{"high":"h"}}}]}"#, #"{"items":[]"#, "",
    ])
    func otherShapesGoToTheCodablePath(_ text: String) throws {
        #expect(YouTubeSearchReader.page(Array(text.utf8)) == nil)
        // …whose error is the one decodeSearch always gave.
        #expect(throws: UpstreamError.self) {
            try YouTubeProvider.decodeSearch(status: 200, headers: [:], body: Array(text.utf8))
        }
    }
}
