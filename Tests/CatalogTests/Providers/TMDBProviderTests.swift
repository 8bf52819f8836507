import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct TMDBProviderTests {
    let provider = TMDBProvider(baseURL: "http://127.0.0.1:9", apiKey: "K", transport: CannedTransport(status: 200))

    @Test func urls() {
        #expect(
            provider.searchMovieURL(query: "AC/DC: Let There Be Rock", page: 600)
                == "http://127.0.0.1:9/3/search/movie?query=AC%2FDC%3A%20Let%20There%20Be%20Rock&include_adult=false"
                + "&language=en-US&page=500&api_key=K")
        #expect(
            provider.movieVideosURL(movieId: "550") == "http://127.0.0.1:9/3/movie/550/videos?language=en-US&api_key=K")
        #expect(provider.movieURL(movieId: "550") == "http://127.0.0.1:9/3/movie/550?language=en-US&api_key=K")
        #expect(
            provider.movieURL(movieId: "1/videos") == "http://127.0.0.1:9/3/movie/1%2Fvideos?language=en-US&api_key=K")
    }

    @Test func searchFightClub() throws {
        let body = try Fixture.bytes("tmdb/search-movie_query-fight-club_page1.json")
        let page = try TMDBProvider.decodeSearch(status: 200, headers: [:], body: body)
        #expect(page.items.count == 20)
        #expect(page.totalResults == 39)
        #expect(page.nextPageToken == "2")
        #expect(
            page.items[0]
                == Movie(
                    id: "550", title: "Fight Club", originalTitle: "Fight Club", originalLanguage: "en",
                    overview:
                        "A ticking-time-bomb insomniac and a slippery soap salesman channel primal male aggression into a shocking new form of therapy. Their concept catches on, with underground \"fight clubs\" forming in every town, until an eccentric gets in the way and ignites an out-of-control spiral toward oblivion.",
                    releaseDate: "1999-10-15",
                    posterURL: "https://image.tmdb.org/t/p/w500/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg",
                    voteAverage: 8.433, voteCount: 26279))
        #expect(page.items[1...2].map(\.voteCount) == [52, 9])
        #expect(page.items[1].originalTitle == "屍城")
        // "Fight Club (Russian version)": release_date "" and poster_path null.
        #expect(page.items[3].releaseDate == nil)
        #expect(page.items[3].posterURL == nil)
        #expect(page.items[6].posterURL == nil)
    }

    @Test func movieVideos() throws {
        let body = Array(
            #"""
            {"id":550,"results":[{"iso_639_1":"en","iso_3166_1":"US","name":"Fight Club | #TBT Trailer","key":"BdJKm16Co6M","site":"YouTube","size":1080,"type":"Trailer","official":true,"published_at":"2014-10-02T19:20:22.000Z","id":"5c9294240e0a267cd516835f"},
            {"name":"Clip","key":"","site":"YouTube","type":"Clip"},{"name":"Vimeo cut","key":"123","site":"Vimeo","type":"Teaser"}]}
            """#.utf8)
        let videos = try TMDBProvider.decodeVideos(status: 200, headers: [:], body: body)
        // A video without its key is kept (issue 16 item 5): its id and url, made from the key, missing.
        var clip = Video(id: "", title: "Clip", type: "Clip", source: .tmdb)
        clip.missingFields = ["id", "url"]
        #expect(
            videos == [
                Video(
                    id: "BdJKm16Co6M", title: "Fight Club | #TBT Trailer", publishedAt: "2014-10-02T19:20:22.000Z",
                    url: "https://www.youtube.com/watch?v=BdJKm16Co6M", type: "Trailer", source: .tmdb),
                clip,
                Video(id: "123", title: "Vimeo cut", url: "https://vimeo.com/123", type: "Teaser", source: .tmdb),
            ])
    }

    @Test func invalidKey() throws {
        let body = try Fixture.bytes("tmdb/error-401-invalid-api-key_status-7.json")
        #expect(throws: UpstreamError(service: .tmdb, kind: .authFailed, status: 401)) {
            try TMDBProvider.decodeSearch(status: 401, headers: [:], body: body)
        }
    }

    @Test func notFoundInBothKeyOrders() throws {
        let expected = UpstreamError(
            service: .tmdb,
            kind: .httpStatus(
                code: 404, bodySummary: "The resource you requested could not be found. (status_code 34)"),
            status: 404)
        for file in ["tmdb/error-404-not-found_status-34.json", "tmdb/error-404-not-found_status-34_wire-order.json"] {
            let body = try Fixture.bytes(file)
            #expect(throws: expected) { try TMDBProvider.decodeVideos(status: 404, headers: [:], body: body) }
        }
    }

    @Test func invalidPage() throws {
        let body = try Fixture.bytes("tmdb/error-400-invalid-page_status-22.json")
        #expect(
            throws: UpstreamError(
                service: .tmdb,
                kind: .httpStatus(
                    code: 400,
                    bodySummary:
                        "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer. (status_code 22)"
                ),
                status: 400)
        ) { try TMDBProvider.decodeSearch(status: 400, headers: [:], body: body) }
    }

    @Test func rateLimited() {
        let body = Array(
            #"{"success":false,"status_code":25,"status_message":"Your request count (41) is over the allowed limit of (40)."}"#
                .utf8)
        #expect(throws: UpstreamError(service: .tmdb, kind: .quotaExceeded, status: 429, retryAfterSeconds: 10)) {
            try TMDBProvider.decodeSearch(status: 429, headers: ["Retry-After": "10"], body: body)
        }
    }

    @Test func unknownMovieHasNoVideos() async throws {
        let body = try Fixture.bytes("tmdb/error-404-not-found_status-34_wire-order.json")
        let tmdb = TMDBProvider(apiKey: "k", transport: CannedTransport(status: 404, body: body))
        #expect(try await tmdb.movieVideos(movieId: "999999").isEmpty)
    }

    /// `/3/movie/{id}` details in TMDB's documented shape (Fight Club's fields as the
    /// recorded search sample gives them, plus detail-only fields we do not read).
    @Test func movieDetails() throws {
        let body = Array(
            #"""
            {"adult":false,"backdrop_path":"/hZkgoQYus5vegHoetLkCJzb17zJ.jpg","belongs_to_collection":null,"budget":63000000,
            "genres":[{"id":18,"name":"Drama"}],"homepage":"http://www.foxmovies.com/movies/fight-club","id":550,
            "imdb_id":"tt0137523","original_language":"en","original_title":"Fight Club","overview":"A ticking-time-bomb insomniac.",
            "popularity":61.416,"poster_path":"/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg","release_date":"1999-10-15","revenue":100853753,
            "runtime":139,"status":"Released","tagline":"Mischief. Mayhem. Soap.","title":"Fight Club","video":false,
            "vote_average":8.433,"vote_count":26279}
            """#.utf8)
        #expect(
            try TMDBProvider.decodeMovie(status: 200, headers: [:], body: body)
                == Movie(
                    id: "550", title: "Fight Club", originalTitle: "Fight Club", originalLanguage: "en",
                    overview: "A ticking-time-bomb insomniac.", releaseDate: "1999-10-15",
                    posterURL: "https://image.tmdb.org/t/p/w500/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg", voteAverage: 8.433,
                    voteCount: 26279))
    }

    @Test func unknownMovieIsNilAndOtherErrorsThrow() async throws {
        let notFound = try Fixture.bytes("tmdb/error-404-not-found_status-34_wire-order.json")
        let tmdb = TMDBProvider(apiKey: "k", transport: CannedTransport(status: 404, body: notFound))
        #expect(try await tmdb.movie(id: "999999") == nil)
        let badKey = try Fixture.bytes("tmdb/error-401-invalid-api-key_status-7.json")
        let denied = TMDBProvider(apiKey: "k", transport: CannedTransport(status: 401, body: badKey))
        await #expect(
            throws: UpstreamError(service: .tmdb, kind: .authFailed, status: 401, upstreamPath: "/3/movie/550")
        ) {
            try await denied.movie(id: "550")
        }
    }
}
