import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct QueryEncodingTests {
    @Test func unreservedCharactersStayAsTheyAre() {
        #expect(QueryEncoding.percentEncode("AZaz09-._~") == "AZaz09-._~")
    }

    @Test func reservedAndSpecialCharactersAreEncoded() {
        #expect(QueryEncoding.percentEncode("AC/DC") == "AC%2FDC")
        #expect(QueryEncoding.percentEncode("Guns N' Roses") == "Guns%20N%27%20Roses")
        #expect(QueryEncoding.percentEncode("a&b=c") == "a%26b%3Dc")
        #expect(QueryEncoding.percentEncode("+") == "%2B")
        #expect(QueryEncoding.percentEncode("#") == "%23")
        #expect(QueryEncoding.percentEncode("%") == "%25")
        #expect(QueryEncoding.percentEncode("100%25") == "100%2525")
        #expect(QueryEncoding.percentEncode("?,;:@!$()*[]") == "%3F%2C%3B%3A%40%21%24%28%29%2A%5B%5D")
    }

    @Test func unicodeIsEncodedFromItsExactScalars() {
        // NFC: ö is U+00F6; NFD: o + U+0308. They must reach the upstream differently.
        #expect(QueryEncoding.percentEncode("Mot\u{00F6}rhead") == "Mot%C3%B6rhead")
        #expect(QueryEncoding.percentEncode("Moto\u{0308}rhead") == "Moto%CC%88rhead")
        #expect(QueryEncoding.percentEncode("Nação") == "Na%C3%A7%C3%A3o")
        #expect(QueryEncoding.percentEncode("東京事変") == "%E6%9D%B1%E4%BA%AC%E4%BA%8B%E5%A4%89")
        #expect(QueryEncoding.percentEncode("🎸") == "%F0%9F%8E%B8")
    }

    @Test func queryStringSkipsNilValuesAndKeepsOrder() {
        let q = QueryEncoding.queryString([("term", "a&b=c"), ("lang", nil), ("limit", "5")])
        #expect(q == "term=a%26b%3Dc&limit=5")
        #expect(QueryEncoding.queryString([("a", nil)]) == "")
        #expect(
            QueryEncoding.queryString([("a", nil), ("q", "Nação 🎸"), ("k y", "")])
                == "q=Na%C3%A7%C3%A3o%20%F0%9F%8E%B8&k%20y=")
    }

    @Test func onlyYouTubeSearchesCostAHundredUnits() {
        #expect(
            UpstreamTraits.builtIn[.youTube].units(
                ofURL: "https://www.googleapis.com/youtube/v3/search?part=snippet&q=x") == 100)
        #expect(UpstreamTraits.builtIn[.youTube].units(ofURL: "http://127.0.0.1:1/youtube/v3/search") == 100)
        #expect(UpstreamTraits.builtIn[.youTube].units(ofURL: "/youtube/v3/search") == 100)
        #expect(UpstreamTraits.builtIn[.youTube].units(ofURL: "https://www.googleapis.com/youtube/v3/videos?id=a") == 1)
        #expect(UpstreamTraits.builtIn[.youTube].units(ofURL: "https://itunes.apple.com/search?term=youtube") == 1)
        #expect(UpstreamTraits.builtIn[.youTube].units(ofURL: "/youtube/v3/searc") == 1)
        #expect(UpstreamTraits.builtIn[.youTube].units(ofURL: "") == 1)
    }

    @Test func idListsJoinEncodedIdsWithCommas() {
        #expect(QueryEncoding.idList(["1", "2", "x,y"]) == "1,2,x%2Cy")
    }

    @Test func baseURLTrailingSlashIsTolerated() {
        #expect(
            upstreamURL(base: "http://127.0.0.1:8080/", path: "/search", query: "a=1")
                == "http://127.0.0.1:8080/search?a=1")
        #expect(upstreamURL(base: "http://h", path: "/p", query: "") == "http://h/p")
    }
}
