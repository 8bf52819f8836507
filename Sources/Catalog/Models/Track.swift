import UpstreamEconomy

/// One track (song or music video) of an album.
public struct Track: Sendable, Hashable {
    /// Upstream id (iTunes `trackId`, Apple Music `id`; Rakuten has none, so `<jan>-<n>`).
    public var id: String
    public var title: String
    public var albumId: String?
    public var albumTitle: String?
    public var artistName: String?
    /// Length in milliseconds; nil when unknown (Rakuten play lists carry titles only).
    public var durationMs: Int?
    /// 1-based position on its disc (restarts per disc).
    public var trackNumber: Int?
    /// 1-based disc number.
    public var discNumber: Int?
    public var genre: String?
    public var composer: String?
    public var previewURL: String?
    public var url: String?
    /// The upstream's kind: iTunes `song` / `music-video`, Apple Music `songs` / `music-videos`.
    public var kind: String?
    public var source: UpstreamService
    /// The non-null schema fields the upstream record did not carry (e.g. `"title"`): their
    /// placeholders above are never answered; the field is an error at its path instead.
    public var missingFields: Set<String> = []

    public init(
        id: String, title: String, albumId: String? = nil, albumTitle: String? = nil, artistName: String? = nil,
        durationMs: Int? = nil, trackNumber: Int? = nil, discNumber: Int? = nil, genre: String? = nil,
        composer: String? = nil, previewURL: String? = nil, url: String? = nil, kind: String? = nil,
        source: UpstreamService
    ) {
        self.id = id
        self.title = title
        self.albumId = albumId
        self.albumTitle = albumTitle
        self.artistName = artistName
        self.durationMs = durationMs
        self.trackNumber = trackNumber
        self.discNumber = discNumber
        self.genre = genre
        self.composer = composer
        self.previewURL = previewURL
        self.url = url
        self.kind = kind
        self.source = source
    }
}
