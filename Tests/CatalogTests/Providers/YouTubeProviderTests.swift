import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct YouTubeProviderTests {
    let provider = YouTubeProvider(baseURL: "http://127.0.0.1:9", key: "K", transport: CannedTransport(status: 200))

    @Test func searchURL() {
        #expect(
            provider.searchURL(query: "Guns N' Roses #1 50% a+b", maxResults: 99, duration: .short, pageToken: "CBkQAA")
                == "http://127.0.0.1:9/youtube/v3/search?part=snippet&type=video&q=Guns%20N%27%20Roses%20%231%2050%25%20a%2Bb"
                + "&maxResults=50&videoDuration=short&pageToken=CBkQAA&key=K")
    }

    @Test func videosURL() {
        #expect(
            provider.videosURL(ids: ["RkL1tA9rfd0", "uSFXOBaqiR8"])
                == "http://127.0.0.1:9/youtube/v3/videos?part=snippet,contentDetails,statistics&id=RkL1tA9rfd0,uSFXOBaqiR8&key=K"
        )
    }

    @Test func searchPageOneUnescapesTitles() throws {
        let body = try Fixture.bytes("youtube/search-list_part-snippet_regionCode-JP_page1.json")
        let page = try YouTubeProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page.items.count == 25)
        #expect(page.nextPageToken == "CBkQAA")
        #expect(page.totalResults == 1_000_000)
        #expect(page.items[1].title == "SURFING PERFECT PIPE & BACKDOOR || SUNRISE SHACK!")
        #expect(page.items[6].title == "World's best surfing 2017")
        #expect(page.items[17].title == "DANGEROUS SEWER DRAIN SURFING! | Jamie O'Brien")
        let first = page.items[0]
        #expect(first.id == "gQ_1zX-F_No")
        #expect(first.url == "https://www.youtube.com/watch?v=gQ_1zX-F_No")
        #expect(first.channelTitle == "Jamie O'Brien")
        #expect(first.publishedAt == "2019-12-05T19:00:10.000Z")
        #expect(first.thumbnailURL == "https://i.ytimg.com/vi/gQ_1zX-F_No/hqdefault.jpg")
    }

    @Test func searchPageTwo() throws {
        let body = try Fixture.bytes("youtube/search-list_part-snippet_regionCode-JP_page2.json")
        let page = try YouTubeProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page.nextPageToken == "CDIQAA")
        #expect(page.items.first?.id == "-2IlD-x8wvY")
        #expect(page.items[5].title == "\"Pacific Dreams\" A California Surfing Film")
        #expect(page.items[14].title == "10-Year-Old PRO Skater & Surfing PRODIGY | Sky Brown")
    }

    @Test func itemsWithoutVideoIdAreSkipped() throws {
        let body = Array(
            #"""
            {"items":[{"id":{"kind":"youtube#channel","channelId":"UC1"},"snippet":{"title":"A channel"}},
            {"id":{"kind":"youtube#video","videoId":"abc"},"snippet":{"title":"Rock &amp; Roll"}}],"pageInfo":{"totalResults":2}}
            """#.utf8)
        let page = try YouTubeProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page.items.map(\.id) == ["abc"])
        #expect(page.items.map(\.title) == ["Rock & Roll"])
    }

    @Test func videosWithDurationsAndStatistics() throws {
        let body = try Fixture.bytes(
            "youtube/videos-list_multi-id_part-snippet-contentDetails-statistics_items-trimmed.json")
        let videos = try YouTubeProvider.decodeVideos(status: 200, headers: [:], body: body)
        #expect(videos.map(\.id) == ["RkL1tA9rfd0", "uSFXOBaqiR8"])
        #expect(videos.map(\.title) == ["Veridis Quo", "Veridis Quo (Edit)"])
        #expect(videos.map(\.durationMs) == [346_000, 165_000])
        #expect(videos.map(\.viewCount) == [47748, 390_502])
    }

    @Test func videosWithPlayerPartOnly() throws {
        let body = try Fixture.bytes("youtube/videos-list_multi-id_part-snippet-player.json")
        let videos = try YouTubeProvider.decodeVideos(status: 200, headers: [:], body: body)
        #expect(videos.map(\.id) == ["D-lhorsDlUQ", "ovdbrdCIP7U"])
        #expect(videos[1].title == "How EVERY Team Got Its Name & Identity!")
        #expect(videos[0].channelTitle == "Google Developers")
        #expect(videos[0].durationMs == nil)
        #expect(videos[0].viewCount == nil)
    }

    @Test func quotaExceeded() throws {
        let body = try Fixture.bytes("youtube/error-403-quotaExceeded.json")
        #expect(throws: UpstreamError(service: .youTube, kind: .quotaExceeded, status: 403)) {
            try YouTubeProvider.decodeSearch(
                status: 403, headers: ["content-type": "application/json; charset=UTF-8"], body: body)
        }
    }

    @Test func legacyKeyInvalid() throws {
        let body = try Fixture.bytes("youtube/error-400-keyInvalid-legacy.json")
        #expect(throws: UpstreamError(service: .youTube, kind: .authFailed, status: 400)) {
            try YouTubeProvider.decodeVideos(status: 400, headers: [:], body: body)
        }
    }

    @Test func currentKeyInvalidViaDetails() {
        let body = Array(
            #"""
            {"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","errors":[{"message":"API key not valid.","domain":"global","reason":"badRequest"}],"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}
            """#.utf8)
        #expect(throws: UpstreamError(service: .youTube, kind: .authFailed, status: 400)) {
            try YouTubeProvider.decodeSearch(status: 400, headers: [:], body: body)
        }
    }

    @Test func accessNotConfiguredAndPermissionDenied() throws {
        let notConfigured = try Fixture.bytes("youtube/error-403-accessNotConfigured.json")
        #expect(throws: UpstreamError(service: .youTube, kind: .authFailed, status: 403)) {
            try YouTubeProvider.decodeSearch(status: 403, headers: [:], body: notConfigured)
        }
        let denied = try Fixture.bytes("youtube/error-403-permission-denied.json")
        #expect(throws: UpstreamError(service: .youTube, kind: .authFailed, status: 403)) {
            try YouTubeProvider.decodeSearch(status: 403, headers: [:], body: denied)
        }
    }

    @Test func backendErrorIsHTTPError() {
        let body = Array(
            #"{"error":{"code":503,"message":"The service is currently unavailable.","errors":[{"reason":"backendError"}]}}"#
                .utf8)
        #expect(
            throws: UpstreamError(
                service: .youTube, kind: .httpStatus(code: 503, bodySummary: "The service is currently unavailable."),
                status: 503)
        ) { try YouTubeProvider.decodeSearch(status: 503, headers: [:], body: body) }
    }

    @Test func canaryKeyNeverInErrors() async {
        let canary = "CANARY-yt-7c1e"
        for outcome: CannedTransport.Outcome in [
            .response(
                UpstreamResponse(status: 500, body: Array("bad key=\(canary) in /youtube/v3/search?key=\(canary)".utf8))
            ),
            .response(UpstreamResponse(status: 200, body: Array("<html>\(canary)</html>".utf8))),
            .failure(.connectFailed(reason: "refused for http://x/?key=\(canary)")),
            .failure(.failed(reason: "reset \(canary)")),
        ] {
            let youtube = YouTubeProvider(key: canary, transport: CannedTransport(outcome))
            do {
                _ = try await youtube.search(query: "q")
                Issue.record("expected an error")
            } catch {
                #expect(!error.description.contains(canary))
                #expect(!"\(error.kind)".contains(canary))
            }
        }
    }
}
