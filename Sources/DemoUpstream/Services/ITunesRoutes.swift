import Foundation

/// iTunes Search API emulation: `GET /search` and `GET /lookup` in the exact wire format of
/// the recorded responses: `text/javascript; charset=utf-8`, three leading newlines,
/// `", "` separators, a line break before `"previewUrl"`, `resultCount`.
struct ITunesRoutes: Sendable {
    let catalog: DemoCatalog

    /// `limit` default and maximum of both endpoints.
    static let defaultLimit = 50
    static let maxLimit = 200

    func handle(_ request: DemoRequest) -> DemoResponse {
        guard let store = Storefront(request.query("country") ?? "US") else {
            return Self.invalid(["country"])
        }
        switch request.path {
        case "/search": return search(request, store)
        case "/lookup": return lookup(request, store)
        default: return DemoResponse.plain(404, "no such iTunes endpoint: \(request.path)")
        }
    }

    // MARK: - /search

    private func search(_ request: DemoRequest, _ store: Storefront) -> DemoResponse {
        let term = request.query("term") ?? ""
        let limit: Int
        switch request.intQuery("limit") {
        case .absent: limit = Self.defaultLimit
        case .value(let n): limit = min(max(n, 1), Self.maxLimit)
        case .invalid: return Self.invalid(["limit"])
        }
        var offset = 0
        if case .value(let n) = request.intQuery("offset") { offset = max(n, 0) }
        let records: [JSONText]
        switch request.query("entity") ?? "song" {
        case "musicArtist", "allArtist":
            let artists = SearchRanking.ranked(catalog.artistEntries, term: term)
            records = page(artists, offset, limit).map { artistRecord($0, store) }
        case "album":
            let albums = SearchRanking.ranked(catalog.albumEntries, term: term)
            records = page(albums, offset, limit).map { collectionRecord($0, store) }
        case "song", "musicTrack", "allTrack", "mix":
            let tracks = catalog.trackIndex.ranked(term: term)
            records = page(tracks, offset, limit).map { trackRecord($0, store) }
        case "musicVideo":
            let tracks = SearchRanking.ranked(catalog.musicVideoTrackEntries, term: term)
            records = page(tracks, offset, limit).map { musicVideoRecord($0, store) }
        default:
            return Self.invalid(["entity"])
        }
        return Self.envelope(records)
    }

    // MARK: - /lookup

    private func lookup(_ request: DemoRequest, _ store: Storefront) -> DemoResponse {
        guard let idList = request.query("id") else {
            // upc, amgArtistId, isbn … are keys the demo catalog has no values for.
            return Self.envelope([])
        }
        var ids: [Int] = []
        for part in idList.split(separator: ",", omittingEmptySubsequences: true) {
            guard let id = Int(part.trimmingCharacters(in: .whitespaces)) else { return Self.invalid(["id"]) }
            if !ids.contains(id) { ids.append(id) }
        }
        let limit: Int
        switch request.intQuery("limit") {
        case .absent: limit = Self.defaultLimit
        case .value(let n): limit = min(max(n, 1), Self.maxLimit)
        case .invalid: return Self.invalid(["limit"])
        }
        let recentFirst = request.query("sort") == "recent"
        let entity = request.query("entity")
        guard entity == nil || ["album", "song", "musicTrack", "musicVideo"].contains(entity ?? "") else {
            return Self.invalid(["entity"])
        }
        var records: [JSONText] = []
        for id in ids {
            switch DemoIDs.entity(id) {
            case .artist(let artistId)?:
                guard let artist = catalog.chinook.artistById[artistId] else { continue }
                records.append(artistRecord(artist, store))
                let albums = ordered(catalog.chinook.albumsByArtist[artistId] ?? [], recentFirst: recentFirst)
                switch entity {
                case "album"?:
                    records += albums.prefix(limit).map { collectionRecord($0, store) }
                case "song"?, "musicTrack"?:
                    records += albums.flatMap { catalog.tracks(ofAlbum: $0.id) }.prefix(limit).map {
                        trackRecord($0, store)
                    }
                case "musicVideo"?:
                    records += albums.flatMap { catalog.tracks(ofAlbum: $0.id) }
                        .filter { DemoCatalog.hasMusicVideo(chinookTrackId: $0.id) }.prefix(limit)
                        .map { musicVideoRecord($0, store) }
                default: break
                }
            case .album(let albumId)?:
                guard let album = catalog.chinook.albumById[albumId] else { continue }
                records.append(collectionRecord(album, store))
                if entity == "song" || entity == "musicTrack" {
                    records += catalog.tracks(ofAlbum: albumId).prefix(limit).map { trackRecord($0, store) }
                }
            case .track(let trackId)?:
                guard let track = catalog.chinook.trackById[trackId] else { continue }
                records.append(trackRecord(track, store))
            case .musicVideo(let trackId)?:
                guard let track = catalog.chinook.trackById[trackId], DemoCatalog.hasMusicVideo(chinookTrackId: trackId)
                else {
                    continue
                }
                records.append(musicVideoRecord(track, store))
            case nil:
                continue  // unknown ids are silently dropped, as on the real API
            }
        }
        return Self.envelope(records)
    }

    private func ordered(_ albums: [ChinookCatalog.Album], recentFirst: Bool) -> [ChinookCatalog.Album] {
        guard recentFirst else { return albums }
        return albums.sorted {
            let a = DemoCatalog.releaseDateString(albumId: $0.id)
            let b = DemoCatalog.releaseDateString(albumId: $1.id)
            return a != b ? a > b : $0.id < $1.id
        }
    }

    private func page<T>(_ items: [T], _ offset: Int, _ limit: Int) -> ArraySlice<T> {
        items.dropFirst(offset).prefix(limit)
    }

    // MARK: - Records

    private func artistRecord(_ artist: ChinookCatalog.Artist, _ store: Storefront) -> JSONText {
        let genre = catalog.chinook.primaryGenre(artistId: artist.id)
        var members: [(String, JSONText)] = [
            ("wrapperType", .string("artist")), ("artistType", .string("Artist")), ("artistName", .string(artist.name)),
            ("artistLinkUrl", .string(artistURL(artist, store))), ("artistId", .int(DemoIDs.artist(artist.id))),
        ]
        if artist.id % 3 != 0 { members.append(("amgArtistId", .int(artist.id * 7 + 3000))) }
        members += [
            ("primaryGenreName", .string(genre)), ("primaryGenreId", .int(catalog.chinook.genreIdByName[genre] ?? 21)),
        ]
        return .object(members)
    }

    private func collectionRecord(_ album: ChinookCatalog.Album, _ store: Storefront) -> JSONText {
        let artist = catalog.artist(ofAlbum: album)
        let date = DemoCatalog.releaseDate(albumId: album.id)
        return .object([
            ("wrapperType", .string("collection")), ("collectionType", .string("Album")),
            ("artistId", .int(DemoIDs.artist(artist.id))), ("collectionId", .int(DemoIDs.album(album.id))),
            ("artistName", .string(artist.name)), ("collectionName", .string(album.title)),
            ("collectionCensoredName", .string(album.title)), ("artistViewUrl", .string(artistURL(artist, store))),
            ("collectionViewUrl", .string(albumURL(album, store))), ("artworkUrl60", .string(artwork(album, 60))),
            ("artworkUrl100", .string(artwork(album, 100))), ("collectionPrice", .number(store.albumPrice)),
            ("collectionExplicitness", .string("notExplicit")),
            ("trackCount", .int(catalog.tracks(ofAlbum: album.id).count)),
            ("copyright", .string("℗ \(date.year) \(artist.name)")), ("country", .string(store.alpha3)),
            ("currency", .string(store.currency)),
            ("releaseDate", .string(DemoCatalog.releaseDateString(albumId: album.id) + "T07:00:00Z")),
            ("primaryGenreName", .string(catalog.chinook.primaryGenre(artistId: artist.id))),
        ])
    }

    private func trackRecord(_ track: ChinookCatalog.Track, _ store: Storefront) -> JSONText {
        let album = catalog.album(ofTrack: track)
        let artist = catalog.artist(ofAlbum: album)
        // The album URL with the track id before `uo=4` (slugs never hold a `?`); built, not
        // found-and-replaced: Foundation's replacing was a fifth of a 213-track lookup.
        let trackURL = "\(albumURL(album, store).dropLast("?uo=4".count))?i=\(DemoIDs.track(track.id))&uo=4"
        return .object([
            ("wrapperType", .string("track")), ("kind", .string("song")), ("artistId", .int(DemoIDs.artist(artist.id))),
            ("collectionId", .int(DemoIDs.album(album.id))), ("trackId", .int(DemoIDs.track(track.id))),
            ("artistName", .string(artist.name)), ("collectionName", .string(album.title)),
            ("trackName", .string(track.name)),
            ("collectionCensoredName", .string(album.title)), ("trackCensoredName", .string(track.name)),
            ("artistViewUrl", .string(artistURL(artist, store))), ("collectionViewUrl", .string(trackURL)),
            ("trackViewUrl", .string(trackURL)), ("previewUrl", .string(preview(DemoIDs.track(track.id)))),
            ("artworkUrl30", .string(artwork(album, 30))), ("artworkUrl60", .string(artwork(album, 60))),
            ("artworkUrl100", .string(artwork(album, 100))), ("collectionPrice", .number(store.albumPrice)),
            ("trackPrice", .number(store.trackPrice(track.unitPrice))),
            ("releaseDate", .string(DemoCatalog.releaseDateString(albumId: album.id) + "T12:00:00Z")),
            ("collectionExplicitness", .string("notExplicit")), ("trackExplicitness", .string("notExplicit")),
            ("discCount", .int(1)), ("discNumber", .int(1)),
            ("trackCount", .int(catalog.tracks(ofAlbum: album.id).count)),
            ("trackNumber", .int(catalog.trackNumber(track))), ("trackTimeMillis", .int(track.milliseconds)),
            ("country", .string(store.alpha3)), ("currency", .string(store.currency)),
            ("primaryGenreName", .string(track.genre ?? "Rock")), ("isStreamable", .bool(true)),
        ])
    }

    private func musicVideoRecord(_ track: ChinookCatalog.Track, _ store: Storefront) -> JSONText {
        let album = catalog.album(ofTrack: track)
        let artist = catalog.artist(ofAlbum: album)
        let id = DemoIDs.musicVideo(track.id)
        return .object([
            ("wrapperType", .string("track")), ("kind", .string("music-video")),
            ("artistId", .int(DemoIDs.artist(artist.id))),
            ("trackId", .int(id)), ("artistName", .string(artist.name)), ("trackName", .string(track.name)),
            ("trackCensoredName", .string(track.name)), ("artistViewUrl", .string(artistURL(artist, store))),
            (
                "trackViewUrl",
                .string("\(Self.storeHost)/\(store.code)/music-video/\(DemoIDs.slug(track.name))/\(id)?uo=4")
            ),
            ("previewUrl", .string(preview(id))), ("artworkUrl30", .string(artwork(album, 30))),
            ("artworkUrl60", .string(artwork(album, 60))), ("artworkUrl100", .string(artwork(album, 100))),
            ("trackPrice", .number(store.trackPrice(1.99))),
            ("releaseDate", .string(DemoCatalog.releaseDateString(albumId: album.id) + "T08:00:00Z")),
            ("trackExplicitness", .string("notExplicit")), ("trackTimeMillis", .int(track.milliseconds + 12_000)),
            ("country", .string(store.alpha3)), ("currency", .string(store.currency)),
            ("primaryGenreName", .string(track.genre ?? "Rock")),
        ])
    }

    /// Store and media hosts under `.invalid` (RFC 2606): realistic shapes that can never
    /// point at a real page.
    static let storeHost = "https://music.demo.invalid"

    private func artistURL(_ artist: ChinookCatalog.Artist, _ store: Storefront) -> String {
        let slug = catalog.artistSlugs[artist.id] ?? DemoIDs.slug(artist.name)
        return "\(Self.storeHost)/\(store.code)/artist/\(slug)/\(DemoIDs.artist(artist.id))?uo=4"
    }

    private func albumURL(_ album: ChinookCatalog.Album, _ store: Storefront) -> String {
        let slug = catalog.albumSlugs[album.id] ?? DemoIDs.slug(album.title)
        return "\(Self.storeHost)/\(store.code)/album/\(slug)/\(DemoIDs.album(album.id))?uo=4"
    }

    private func artwork(_ album: ChinookCatalog.Album, _ size: Int) -> String {
        "https://artwork.demo.invalid/image/thumb/Music/v4/\(DemoIDs.album(album.id))/cover.jpg/\(size)x\(size)bb.jpg"
    }

    private func preview(_ id: Int) -> String {
        "https://audio.demo.invalid/itunes-assets/AudioPreview/v4/\(id)/preview.plus.aac.p.m4a"
    }

    // MARK: - Envelope

    /// `{resultCount, results}` laid out byte for byte like the live service.
    static func envelope(_ records: [JSONText]) -> DemoResponse {
        var body = Array("\n\n\n{\n \"resultCount\":\(records.count),\n \"results\": [".utf8)
        body.reserveCapacity(body.count + records.count * 1_500)
        for (i, record) in records.enumerated() {
            body.append(contentsOf: (i == 0 ? "\n" : ", \n").utf8)
            record.writeITunesRecord(to: &body)
        }
        body.append(contentsOf: "]\n}\n\n\n".utf8)
        return DemoResponse(status: 200, headers: ["Content-Type": contentType], body: body)
    }

    static let contentType = "text/javascript; charset=utf-8"

    /// iTunes' answer to a bad parameter value: 400 with an `errorMessage` object.
    static func invalid(_ keys: [String]) -> DemoResponse {
        let body = JSONText.object([
            ("errorMessage", .string("Invalid value(s) for key(s): [\(keys.joined(separator: ", "))]")),
            ("queryParameters", .object(keys.map { ($0, .string("invalid")) })),
        ])
        return DemoResponse(status: 400, headers: ["Content-Type": contentType], body: body.compactBytes)
    }
}

/// An iTunes storefront: the alpha-2 code it is asked by, the alpha-3 code and currency it
/// answers with, and its price points.
struct Storefront {
    let code: String
    let alpha3: String
    let currency: String
    let albumPrice: String
    private let trackPrices: (standard: String, premium: String)

    init?(_ alpha2: String) {
        code = alpha2.lowercased()
        switch code {
        case "us": (alpha3, currency, albumPrice, trackPrices) = ("USA", "USD", "9.99", ("0.99", "1.99"))
        case "gb": (alpha3, currency, albumPrice, trackPrices) = ("GBR", "GBP", "7.99", ("0.79", "1.49"))
        case "jp": (alpha3, currency, albumPrice, trackPrices) = ("JPN", "JPY", "1500", ("250", "400"))
        case "de": (alpha3, currency, albumPrice, trackPrices) = ("DEU", "EUR", "9.99", ("0.99", "1.29"))
        case "fr": (alpha3, currency, albumPrice, trackPrices) = ("FRA", "EUR", "9.99", ("0.99", "1.29"))
        case "br": (alpha3, currency, albumPrice, trackPrices) = ("BRA", "BRL", "29.90", ("4.90", "6.90"))
        case "ca": (alpha3, currency, albumPrice, trackPrices) = ("CAN", "CAD", "11.99", ("1.29", "1.69"))
        default: return nil
        }
    }

    /// The local price of a Chinook unit price (0.99 → standard, anything else → premium).
    func trackPrice(_ unitPrice: Double) -> String { unitPrice < 1 ? trackPrices.standard : trackPrices.premium }
}
