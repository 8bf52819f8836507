import UpstreamEconomy

/// The Apple Music API catalog endpoints (developer token; API-FACTS §2).
///
/// Every request carries `Authorization: Bearer <token>`; without a token the provider
/// throws `notConfigured` and makes no request.
public struct AppleMusicProvider: Sendable {
    /// The API root; paths (and `next` links) start with `/v1`.
    public static let defaultBaseURL = "https://api.music.apple.com"
    /// Ids per `albums?ids=` call (documented maximum).
    public static let maxAlbumIds = 100
    /// Ids per `artists?ids=` call (documented maximum: "The maximum fetch limit is 25").
    public static let maxArtistIds = 25
    /// Ids per `songs?ids=` call (documented maximum: "The maximum fetch limit is 300").
    public static let maxSongIds = 300
    /// Search page size: the API's default is 5; 25 is the commonly reported maximum.
    public static let searchLimitRange = 1...25
    /// Side length (pixels) filled into artwork URL templates (`{w}x{h}`).
    public static let artworkSize = 600

    /// `types` of catalog search this provider reads.
    public enum SearchType: String, Sendable {
        case artists, albums, songs
    }

    public var baseURL: String
    /// Developer token (JWT). Never logged, never in an error.
    public var token: String?
    /// Two-letter lower-case storefront, e.g. `us`.
    public var storefront: String
    public var transport: any UpstreamTransport

    public init(
        baseURL: String = AppleMusicProvider.defaultBaseURL, token: String?, storefront: String = "us",
        transport: any UpstreamTransport
    ) {
        self.baseURL = baseURL
        self.token = token
        self.storefront = storefront
        self.transport = transport
    }

    // MARK: - URLs

    /// `/v1/catalog/{sf}/search?term=…&types=…&limit=…[&offset=…]`; `limit` clamped to 1–25.
    public func searchURL(term: String, types: [SearchType], limit: Int, offset: Int? = nil) -> String {
        let clamped = min(max(limit, Self.searchLimitRange.lowerBound), Self.searchLimitRange.upperBound)
        let query = QueryEncoding.queryString([
            ("term", term), ("types", types.map(\.rawValue).joined(separator: ",")), ("limit", String(clamped)),
            ("offset", offset.map(String.init)),
        ])
        return upstreamURL(base: baseURL, path: catalogPath("search"), query: query)
    }

    /// `/v1/catalog/{sf}/albums/{id}` (the album with its `tracks` and `artists` relationships).
    public func albumURL(id: String) -> String {
        upstreamURL(base: baseURL, path: catalogPath("albums/" + QueryEncoding.percentEncode(id)), query: "")
    }

    /// `/v1/catalog/{sf}/albums?ids=a,b,c` for at most `maxAlbumIds` ids (precondition).
    public func albumsURL(ids: [String]) -> String {
        precondition(ids.count <= Self.maxAlbumIds, "Apple Music takes at most \(Self.maxAlbumIds) album ids")
        return upstreamURL(base: baseURL, path: catalogPath("albums"), query: "ids=" + QueryEncoding.idList(ids))
    }

    /// `/v1/catalog/{sf}/artists?ids=a,b,c` for at most `maxArtistIds` ids (precondition).
    public func artistsURL(ids: [String]) -> String {
        precondition(ids.count <= Self.maxArtistIds, "Apple Music takes at most \(Self.maxArtistIds) artist ids")
        return upstreamURL(base: baseURL, path: catalogPath("artists"), query: "ids=" + QueryEncoding.idList(ids))
    }

    /// `/v1/catalog/{sf}/songs?ids=a,b,c` for at most `maxSongIds` ids (precondition).
    public func songsURL(ids: [String]) -> String {
        precondition(ids.count <= Self.maxSongIds, "Apple Music takes at most \(Self.maxSongIds) song ids")
        return upstreamURL(base: baseURL, path: catalogPath("songs"), query: "ids=" + QueryEncoding.idList(ids))
    }

    /// `/v1/catalog/{sf}/artists/{id}/albums[?offset=…]`.
    public func artistAlbumsURL(artistId: String, offset: Int? = nil) -> String {
        upstreamURL(
            base: baseURL, path: catalogPath("artists/\(QueryEncoding.percentEncode(artistId))/albums"),
            query: QueryEncoding.queryString([("offset", offset.map(String.init))]))
    }

    /// A `next` link (a path below the API root) as an absolute URL.
    public func nextURL(_ next: String) -> String {
        upstreamURL(base: baseURL, path: next.hasPrefix("/") ? next : "/" + next, query: "")
    }

    private func catalogPath(_ rest: String) -> String {
        "/v1/catalog/\(QueryEncoding.percentEncode(storefront))/\(rest)"
    }

    // MARK: - Calls

    public func searchArtists(term: String, limit: Int = 10) async throws(UpstreamError) -> Page<Artist> {
        try await fetch(searchURL(term: term, types: [.artists], limit: limit), decode: Self.decodeSearch).artists
    }

    public func searchAlbums(term: String, limit: Int = 10) async throws(UpstreamError) -> Page<Album> {
        try await fetch(searchURL(term: term, types: [.albums], limit: limit), decode: Self.decodeSearch).albums
    }

    public func searchSongs(term: String, limit: Int = 10) async throws(UpstreamError) -> Page<Track> {
        try await fetch(searchURL(term: term, types: [.songs], limit: limit), decode: Self.decodeSearch).songs
    }

    /// One album with all its tracks (following `next` links of the tracks relationship);
    /// nil when the catalog has no such album (404).
    public func album(id: String) async throws(UpstreamError) -> AlbumWithTracks? {
        let found = try await fetch(albumURL(id: id)) { status, headers, body throws(UpstreamError) in
            status == 404 ? [] : try Self.decodeAlbums(status: status, headers: headers, body: body)
        }
        guard var result = found.first else { return nil }
        while let next = result.moreTracksPath {
            let page = try await fetch(nextURL(next), decode: Self.decodeTracksPage)
            result.tracks += page.items.map { track in
                var track = track
                track.albumId = result.album.id
                return track
            }
            result.moreTracksPath = page.nextPageToken
        }
        return result
    }

    /// Albums by id, keyed by id; unknown ids are absent. One request per `maxAlbumIds`
    /// distinct ids. Tracks are the first relationship page (up to 300 per album).
    public func albums(ids: [String]) async throws(UpstreamError) -> [String: AlbumWithTracks] {
        try await IdBatches.merged(ids, size: Self.maxAlbumIds) { ids throws(UpstreamError) in
            try await fetch(albumsURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                IdBatches.keyed(try Self.decodeAlbums(status: status, headers: headers, body: body), by: \.album.id)
            }
        }
    }

    /// Artists by id, keyed by id; unknown ids are absent. One request per `maxArtistIds`
    /// distinct ids.
    public func artists(ids: [String]) async throws(UpstreamError) -> [String: Artist] {
        try await IdBatches.merged(ids, size: Self.maxArtistIds) { ids throws(UpstreamError) in
            try await fetch(artistsURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                IdBatches.keyed(try Self.decodeArtists(status: status, headers: headers, body: body), by: \.id)
            }
        }
    }

    /// Songs by id, keyed by id; unknown ids are absent. One request per `maxSongIds`
    /// distinct ids. Each song's `albumId` comes from its `albums` relationship.
    public func songs(ids: [String]) async throws(UpstreamError) -> [String: Track] {
        try await IdBatches.merged(ids, size: Self.maxSongIds) { ids throws(UpstreamError) in
            try await fetch(songsURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                IdBatches.keyed(try Self.decodeSongs(status: status, headers: headers, body: body), by: \.id)
            }
        }
    }

    /// The first page of an artist's albums.
    public func artistAlbums(artistId: String) async throws(UpstreamError) -> Page<Album> {
        try await fetch(artistAlbumsURL(artistId: artistId), decode: Self.decodeAlbumsPage)
    }

    /// `UpstreamCall.fetch` with this provider's secrets, for the call site that called this.
    private func fetch<T: Sendable>(
        _ url: String, fileID: StaticString = #fileID, line: UInt = #line,
        decode: (Int, [String: String], [UInt8]) throws(UpstreamError) -> T
    ) async throws(UpstreamError) -> T {
        guard let token, !token.isEmpty else { throw UpstreamError(service: .appleMusic, kind: .notConfigured) }
        let call = UpstreamCall(service: .appleMusic, transport: transport, secrets: [token])
        return try await call.fetch(
            url, headers: [("Authorization", "Bearer \(token)")], fileID: fileID, line: line, decode: decode)
    }
}

// MARK: - Decoding

extension AppleMusicProvider {
    /// The results of a catalog search; a type not asked for (or without hits) is an empty page.
    public struct SearchResults: Sendable, Hashable {
        public var artists: Page<Artist>
        public var albums: Page<Album>
        public var songs: Page<Track>
    }

    /// Decodes `/v1/catalog/{sf}/search`: `results.{artists,albums,songs}.{data,next}`.
    /// - Throws: `UpstreamError` per `decodeError` for error statuses, `badResponse` for other shapes.
    public static func decodeSearch(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> SearchResults
    {
        try checkStatus(status, headers, body)
        let wire = try WireJSON.decode(AMSearchEnvelope.self, from: body, service: .appleMusic, status: status)
        let r = wire.results
        return SearchResults(
            artists: Page(items: r.artists?.data.compactMap(\.artist) ?? [], nextPageToken: r.artists?.next),
            albums: Page(items: r.albums?.data.compactMap(\.album) ?? [], nextPageToken: r.albums?.next),
            songs: Page(items: r.songs?.data.compactMap(\.track) ?? [], nextPageToken: r.songs?.next))
    }

    /// Decodes `albums/{id}` or `albums?ids=`: `data[]` albums with their `tracks` relationship
    /// (songs and music videos) and its `next` link. Order is the response's; match by id.
    public static func decodeAlbums(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [AlbumWithTracks]
    {
        try checkStatus(status, headers, body)
        let wire = try WireJSON.decode(AMDataEnvelope.self, from: body, service: .appleMusic, status: status)
        return wire.data.compactMap { resource in
            guard var album = resource.album else { return nil }
            album.artistId = resource.relationships?.artists?.data.first?.id
            let tracks = resource.relationships?.tracks
            return AlbumWithTracks(
                album: album,
                tracks: tracks?.data.compactMap { $0.track(albumId: resource.wireId) } ?? [],
                moreTracksPath: tracks?.next)
        }
    }

    /// Decodes `artists?ids=` (or `artists/{id}`): `data[]` artist resources, response order.
    public static func decodeArtists(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Artist]
    {
        try checkStatus(status, headers, body)
        return try WireJSON.decode(AMDataEnvelope.self, from: body, service: .appleMusic, status: status).data
            .compactMap(\.artist)
    }

    /// Decodes `songs?ids=` (or `songs/{id}`): `data[]` song resources, whose default
    /// `albums` relationship names the album (`albumId`); response order, match by id.
    public static func decodeSongs(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Track]
    {
        try checkStatus(status, headers, body)
        return try WireJSON.decode(AMDataEnvelope.self, from: body, service: .appleMusic, status: status).data
            .compactMap { $0.track(albumId: $0.relationships?.albums?.data.first?.id) }
    }

    /// Decodes a `…/albums/{id}/tracks` page (`data` + `next`).
    public static func decodeTracksPage(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> Page<Track>
    {
        try checkStatus(status, headers, body)
        let wire = try WireJSON.decode(AMDataEnvelope.self, from: body, service: .appleMusic, status: status)
        return Page(items: wire.data.compactMap { $0.track(albumId: nil) }, nextPageToken: wire.next)
    }

    /// Decodes a page of album resources (`artists/{id}/albums`).
    public static func decodeAlbumsPage(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> Page<Album>
    {
        try checkStatus(status, headers, body)
        let wire = try WireJSON.decode(AMDataEnvelope.self, from: body, service: .appleMusic, status: status)
        return Page(items: wire.data.compactMap(\.album), nextPageToken: wire.next)
    }

    /// Classifies an error response: 401/403 (often with an empty body) → `authFailed`,
    /// 429 → `quotaExceeded`, others → `httpStatus` summarising `errors[0]` as
    /// `"<title>: <detail> (code <code>)"`.
    static func decodeError(status: Int, headers: [String: String], body: [UInt8]) -> UpstreamError {
        let retry = retryAfterSeconds(headers)
        switch status {
        case 401, 403: return UpstreamError(service: .appleMusic, kind: .authFailed, status: status)
        case 429:
            return UpstreamError(service: .appleMusic, kind: .quotaExceeded, status: status, retryAfterSeconds: retry)
        default:
            let summary: String
            if let wire = try? WireJSON.decode(AMErrorEnvelope.self, from: body, service: .appleMusic, status: status),
                let first = wire.errors.first
            {
                let text = [first.title, first.detail].compactMap { $0 }.joined(separator: ": ")
                summary = first.code.map { "\(text) (code \($0))" } ?? text
            } else {
                summary = WireJSON.summary(body)
            }
            return UpstreamError(
                service: .appleMusic, kind: .httpStatus(code: status, bodySummary: summary), status: status,
                retryAfterSeconds: retry)
        }
    }

    private static func checkStatus(_ status: Int, _ headers: [String: String], _ body: [UInt8]) throws(UpstreamError) {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
    }
}

struct AMErrorEnvelope: Decodable {
    struct Entry: Decodable {
        var id: String?
        var title: String?
        var detail: String?
        var status: String?
        var code: String?
    }
    var errors: [Entry]
}

struct AMSearchEnvelope: Decodable {
    struct Results: Decodable {
        var artists: AMDataEnvelope?
        var albums: AMDataEnvelope?
        var songs: AMDataEnvelope?
    }
    var results: Results
}

struct AMDataEnvelope: Decodable {
    var href: String?
    var next: String?
    var data: [AMResource]
}

/// One JSON:API-style resource (`id`, `type`, `attributes`, `relationships`).
struct AMResource: Decodable {
    struct Artwork: Decodable {
        var url: String?
    }
    struct Attributes: Decodable {
        var name: String?
        var artistName: String?
        var albumName: String?
        var genreNames: [String]?
        var releaseDate: String?
        var trackCount: Int?
        var trackNumber: Int?
        var discNumber: Int?
        var durationInMillis: Int?
        var composerName: String?
        var url: String?
        var artwork: Artwork?
        var previews: [Artwork]?
        var copyright: String?
    }
    struct Link: Decodable {
        var id: String
    }
    struct LinkList: Decodable {
        var data: [Link]
    }
    struct Relationships: Decodable {
        var artists: LinkList?
        var albums: LinkList?
        var tracks: AMDataEnvelope?
    }

    /// `""` when the resource came without its id (`wireId` nil): then `id` is in `missingFields`.
    var id: String { wireId ?? "" }
    var wireId: String?
    var type: String
    var attributes: Attributes?
    var relationships: Relationships?

    enum CodingKeys: String, CodingKey {
        case wireId = "id"
        case type, attributes, relationships
    }

    /// The genre list's first entry that is not the catch-all "Music".
    private var genre: String? {
        attributes?.genreNames?.first(where: { $0 != "Music" }) ?? attributes?.genreNames?.first
    }

    private var artworkURL: String? {
        attributes?.artwork?.url.map {
            $0.replacing("{w}", with: String(AppleMusicProvider.artworkSize))
                .replacing("{h}", with: String(AppleMusicProvider.artworkSize))
        }
    }

    // A resource without `attributes.name` (or without `attributes` at all) is kept, its name
    // listed in `missingFields`: an error where selected (README "Honest data").
    var artist: Artist? {
        guard type == "artists" else { return nil }
        var artist = Artist(
            id: id, name: attributes?.name ?? "", genre: genre, url: attributes?.url, source: .appleMusic)
        if attributes?.name == nil { artist.missingFields.insert("name") }
        if wireId == nil { artist.missingFields.insert("id") }
        return artist
    }

    var album: Album? {
        guard type == "albums" else { return nil }
        let a = attributes
        var album = Album(
            id: id, title: a?.name ?? "", artistName: a?.artistName ?? "", releaseDate: a?.releaseDate,
            trackCount: a?.trackCount, genre: genre, artworkURL: artworkURL, url: a?.url, copyright: a?.copyright,
            source: .appleMusic)
        if wireId == nil { album.missingFields.insert("id") }
        if a?.name == nil { album.missingFields.insert("title") }
        if a?.artistName == nil { album.missingFields.insert("artistName") }
        return album
    }

    var track: Track? { track(albumId: nil) }

    func track(albumId: String?) -> Track? {
        guard type == "songs" || type == "music-videos" else { return nil }
        let a = attributes
        var track = Track(
            id: id, title: a?.name ?? "", albumId: albumId, albumTitle: a?.albumName, artistName: a?.artistName,
            durationMs: a?.durationInMillis, trackNumber: a?.trackNumber, discNumber: a?.discNumber, genre: genre,
            composer: a?.composerName, previewURL: a?.previews?.first?.url, url: a?.url, kind: type,
            source: .appleMusic)
        if wireId == nil { track.missingFields.insert("id") }
        if a?.name == nil { track.missingFields.insert("title") }
        return track
    }
}
