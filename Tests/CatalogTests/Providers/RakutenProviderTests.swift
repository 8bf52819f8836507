import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct RakutenProviderTests {
    let provider = RakutenProvider(
        baseURL: "http://127.0.0.1:9", applicationId: "APP", transport: CannedTransport(status: 200))

    @Test func searchURLEncodesArtistNames() {
        #expect(
            provider.searchURL(artistName: "Chico Science & Nação Zumbi", hits: 50, page: 0)
                == "http://127.0.0.1:9/services/api/BooksCD/Search/20170404?format=json&formatVersion=2&applicationId=APP"
                + "&artistName=Chico%20Science%20%26%20Na%C3%A7%C3%A3o%20Zumbi&hits=30&page=1")
        var v1 = provider
        v1.formatVersion = 1
        v1.accessKey = "AK"
        #expect(
            v1.searchURL(title: "a=b#c", hits: 2, page: 101)
                == "http://127.0.0.1:9/services/api/BooksCD/Search/20170404?format=json&formatVersion=1&applicationId=APP"
                + "&accessKey=AK&title=a%3Db%23c&hits=2&page=100")
    }

    @Test func releaseByJANIsASearchOnTheJanKey() async throws {
        let body = try Fixture.bytes("rakuten/bookscd-search_formatVersion-2_keyword-ruby.json")
        let transport = CannedTransport(status: 200, body: body)
        let rakuten = RakutenProvider(baseURL: "http://127.0.0.1:9", applicationId: "APP", transport: transport)
        let release = try #require(try await rakuten.release(jan: "4548967298154"))
        #expect(release.album.title == "RWBY Volume3 Original Soundtrack VOCAL ALBUM")
        #expect(release.album.artistName == "ジェフ・ウィリアムズ/ケイシー・リー・ウィリアムズ")
        #expect(release.album.releaseDate == "2016-11-30")
        #expect(release.album.copyright == nil)
        #expect(release.tracks.count == 11)
        #expect(release.tracks.first?.id == "4548967298154-1")
        // An answer without that JAN (the real API answers only exact matches) is no release.
        #expect(try await rakuten.release(jan: "4900000000000") == nil)
        #expect(
            transport.urls.first
                == "http://127.0.0.1:9/services/api/BooksCD/Search/20170404?format=json&formatVersion=2&applicationId=APP"
                + "&jan=4548967298154&hits=30&page=1")
    }

    @Test func formatVersion2() throws {
        let body = try Fixture.bytes("rakuten/bookscd-search_formatVersion-2_keyword-ruby.json")
        let page = try RakutenProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page.items.count == 30)
        #expect(page.totalResults == 33)
        #expect(page.nextPageToken == "2")
        let first = page.items[0]
        #expect(first.album.title == "ニンテンドー3DS\u{3000}ポケモン オメガルビー・アルファサファイア スーパーミュージックコンプリート")
        #expect(first.album.id == "4560423191557")
        #expect(first.album.releaseDate == "2014-12-03")
        #expect(first.tracks.isEmpty)  // playList ""
        #expect(first.album.trackCount == nil)
        let rwby = page.items[1]
        #expect(rwby.album.artistName == "ジェフ・ウィリアムズ/ケイシー・リー・ウィリアムズ")
        #expect(rwby.album.url == "http://books.rakuten.co.jp/rb/14330981/")
        #expect(
            rwby.album.artworkURL
                == "http://thumbnail.image.rakuten.co.jp/@0_mall/book/cabinet/8154/4548967298154.jpg?_ex=200x200")
        #expect(rwby.album.trackCount == 11)
        #expect(
            rwby.tracks.first
                == Track(
                    id: "4548967298154-1", title: "ホエン・イット・フォールズ", albumId: "4548967298154",
                    albumTitle: "RWBY Volume3 Original Soundtrack VOCAL ALBUM", artistName: "ジェフ・ウィリアムズ/ケイシー・リー・ウィリアムズ",
                    trackNumber: 1, source: .rakuten))
        #expect(rwby.tracks.last?.title == "ルビーvsファンキー (BONUS TRACK)")
        #expect(rwby.tracks.last?.trackNumber == 11)
        // `|` stays inside a title (a medley), it does not start a disc.
        let medley = page.items[7]
        #expect(medley.tracks.first?.title == "赤とんぼ|スターダスト")
        #expect(medley.tracks.count == 12)
    }

    @Test func formatVersion1() throws {
        let body = try Fixture.bytes("rakuten/bookscd-search_formatVersion-1_artistName-yoasobi.json")
        let page = try RakutenProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page.items.map(\.album.id) == ["2100014997278", "4573623373104"])
        #expect(page.nextPageToken == "2")
        #expect(page.totalResults == 10)
        #expect(page.items[0].tracks.isEmpty)
        #expect(page.items[0].album.releaseDate == "2026-06-26")
        #expect(
            page.items[1].tracks.map(\.title) == [
                "アドレナ", "BABY", "ADRENA －「アドレナ」English Version －", "BABY － English Version －", "アドレナ － Anime Edit －",
                "BABY － Anime Edit －", "アドレナ － Instrumental －", "BABY － Instrumental －",
            ])
    }

    @Test func emptyResult() throws {
        let body = try Fixture.bytes("rakuten/bookstotal-search_empty.json")
        let page = try RakutenProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page == Page(items: [], nextPageToken: nil, totalResults: 0))
    }

    @Test func salesDates() {
        #expect(RakutenProvider.isoDate(fromSalesDate: "2014年12月03日") == "2014-12-03")
        #expect(RakutenProvider.isoDate(fromSalesDate: "2014年12月上旬") == "2014-12")
        #expect(RakutenProvider.isoDate(fromSalesDate: "2014年") == "2014")
        #expect(RakutenProvider.isoDate(fromSalesDate: "2009年2月5日") == "2009-02-05")
        #expect(RakutenProvider.isoDate(fromSalesDate: "未定") == nil)
        #expect(RakutenProvider.isoDate(fromSalesDate: "") == nil)
    }

    @Test func invalidApplicationIdIsAuthFailed() throws {
        let body = try Fixture.bytes("rakuten/error-400-wrong-parameter_invalid-applicationId.json")
        #expect(throws: UpstreamError(service: .rakuten, kind: .authFailed, status: 400)) {
            try RakutenProvider.decodeSearch(status: 400, headers: [:], body: body)
        }
    }

    @Test func tooManyRequestsIsQuota() throws {
        let body = try Fixture.bytes("rakuten/error-429-too-many-requests.json")
        #expect(throws: UpstreamError(service: .rakuten, kind: .quotaExceeded, status: 429)) {
            try RakutenProvider.decodeSearch(status: 429, headers: [:], body: body)
        }
    }

    @Test func otherWrongParameterIsHTTPError() {
        let body = Array(#"{"error":"wrong_parameter","error_description":"hits must be a number"}"#.utf8)
        #expect(
            throws: UpstreamError(
                service: .rakuten, kind: .httpStatus(code: 400, bodySummary: "wrong_parameter: hits must be a number"),
                status: 400)
        ) { try RakutenProvider.decodeSearch(status: 400, headers: [:], body: body) }
    }

    @Test func newHostErrorShape() {
        let body = Array(#"{"errors":{"errorCode":400,"errorMessage":"accessKey must be present"}}"#.utf8)
        #expect(throws: UpstreamError(service: .rakuten, kind: .authFailed, status: 400)) {
            try RakutenProvider.decodeSearch(status: 400, headers: [:], body: body)
        }
        let outage = Array(#"{"errors":{"errorCode":503,"errorMessage":"service unavailable"}}"#.utf8)
        #expect(
            throws: UpstreamError(
                service: .rakuten, kind: .httpStatus(code: 503, bodySummary: "503: service unavailable"), status: 503)
        ) { try RakutenProvider.decodeSearch(status: 503, headers: [:], body: outage) }
    }

    @Test func missingApplicationIdMakesNoRequest() async {
        let transport = CannedTransport(status: 200)
        let rakuten = RakutenProvider(applicationId: "", transport: transport)
        await #expect(throws: UpstreamError(service: .rakuten, kind: .notConfigured)) {
            try await rakuten.search(artistName: "x")
        }
        #expect(transport.urls.isEmpty)
    }
}
