import UpstreamEconomy

/// The TMDB API v3: movie search, one movie's details and a movie's videos (`api_key`;
/// API-FACTS §5). TMDB has no multi-id endpoint: movies by id cost one request each.
public struct TMDBProvider: Sendable {
    public static let defaultBaseURL = "https://api.themoviedb.org"
    /// Poster URLs are `<imageBaseURL><posterSize><poster_path>`.
    public static let defaultImageBaseURL = "https://image.tmdb.org/t/p/"
    public static let posterSize = "w500"
    /// The poster sizes TMDB's image server has (its `/configuration` `poster_sizes`).
    public static let posterSizes = ["w92", "w154", "w185", "w342", "w500", "w780", "original"]
    /// Pages 1…500 exist; beyond → 400 status_code 22.
    public static let maxPage = 500

    public var baseURL: String
    public var imageBaseURL: String
    /// v3 API key. Never logged, never in an error.
    public var apiKey: String?
    /// `language` parameter, e.g. `en-US`.
    public var language: String
    public var transport: any UpstreamTransport

    public init(
        baseURL: String = TMDBProvider.defaultBaseURL, imageBaseURL: String = TMDBProvider.defaultImageBaseURL,
        apiKey: String?, language: String = "en-US", transport: any UpstreamTransport
    ) {
        self.baseURL = baseURL
        self.imageBaseURL = imageBaseURL
        self.apiKey = apiKey
        self.language = language
        self.transport = transport
    }

    // MARK: - URLs

    /// `/3/search/movie?query=…&include_adult=false&language=…&page=…&api_key=…`; page clamped to 1–500.
    public func searchMovieURL(query: String, page: Int = 1) -> String {
        let q = QueryEncoding.queryString([
            ("query", query), ("include_adult", "false"), ("language", language),
            ("page", String(min(max(page, 1), Self.maxPage))), ("api_key", apiKey ?? ""),
        ])
        return upstreamURL(base: baseURL, path: "/3/search/movie", query: q)
    }

    /// `/3/movie/{id}?language=…&api_key=…` (the movie's details).
    public func movieURL(movieId: String) -> String {
        let q = QueryEncoding.queryString([("language", language), ("api_key", apiKey ?? "")])
        return upstreamURL(base: baseURL, path: "/3/movie/\(QueryEncoding.percentEncode(movieId))", query: q)
    }

    /// `/3/movie/{id}/videos?language=…&api_key=…`.
    public func movieVideosURL(movieId: String) -> String {
        let q = QueryEncoding.queryString([("language", language), ("api_key", apiKey ?? "")])
        return upstreamURL(base: baseURL, path: "/3/movie/\(QueryEncoding.percentEncode(movieId))/videos", query: q)
    }

    // MARK: - Calls

    /// One page (20 results) of movies; `nextPageToken` is the next page number.
    public func searchMovies(query: String, page: Int = 1) async throws(UpstreamError) -> Page<Movie> {
        let imageBaseURL = imageBaseURL
        return try await fetch(searchMovieURL(query: query, page: page)) {
            status, headers, body throws(UpstreamError) in
            try Self.decodeSearch(status: status, headers: headers, body: body, imageBaseURL: imageBaseURL)
        }
    }

    /// One movie by its TMDB id; nil when TMDB does not know it (404, status_code 34).
    public func movie(id: String) async throws(UpstreamError) -> Movie? {
        let imageBaseURL = imageBaseURL
        return try await fetch(movieURL(movieId: id)) { status, headers, body throws(UpstreamError) in
            status == 404
                ? nil : try Self.decodeMovie(status: status, headers: headers, body: body, imageBaseURL: imageBaseURL)
        }
    }

    /// A movie's videos (trailers, teasers, clips); an unknown movie (404, status 34) has none.
    public func movieVideos(movieId: String) async throws(UpstreamError) -> [Video] {
        try await fetch(movieVideosURL(movieId: movieId)) { status, headers, body throws(UpstreamError) in
            status == 404 ? [] : try Self.decodeVideos(status: status, headers: headers, body: body)
        }
    }

    /// `UpstreamCall.fetch` with this provider's secrets, for the call site that called this.
    private func fetch<T: Sendable>(
        _ url: String, fileID: StaticString = #fileID, line: UInt = #line,
        decode: (Int, [String: String], [UInt8]) throws(UpstreamError) -> T
    ) async throws(UpstreamError) -> T {
        guard let apiKey, !apiKey.isEmpty else { throw UpstreamError(service: .tmdb, kind: .notConfigured) }
        return try await UpstreamCall(service: .tmdb, transport: transport, secrets: [apiKey]).fetch(
            url, fileID: fileID, line: line, decode: decode)
    }
}

// MARK: - Decoding

extension TMDBProvider {
    /// Decodes `/3/search/movie`: `release_date` `""` → nil, `poster_path` null → no poster.
    /// - Throws: `UpstreamError` per `decodeError` for error statuses, `badResponse` for other shapes.
    public static func decodeSearch(
        status: Int, headers: [String: String], body: [UInt8], imageBaseURL: String = defaultImageBaseURL
    ) throws(UpstreamError) -> Page<Movie> {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        let wire = try WireJSON.decode(TMDBSearchResponse.self, from: body, service: .tmdb, status: status)
        let movies = wire.results.map { $0.movie(imageBaseURL: imageBaseURL) }
        let hasNext = wire.page < min(wire.totalPages ?? 0, maxPage)
        return Page(
            items: movies, nextPageToken: hasNext ? String(wire.page + 1) : nil, totalResults: wire.totalResults)
    }

    /// Decodes `/3/movie/{id}`: the same movie fields as a search result (plus others we do
    /// not read: `genres`, `runtime`, …).
    /// - Throws: `UpstreamError` per `decodeError` for error statuses, `badResponse` for other shapes.
    public static func decodeMovie(
        status: Int, headers: [String: String], body: [UInt8], imageBaseURL: String = defaultImageBaseURL
    ) throws(UpstreamError) -> Movie {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        return try WireJSON.decode(TMDBMovieRecord.self, from: body, service: .tmdb, status: status)
            .movie(imageBaseURL: imageBaseURL)
    }

    /// Decodes `/3/movie/{id}/videos`; YouTube and Vimeo keys become watch URLs.
    public static func decodeVideos(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Video]
    {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        let wire = try WireJSON.decode(TMDBVideosResponse.self, from: body, service: .tmdb, status: status)
        return wire.results.map { v in
            let key = v.key ?? ""
            let url: String? =
                switch v.site {
                case "YouTube": YouTubeProvider.watchURL(videoId: key)
                case "Vimeo": "https://vimeo.com/" + QueryEncoding.percentEncode(key)
                default: nil
                }
            var video = Video(
                id: key, title: v.name ?? "", publishedAt: v.publishedAt, url: url, type: v.type, source: .tmdb)
            if v.name == nil { video.missingFields.insert("title") }
            if key.isEmpty {
                video.url = nil
                video.missingFields.formUnion(["id", "url"])
            }
            return video
        }
    }

    /// Classifies `{"success":false,"status_code":N,"status_message":"…"}`: status_code 7
    /// (invalid key), 3/10/14 (auth) and HTTP 401 → `authFailed`; 25 and 429 →
    /// `quotaExceeded`; the rest (34 not found, 22 invalid page, …) → `httpStatus` with the
    /// status message.
    static func decodeError(status: Int, headers: [String: String], body: [UInt8]) -> UpstreamError {
        let retry = retryAfterSeconds(headers)
        let wire = try? WireJSON.decode(TMDBError.self, from: body, service: .tmdb, status: status)
        let code = wire?.statusCode
        if status == 401 || [3, 7, 10, 14].contains(code ?? 0) {
            return UpstreamError(service: .tmdb, kind: .authFailed, status: status)
        }
        if status == 429 || code == 25 {
            return UpstreamError(service: .tmdb, kind: .quotaExceeded, status: status, retryAfterSeconds: retry)
        }
        let summary =
            wire.map { w in
                w.statusCode.map { "\(w.statusMessage ?? "") (status_code \($0))" } ?? (w.statusMessage ?? "")
            }
            ?? WireJSON.summary(body)
        return UpstreamError(
            service: .tmdb, kind: .httpStatus(code: status, bodySummary: summary), status: status,
            retryAfterSeconds: retry)
    }
}

/// A movie as search results and `/3/movie/{id}` both send it.
struct TMDBMovieRecord: Decodable {
    var id: Int
    var title: String?
    var originalTitle: String?
    var originalLanguage: String?
    var overview: String?
    var releaseDate: String?
    var posterPath: String?
    var voteAverage: Double?
    var voteCount: Int?

    enum CodingKeys: String, CodingKey {
        case id, title, overview
        case originalTitle = "original_title"
        case originalLanguage = "original_language"
        case releaseDate = "release_date"
        case posterPath = "poster_path"
        case voteAverage = "vote_average"
        case voteCount = "vote_count"
    }

    /// `release_date` `""` → nil, `poster_path` null → no poster.
    /// A movie without any title (TMDB's own or its original one) keeps `title` missing.
    func movie(imageBaseURL: String) -> Movie {
        var movie = Movie(
            id: String(id), title: title ?? originalTitle ?? "", originalTitle: originalTitle,
            originalLanguage: originalLanguage, overview: overview,
            releaseDate: (releaseDate?.isEmpty ?? true) ? nil : releaseDate,
            posterURL: posterPath.map { imageBaseURL + TMDBProvider.posterSize + $0 }, voteAverage: voteAverage,
            voteCount: voteCount)
        if title == nil && originalTitle == nil { movie.missingFields.insert("title") }
        return movie
    }
}

struct TMDBSearchResponse: Decodable {
    var page: Int
    var results: [TMDBMovieRecord]
    var totalPages: Int?
    var totalResults: Int?

    enum CodingKeys: String, CodingKey {
        case page, results
        case totalPages = "total_pages"
        case totalResults = "total_results"
    }
}

struct TMDBVideosResponse: Decodable {
    struct Result: Decodable {
        var key: String?
        var name: String?
        var site: String?
        var type: String?
        var publishedAt: String?

        enum CodingKeys: String, CodingKey {
            case key, name, site, type
            case publishedAt = "published_at"
        }
    }
    var results: [Result]
}

struct TMDBError: Decodable {
    var statusCode: Int?
    var statusMessage: String?

    enum CodingKeys: String, CodingKey {
        case statusCode = "status_code"
        case statusMessage = "status_message"
    }
}
