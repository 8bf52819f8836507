import Foundation

/// TMDB API v3 emulation: `/3/search/movie` (20 per page, pages 1–500, null posters, empty
/// dates), `/3/movie/{id}` (details) and `/3/movie/{id}/videos`. `api_key` or a Bearer token is required; any works.
struct TMDBRoutes: Sendable {
    let catalog: DemoCatalog

    static let pageSize = 20
    static let maxPage = 500
    static let contentType = "application/json;charset=utf-8"

    func handle(_ request: DemoRequest) -> DemoResponse {
        let hasKey =
            !(request.query("api_key") ?? "").isEmpty || (request.headers["authorization"] ?? "").hasPrefix("Bearer ")
        guard hasKey else { return Self.error(401, 7, "Invalid API key: You must be granted a valid key.") }
        let parts = request.path.split(separator: "/").map(String.init)
        switch parts {
        case ["3", "search", "movie"]: return search(request)
        case let p where p.count == 3 && p[0] == "3" && p[1] == "movie": return details(p[2])
        case let p where p.count == 4 && p[0] == "3" && p[1] == "movie" && p[3] == "videos": return videos(p[2])
        default: return Self.error(404, 34, "The resource you requested could not be found.")
        }
    }

    private func search(_ request: DemoRequest) -> DemoResponse {
        var page = 1
        switch request.intQuery("page") {
        case .absent: break
        case .value(let n) where (1...Self.maxPage).contains(n): page = n
        default:
            return Self.error(
                400, 22, "Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.")
        }
        let query = request.query("query") ?? ""
        let found = SearchRanking.ranked(catalog.movieEntries, term: query)
        let results = found.dropFirst((page - 1) * Self.pageSize).prefix(Self.pageSize).map { movie -> JSONText in
            .object([
                ("adult", .bool(false)), ("backdrop_path", .string(movie.backdropPath)),
                ("genre_ids", .array(movie.genreIds.map(JSONText.int))), ("id", .int(movie.id)),
                ("original_language", .string(movie.originalLanguage)),
                ("original_title", .string(movie.originalTitle)),
                ("overview", .string(movie.overview)), ("popularity", .number(movie.popularity)),
                ("poster_path", .string(movie.posterPath)), ("release_date", .string(movie.releaseDate)),
                ("title", .string(movie.title)), ("video", .bool(false)), ("vote_average", .number(movie.voteAverage)),
                ("vote_count", .int(movie.voteCount)),
            ])
        }
        let totalPages = (found.count + Self.pageSize - 1) / Self.pageSize
        let body = JSONText.object([
            ("page", .int(page)), ("results", .array(Array(results))), ("total_pages", .int(totalPages)),
            ("total_results", .int(found.count)),
        ])
        return DemoResponse.json(200, body.compact, contentType: Self.contentType)
    }

    /// Genre names of the ids derived movies use (TMDB's movie genre list).
    static let genreNames = [18: "Drama", 99: "Documentary", 10402: "Music"]

    /// The details object: the search result's fields (genres as `{id,name}` objects instead
    /// of `genre_ids`) plus some of the others TMDB sends, in its alphabetical wire order.
    private func details(_ idText: String) -> DemoResponse {
        guard let id = Int(idText), let index = catalog.movieIndexById[id] else {
            return Self.error(404, 34, "The resource you requested could not be found.")
        }
        let movie = catalog.movies[index]
        let genres = movie.genreIds.map { id -> JSONText in
            .object([("id", .int(id)), ("name", .string(Self.genreNames[id] ?? "Music"))])
        }
        let body = JSONText.object([
            ("adult", .bool(false)), ("backdrop_path", .string(movie.backdropPath)), ("belongs_to_collection", .null),
            ("budget", .int(0)), ("genres", .array(genres)), ("homepage", .string("")), ("id", .int(movie.id)),
            ("imdb_id", .null), ("origin_country", .array([.string(movie.originalLanguage == "ja" ? "JP" : "US")])),
            ("original_language", .string(movie.originalLanguage)), ("original_title", .string(movie.originalTitle)),
            ("overview", .string(movie.overview)), ("popularity", .number(movie.popularity)),
            ("poster_path", .string(movie.posterPath)), ("release_date", .string(movie.releaseDate)),
            ("revenue", .int(0)),
            ("runtime", .int(80 + movie.id % 60)), ("status", .string("Released")), ("tagline", .string("")),
            ("title", .string(movie.title)), ("video", .bool(false)), ("vote_average", .number(movie.voteAverage)),
            ("vote_count", .int(movie.voteCount)),
        ])
        return DemoResponse.json(200, body.compact, contentType: Self.contentType)
    }

    private func videos(_ idText: String) -> DemoResponse {
        guard let id = Int(idText), let index = catalog.movieIndexById[id] else {
            return Self.error(404, 34, "The resource you requested could not be found.")
        }
        let movie = catalog.movies[index]
        let results = movie.clips.map { clip -> JSONText in
            .object([
                ("iso_639_1", .string("en")), ("iso_3166_1", .string("US")), ("name", .string(clip.name)),
                ("key", .string(clip.key)), ("site", .string("YouTube")), ("size", .int(1080)),
                ("type", .string(clip.type)),
                ("official", .bool(true)), ("published_at", .string(clip.publishedAt)), ("id", .string(clip.id)),
            ])
        }
        let body = JSONText.object([("id", .int(movie.id)), ("results", .array(results))])
        return DemoResponse.json(200, body.compact, contentType: Self.contentType)
    }

    /// `{"success":false,"status_code":N,"status_message":"…"}` in wire order.
    static func errorBody(_ statusCode: Int, _ message: String) -> String {
        JSONText.object([
            ("success", .bool(false)), ("status_code", .int(statusCode)), ("status_message", .string(message)),
        ]).compact
    }

    static func error(_ status: Int, _ statusCode: Int, _ message: String) -> DemoResponse {
        DemoResponse.json(status, errorBody(statusCode, message), contentType: contentType)
    }
}
