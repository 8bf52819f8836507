import UpstreamEconomy

/// A video: a YouTube video, an iTunes music video or a TMDB movie video (trailer, clip).
///
/// Text fields are plain text: YouTube's HTML escaping (`&amp;`, `&#39;`) is already decoded.
public struct Video: Sendable, Hashable {
    /// Upstream id (YouTube video id, iTunes `trackId`, TMDB video `key` on its site).
    public var id: String
    public var title: String
    public var description: String?
    /// YouTube channel title, or the artist name for iTunes music videos.
    public var channelTitle: String?
    /// RFC 3339 timestamp as sent by the upstream.
    public var publishedAt: String?
    /// Length in milliseconds (YouTube `contentDetails.duration`, iTunes `trackTimeMillis`).
    public var durationMs: Int?
    public var thumbnailURL: String?
    /// Where to watch it, e.g. `https://www.youtube.com/watch?v=<id>`.
    public var url: String?
    /// YouTube `statistics.viewCount` (sent as a string, parsed).
    public var viewCount: Int?
    /// TMDB video type (`Trailer`, `Teaser`, `Clip`, …); nil for other sources.
    public var type: String?
    public var source: UpstreamService
    /// The non-null schema fields the upstream record did not carry (e.g. `"title"`): their
    /// placeholders above are never answered; the field is an error at its path instead.
    public var missingFields: Set<String> = []

    public init(
        id: String, title: String, description: String? = nil, channelTitle: String? = nil, publishedAt: String? = nil,
        durationMs: Int? = nil, thumbnailURL: String? = nil, url: String? = nil, viewCount: Int? = nil,
        type: String? = nil, source: UpstreamService
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.channelTitle = channelTitle
        self.publishedAt = publishedAt
        self.durationMs = durationMs
        self.thumbnailURL = thumbnailURL
        self.url = url
        self.viewCount = viewCount
        self.type = type
        self.source = source
    }
}
