import UpstreamEconomy

/// The iTunes Search API (keyless): `GET /search` and `GET /lookup` (API-FACTS §1).
///
/// URL building and decoding are pure (`searchURL`, `lookupURL`, `decode…`); the `async`
/// methods put them together over an `UpstreamTransport`.
public struct ITunesProvider: Sendable {
    public static let defaultBaseURL = "https://itunes.apple.com"
    /// Ids per `lookup` call. Apple documents no maximum; 200 is the largest batch reported
    /// to work (API-FACTS §1, "Batching").
    public static let maxLookupIds = 200
    /// `limit` range of the API (default 50).
    public static let limitRange = 1...200

    /// `entity` values of `/search` for media=music.
    public enum SearchEntity: String, Sendable {
        case musicArtist, album, song, musicVideo
    }

    /// `entity` values of `/lookup` that return children of the looked-up ids.
    public enum LookupEntity: String, Sendable {
        case album, song
    }

    public var baseURL: String
    /// ISO 3166-1 alpha-2 storefront, e.g. `US`.
    public var country: String
    /// `en_us` or `ja_jp`; nil leaves the API default.
    public var language: String?
    public var transport: any UpstreamTransport

    public init(
        baseURL: String = ITunesProvider.defaultBaseURL, country: String = "US", language: String? = nil,
        transport: any UpstreamTransport
    ) {
        self.baseURL = baseURL
        self.country = country
        self.language = language
        self.transport = transport
    }

    // MARK: - URLs

    /// `/search?term=…&media=music&entity=…&limit=…&country=…[&lang=…]`; `limit` clamped to 1–200.
    public func searchURL(term: String, entity: SearchEntity, limit: Int) -> String {
        let query = QueryEncoding.queryString([
            ("term", term), ("media", entity == .musicVideo ? "musicVideo" : "music"), ("entity", entity.rawValue),
            ("limit", String(Self.clamp(limit))), ("country", country), ("lang", language),
        ])
        return upstreamURL(base: baseURL, path: "/search", query: query)
    }

    /// `/lookup?id=a,b,c[&entity=…][&limit=…][&sort=recent]&country=…`. With `entity`, `limit`
    /// applies per id. At most `maxLookupIds` ids (precondition: callers batch).
    public func lookupURL(ids: [String], entity: LookupEntity? = nil, limit: Int? = nil, recentFirst: Bool = false)
        -> String
    {
        precondition(ids.count <= Self.maxLookupIds, "iTunes lookup takes at most \(Self.maxLookupIds) ids")
        let query =
            "id=\(QueryEncoding.idList(ids))&"
            + QueryEncoding.queryString([
                ("entity", entity?.rawValue), ("limit", limit.map { String(Self.clamp($0)) }),
                ("sort", recentFirst ? "recent" : nil), ("country", country), ("lang", language),
            ])
        return upstreamURL(base: baseURL, path: "/lookup", query: query)
    }

    // MARK: - Calls

    /// Artists whose name matches `term`, in the API's ranking.
    public func searchArtists(term: String, limit: Int = 10) async throws(UpstreamError) -> [Artist] {
        try await call.fetch(searchURL(term: term, entity: .musicArtist, limit: limit), decode: Self.decodeArtists)
    }

    public func searchAlbums(term: String, limit: Int = 10) async throws(UpstreamError) -> [Album] {
        try await call.fetch(searchURL(term: term, entity: .album, limit: limit), decode: Self.decodeAlbums)
    }

    public func searchTracks(term: String, limit: Int = 10) async throws(UpstreamError) -> [Track] {
        try await call.fetch(searchURL(term: term, entity: .song, limit: limit), decode: Self.decodeTracks)
    }

    public func searchMusicVideos(term: String, limit: Int = 10) async throws(UpstreamError) -> [Video] {
        try await call.fetch(searchURL(term: term, entity: .musicVideo, limit: limit), decode: Self.decodeMusicVideos)
    }

    /// Albums of each artist id, keyed by artist id; ids iTunes does not know are absent.
    /// Duplicates are dropped and more than `maxLookupIds` ids take several requests.
    public func lookupAlbums(artistIds: [String], limitPerArtist: Int = 200) async throws(UpstreamError)
        -> [String: [Album]]
    {
        try await IdBatches.merged(artistIds, size: Self.maxLookupIds) { ids throws(UpstreamError) in
            try await call.fetch(
                lookupURL(ids: ids, entity: .album, limit: limitPerArtist), decode: Self.decodeAlbumsByArtist)
        }
    }

    /// Tracks of each album id, keyed by album id; ids iTunes does not know are absent.
    /// Duplicates are dropped and more than `maxLookupIds` ids take several requests.
    public func lookupTracks(albumIds: [String]) async throws(UpstreamError) -> [String: [Track]] {
        try await IdBatches.merged(albumIds, size: Self.maxLookupIds) { ids throws(UpstreamError) in
            try await call.fetch(lookupURL(ids: ids, entity: .song, limit: 200), decode: Self.decodeTracksByAlbum)
        }
    }

    /// Albums by their own ids, keyed by id (one request per `maxLookupIds` distinct ids).
    public func lookupAlbums(ids: [String]) async throws(UpstreamError) -> [String: Album] {
        try await IdBatches.merged(ids, size: Self.maxLookupIds) { ids throws(UpstreamError) in
            try await call.fetch(lookupURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                IdBatches.keyed(try Self.decodeAlbums(status: status, headers: headers, body: body), by: \.id)
            }
        }
    }

    /// Artists by their own ids, keyed by id (one request per `maxLookupIds` distinct ids).
    public func lookupArtists(ids: [String]) async throws(UpstreamError) -> [String: Artist] {
        try await IdBatches.merged(ids, size: Self.maxLookupIds) { ids throws(UpstreamError) in
            try await call.fetch(lookupURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                IdBatches.keyed(try Self.decodeArtists(status: status, headers: headers, body: body), by: \.id)
            }
        }
    }

    private var call: UpstreamCall { UpstreamCall(service: .iTunes, transport: transport, secrets: []) }

    private static func clamp(_ limit: Int) -> Int { min(max(limit, limitRange.lowerBound), limitRange.upperBound) }
}

// MARK: - Decoding

extension ITunesProvider {
    /// The `artist` records of a search or lookup response, in response order.
    /// - Throws: `UpstreamError` for error statuses (403 with an empty body = throttling →
    ///   `quotaExceeded`), HTML pages and bodies that are not the `{resultCount, results}` envelope.
    public static func decodeArtists(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Artist]
    {
        try decodeRecords(status: status, headers: headers, body: body).compactMap(\.artist)
    }

    /// The `collection` records, in response order.
    public static func decodeAlbums(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Album]
    {
        try decodeRecords(status: status, headers: headers, body: body).compactMap(\.album)
    }

    /// The `track` records of kind `song` (and other audio kinds), in response order.
    public static func decodeTracks(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Track]
    {
        try decodeRecords(status: status, headers: headers, body: body).compactMap(\.track)
    }

    /// The `track` records of kind `music-video` as videos (they usually lack a collection).
    public static func decodeMusicVideos(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Video]
    {
        try decodeRecords(status: status, headers: headers, body: body).compactMap(\.musicVideo)
    }

    /// A multi-id `lookup?id=<artist ids>&entity=album` response as albums per artist id.
    ///
    /// The albums of an artist follow its `artist` wrapper record and may carry a different
    /// `artistId` (collaborations), so they are grouped under the wrapper that precedes them,
    /// never by their own `artistId`. Unknown ids have no wrapper and so no entry.
    public static func decodeAlbumsByArtist(status: Int, headers: [String: String], body: [UInt8])
        throws(UpstreamError) -> [String: [Album]]
    {
        var result: [String: [Album]] = [:]
        var currentArtist: String?
        for record in try decodeRecords(status: status, headers: headers, body: body) {
            // The wrapper's id is all the grouping needs: a wrapper without its name still owns
            // the albums after it (which then answer their own fields, or errors for what they lack).
            // A wrapper without its id owns the albums after it too: they go to no one (not to
            // the artist before it), as no id asked for can be told to be theirs.
            if record.wrapperType == "artist" {
                currentArtist = record.artistId.map(String.init)
                if let owner = currentArtist { result[owner, default: []] = result[owner] ?? [] }
            } else if let album = record.album, let owner = currentArtist {
                result[owner, default: []].append(album)
            }
        }
        return result
    }

    /// A multi-id `lookup?id=<album ids>&entity=song` response as tracks per album id.
    ///
    /// Each `collection` wrapper names an album that was asked for; tracks join it by their
    /// `collectionId` (not by position, not by `artistId`: compilations mix artists). Tracks
    /// of albums without a wrapper are dropped; unknown ids have no entry. Only audio records
    /// are tracks: a `music-video` record in the listing (iTunes adds an album's videos to
    /// `entity=song`) is not one of the album's tracks.
    public static func decodeTracksByAlbum(status: Int, headers: [String: String], body: [UInt8])
        throws(UpstreamError) -> [String: [Track]]
    {
        let records = try decodeRecords(status: status, headers: headers, body: body)
        var result: [String: [Track]] = [:]
        // An album without its id joins no tracks: tracks without a collectionId are dropped too.
        for album in records.compactMap(\.album) where !album.missingFields.contains("id") { result[album.id] = [] }
        for record in records where record.wrapperType == "track" {
            guard let track = record.track, let albumId = track.albumId,
                result[albumId] != nil
            else { continue }
            result[albumId, default: []].append(track)
        }
        return result
    }

    /// Classifies a failed exchange. iTunes has no error JSON: throttling is a 403 with an
    /// empty body, outages are 5xx or HTML pages (API-FACTS §1 "Limits, errors, caching").
    static func decodeError(status: Int, headers: [String: String], body: [UInt8]) -> UpstreamError {
        let retry = retryAfterSeconds(headers)
        if status == 429 || (status == 403 && body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D })) {
            return UpstreamError(service: .iTunes, kind: .quotaExceeded, status: status, retryAfterSeconds: retry)
        }
        return UpstreamError(
            service: .iTunes, kind: .httpStatus(code: status, bodySummary: WireJSON.summary(body)), status: status,
            retryAfterSeconds: retry)
    }

    static func decodeRecords(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [ITunesRecord]
    {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        // The body is JSON under `text/javascript`; the content type is never checked.
        if let records = ITunesRecordReader.records(body) { return records }
        return try WireJSON.decode(ITunesEnvelope.self, from: body, service: .iTunes, status: status).results
    }
}

struct ITunesEnvelope: Decodable {
    var resultCount: Int
    var results: [ITunesRecord]
}

/// One element of `results`: artist, collection or track, all fields optional on the wire.
struct ITunesRecord: Decodable, Equatable {
    var wrapperType: String?
    var kind: String?
    var artistId: Int?
    var collectionId: Int?
    var trackId: Int?
    var artistName: String?
    var collectionName: String?
    var trackName: String?
    var artistLinkUrl: String?
    var artistViewUrl: String?
    var collectionViewUrl: String?
    var trackViewUrl: String?
    var previewUrl: String?
    var artworkUrl100: String?
    var trackCount: Int?
    var trackNumber: Int?
    var discNumber: Int?
    var trackTimeMillis: Int?
    var releaseDate: String?
    var primaryGenreName: String?
    /// Sent on collection records only.
    var copyright: String?

    // A record without its name or id is kept, what it lacks listed in `missingFields` (an
    // error where selected or needed to fetch, README "Honest data").
    var artist: Artist? {
        guard wrapperType == "artist" else { return nil }
        var artist = Artist(
            id: artistId.map(String.init) ?? "", name: artistName ?? "", genre: primaryGenreName,
            url: artistLinkUrl ?? artistViewUrl,
            source: .iTunes)
        if artistName == nil { artist.missingFields.insert("name") }
        if artistId == nil { artist.missingFields.insert("id") }
        return artist
    }

    var album: Album? {
        guard wrapperType == "collection" else { return nil }
        var album = Album(
            id: collectionId.map(String.init) ?? "", title: collectionName ?? "", artistId: artistId.map(String.init),
            artistName: artistName ?? "", releaseDate: releaseDate.map { String($0.prefix(10)) },
            trackCount: trackCount,
            genre: primaryGenreName, artworkURL: artworkUrl100, url: collectionViewUrl, copyright: copyright,
            source: .iTunes)
        if collectionId == nil { album.missingFields.insert("id") }
        if collectionName == nil { album.missingFields.insert("title") }
        if artistName == nil { album.missingFields.insert("artistName") }
        return album
    }

    /// Audio tracks; music videos are `musicVideo`.
    var track: Track? {
        guard wrapperType == "track", kind != "music-video" else { return nil }
        return musicVideoTrack
    }

    /// Any track record as a `Track`, its kind unchecked (`track` checks it).
    var musicVideoTrack: Track? {
        guard wrapperType == "track" else { return nil }
        var track = Track(
            id: trackId.map(String.init) ?? "", title: trackName ?? "", albumId: collectionId.map(String.init),
            albumTitle: collectionName, artistName: artistName, durationMs: trackTimeMillis, trackNumber: trackNumber,
            discNumber: discNumber, genre: primaryGenreName, previewURL: previewUrl, url: trackViewUrl, kind: kind,
            source: .iTunes)
        if trackId == nil { track.missingFields.insert("id") }
        if trackName == nil { track.missingFields.insert("title") }
        return track
    }

    var musicVideo: Video? {
        guard wrapperType == "track", kind == "music-video" else { return nil }
        var video = Video(
            id: trackId.map(String.init) ?? "", title: trackName ?? "", channelTitle: artistName,
            publishedAt: releaseDate,
            durationMs: trackTimeMillis, thumbnailURL: artworkUrl100, url: trackViewUrl, source: .iTunes)
        if trackId == nil { video.missingFields.insert("id") }
        if trackName == nil { video.missingFields.insert("title") }
        return video
    }
}
