import UpstreamEconomy

/// An album (iTunes "collection", Apple Music "albums" resource, Rakuten CD item).
public struct Album: Sendable, Hashable {
    /// Upstream id as a string (iTunes `collectionId`, Apple Music `id`, Rakuten `jan`).
    public var id: String
    public var title: String
    /// The album artist's upstream id; nil when the upstream does not give one (Rakuten).
    public var artistId: String?
    public var artistName: String
    /// ISO 8601 calendar date, as precise as the upstream is: `2014-12-03`, `2014-12` or `2014`.
    public var releaseDate: String?
    /// Number of tracks the upstream says the album has; may exceed the tracks it returns.
    public var trackCount: Int?
    public var genre: String?
    /// A cover image URL (iTunes 100×100, Apple Music 600×600, Rakuten "large" 200×200).
    public var artworkURL: String?
    public var url: String?
    /// The copyright line as the upstream writes it (iTunes `copyright`, Apple Music
    /// `attributes.copyright`), e.g. `℗ 2014 Queen Productions Ltd`; nil when it sends none
    /// (Rakuten Books never does).
    public var copyright: String?
    public var source: UpstreamService
    /// The non-null schema fields the upstream record did not carry (e.g. `"title"`): their
    /// placeholders above are never answered; the field is an error at its path instead.
    public var missingFields: Set<String> = []

    /// `artistName`, nil when the upstream sent none.
    public var knownArtistName: String? { missingFields.contains("artistName") ? nil : artistName }

    public init(
        id: String, title: String, artistId: String? = nil, artistName: String, releaseDate: String? = nil,
        trackCount: Int? = nil, genre: String? = nil, artworkURL: String? = nil, url: String? = nil,
        copyright: String? = nil, source: UpstreamService
    ) {
        self.id = id
        self.title = title
        self.artistId = artistId
        self.artistName = artistName
        self.releaseDate = releaseDate
        self.trackCount = trackCount
        self.genre = genre
        self.artworkURL = artworkURL
        self.url = url
        self.copyright = copyright
        self.source = source
    }
}

/// An album together with the tracks its upstream response carried.
///
/// `moreTracksPath` is Apple Music's `next` link (a path below the API root, with
/// `offset`) when the tracks relationship was paged; nil when `tracks` is complete.
public struct AlbumWithTracks: Sendable, Hashable {
    public var album: Album
    public var tracks: [Track]
    public var moreTracksPath: String?

    public init(album: Album, tracks: [Track], moreTracksPath: String? = nil) {
        self.album = album
        self.tracks = tracks
        self.moreTracksPath = moreTracksPath
    }
}
