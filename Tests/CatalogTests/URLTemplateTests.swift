import Testing
import UpstreamEconomy

@testable import Catalog

/// `url.template` of a trace's CLIENT span: no query, no path segment a client chose.
@Suite struct URLTemplateTests {
    @Test func keepsTheEndpointAndDropsWhatUsersAndKeysPutInTheURL() {
        let cases: [(String, String)] = [
            ("https://itunes.apple.com/search?term=AC%2FDC&media=music", "https://itunes.apple.com/search"),
            ("https://itunes.apple.com/lookup?id=100001&entity=album", "https://itunes.apple.com/lookup"),
            (
                "https://api.music.apple.com/v1/catalog/us/artists/secret%20word/albums?limit=5",
                "https://api.music.apple.com/v1/catalog/{id}/artists/{id}/albums"
            ),
            (
                "https://api.themoviedb.org/3/movie/Rock/videos?api_key=k3y",
                "https://api.themoviedb.org/3/movie/{id}/videos"
            ),
            (
                "https://www.googleapis.com/youtube/v3/search?key=k3y&q=Rock#frag",
                "https://www.googleapis.com/youtube/v3/search"
            ),
            (
                "https://app.rakuten.co.jp/services/api/BooksCD/Search/20170404?applicationId=k3y",
                "https://app.rakuten.co.jp/services/api/BooksCD/Search/20170404"
            ),
            ("http://user:pa55@127.0.0.1:8081/prefix/search?term=x", "http://127.0.0.1:8081/{id}/search"),
        ]
        for (url, template) in cases {
            #expect(
                URLTemplate.of(url, fixed: UpstreamTraits.builtIn[.iTunes].pathWords).template == template, "\(url)")
        }
        let (_, host, port) = URLTemplate.of("http://user:pa55@127.0.0.1:8081/search", fixed: [])
        #expect(host == "127.0.0.1" && port == 8081)
        #expect(URLTemplate.of("https://itunes.apple.com/search", fixed: []).port == nil)
    }
}
