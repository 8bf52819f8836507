import UpstreamEconomy

/// A movie from TMDB (search results and `/3/movie/{id}` details share these fields).
public struct Movie: Sendable, Hashable {
    /// TMDB movie id in decimal.
    public var id: String
    public var title: String
    /// Title in the original language, any script.
    public var originalTitle: String?
    public var originalLanguage: String?
    public var overview: String?
    /// `YYYY-MM-DD`; nil when TMDB sent `""`.
    public var releaseDate: String?
    /// Full poster image URL (`<image base>/w500<poster_path>`); nil when `poster_path` was null.
    public var posterURL: String?
    /// Average vote, 0–10.
    public var voteAverage: Double?
    /// How many votes `voteAverage` averages (`vote_count`).
    public var voteCount: Int?
    public var source: UpstreamService
    /// The non-null schema fields the upstream record did not carry (e.g. `"title"`): their
    /// placeholders above are never answered; the field is an error at its path instead.
    public var missingFields: Set<String> = []

    public init(
        id: String, title: String, originalTitle: String? = nil, originalLanguage: String? = nil,
        overview: String? = nil, releaseDate: String? = nil, posterURL: String? = nil, voteAverage: Double? = nil,
        voteCount: Int? = nil, source: UpstreamService = .tmdb
    ) {
        self.id = id
        self.title = title
        self.originalTitle = originalTitle
        self.originalLanguage = originalLanguage
        self.overview = overview
        self.releaseDate = releaseDate
        self.posterURL = posterURL
        self.voteAverage = voteAverage
        self.voteCount = voteCount
        self.source = source
    }
}
