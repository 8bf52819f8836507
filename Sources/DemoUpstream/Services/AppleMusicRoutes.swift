import Foundation

/// Apple Music API emulation under `/v1/catalog/{storefront}/…`: search, albums by id (with
/// `relationships.tracks` and `next` paging), `albums?ids=` (≤ 100), album tracks, artists
/// (`artists/{id}`, `artists?ids=` ≤ 25) and their albums, songs (`songs/{id}`, `songs?ids=`
/// ≤ 300, with their default `albums` and `artists` relationships). Any non-empty Bearer token is accepted; without one the answer is the real
/// API's 401 with a JSON content type and an EMPTY body.
struct AppleMusicRoutes: Sendable {
    let catalog: DemoCatalog
    /// Tracks per page of an album's `tracks` relationship (300 on the real API; tests lower
    /// it to see `next` links on Chinook's short albums).
    let tracksPageSize: Int

    /// Documented `ids=` maxima per resource type.
    static let maxIds = ["albums": 100, "artists": 25, "songs": 300]
    static let defaultSearchLimit = 5
    static let maxSearchLimit = 25
    static let albumsPageSize = 25
    static let contentType = "application/json; charset=utf-8"

    func handle(_ request: DemoRequest) -> DemoResponse {
        let auth = request.headers["authorization"] ?? ""
        guard auth.hasPrefix("Bearer "), auth.count > "Bearer ".count else {
            return DemoResponse(status: 401, headers: ["Content-Type": Self.contentType], body: [])
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count >= 4, parts[0] == "v1", parts[1] == "catalog" else { return notFound(request) }
        let sf = parts[2].lowercased()
        switch Array(parts.dropFirst(3)) {
        case ["search"]: return search(request, sf)
        case ["albums"]: return albumsByIds(request, sf)
        case ["artists"]: return artistsByIds(request, sf)
        case ["songs"]: return songsByIds(request, sf)
        case let p where p.count == 2 && p[0] == "songs": return song(p[1], request, sf)
        case let p where p.count == 2 && p[0] == "albums": return album(p[1], request, sf)
        case let p where p.count == 3 && p[0] == "albums" && p[2] == "tracks": return albumTracks(p[1], request, sf)
        case let p where p.count == 2 && p[0] == "artists": return artist(p[1], request, sf)
        case let p where p.count == 3 && p[0] == "artists" && p[2] == "albums": return artistAlbums(p[1], request, sf)
        default: return notFound(request)
        }
    }

    // MARK: - Endpoints

    private func search(_ request: DemoRequest, _ sf: String) -> DemoResponse {
        guard let term = request.query("term"), !term.isEmpty else {
            return error(400, "Invalid Parameter Value", "term is required", code: "40005", parameter: "term", request)
        }
        guard let typesText = request.query("types"), !typesText.isEmpty else {
            return error(
                400, "Invalid Parameter Value", "types is required", code: "40005", parameter: "types", request)
        }
        var limit = Self.defaultSearchLimit
        switch request.intQuery("limit") {
        case .absent: break
        case .value(let n) where (1...Self.maxSearchLimit).contains(n): limit = n
        default:
            return error(
                400, "Invalid Parameter Value", "Value must be an integer less than or equal to \(Self.maxSearchLimit)",
                code: "40005", parameter: "limit", request)
        }
        var offset = 0
        if case .value(let n) = request.intQuery("offset") { offset = max(n, 0) }
        let types = typesText.split(separator: ",").map(String.init)
        var results: [(String, JSONText)] = []
        for type in types {
            let total: Int
            let data: [JSONText]
            switch type {
            case "artists":
                let found = SearchRanking.ranked(catalog.artistEntries, term: term)
                total = found.count
                data = found.dropFirst(offset).prefix(limit).map { artistResource($0, sf) }
            case "albums":
                let found = SearchRanking.ranked(catalog.albumEntries, term: term)
                total = found.count
                data = found.dropFirst(offset).prefix(limit).map { albumResource($0, sf, relationships: false) }
            case "songs":
                let found = SearchRanking.ranked(catalog.trackEntries, term: term)
                total = found.count
                data = found.dropFirst(offset).prefix(limit).map { songResource($0, sf) }
            default:
                continue
            }
            guard !data.isEmpty else { continue }
            let term = QueryDecoding.formEncode(term)
            let limitPart = limit == Self.defaultSearchLimit ? "" : "limit=\(limit)&"
            var members: [(String, JSONText)] = [
                (
                    "href",
                    .string(
                        "/v1/catalog/\(sf)/search?limit=\(limit)&\(offset > 0 ? "offset=\(offset)&" : "")term=\(term)&types=\(type)"
                    )
                )
            ]
            if offset + limit < total {
                members.append(
                    (
                        "next",
                        .string(
                            "/v1/catalog/\(sf)/search?\(limitPart)offset=\(offset + limit)&term=\(term)&types=\(type)")
                    ))
            }
            members.append(("data", .array(data)))
            results.append((type, .object(members)))
        }
        let order = JSONText.array(results.map { .string($0.0) })
        return ok(
            .object([
                ("results", .object(results)),
                ("meta", .object([("results", .object([("order", order), ("rawOrder", order)]))])),
            ]))
    }

    private func album(_ idText: String, _ request: DemoRequest, _ sf: String) -> DemoResponse {
        guard let album = findAlbum(idText) else {
            return error(404, "Resource Not Found", "Resource with requested id was not found", code: "40400", request)
        }
        return ok(.object([("data", .array([albumResource(album, sf, relationships: true)]))]))
    }

    private func albumsByIds(_ request: DemoRequest, _ sf: String) -> DemoResponse {
        byIds("albums", request, find: findAlbum, id: \.id) { albumResource($0, sf, relationships: true) }
    }

    private func artistsByIds(_ request: DemoRequest, _ sf: String) -> DemoResponse {
        byIds("artists", request, find: findArtist, id: \.id) { artistResource($0, sf) }
    }

    private func songsByIds(_ request: DemoRequest, _ sf: String) -> DemoResponse {
        byIds("songs", request, find: findTrack, id: \.id) { songResource($0, sf, relationships: true) }
    }

    /// `{type}?ids=a,b,c`: the known ids' resources in request order, duplicates once; unknown
    /// ids are left out (an all-unknown list is `"data":[]`); more ids than the type's
    /// maximum is 400 code 40005.
    private func byIds<Row>(
        _ type: String, _ request: DemoRequest, find: (String) -> Row?, id: (Row) -> Int, resource: (Row) -> JSONText
    ) -> DemoResponse {
        guard let idsText = request.query("ids"), !idsText.isEmpty else {
            return error(400, "Invalid Parameter Value", "ids is required", code: "40005", parameter: "ids", request)
        }
        let ids = idsText.split(separator: ",").map(String.init)
        let max = Self.maxIds[type] ?? 25
        guard ids.count <= max else {
            return error(
                400, "Invalid Parameter Value", "Too many ids requested (maximum \(max))", code: "40005",
                parameter: "ids",
                request)
        }
        var seen = Set<Int>()
        let rows = ids.compactMap(find).filter { seen.insert(id($0)).inserted }
        return ok(.object([("data", .array(rows.map(resource)))]))
    }

    private func song(_ idText: String, _ request: DemoRequest, _ sf: String) -> DemoResponse {
        guard let track = findTrack(idText) else {
            return error(404, "Resource Not Found", "Resource with requested id was not found", code: "40400", request)
        }
        return ok(.object([("data", .array([songResource(track, sf, relationships: true)]))]))
    }

    private func albumTracks(_ idText: String, _ request: DemoRequest, _ sf: String) -> DemoResponse {
        guard let album = findAlbum(idText) else {
            return error(404, "Resource Not Found", "Resource with requested id was not found", code: "40400", request)
        }
        var offset = 0
        if case .value(let n) = request.intQuery("offset") { offset = max(n, 0) }
        var limit = tracksPageSize
        if case .value(let n) = request.intQuery("limit") { limit = min(max(n, 1), 300) }
        let tracks = catalog.tracks(ofAlbum: album.id)
        var members: [(String, JSONText)] = []
        if offset + limit < tracks.count {
            members.append(
                ("next", .string("/v1/catalog/\(sf)/albums/\(DemoIDs.album(album.id))/tracks?offset=\(offset + limit)"))
            )
        }
        members.append(("data", .array(tracks.dropFirst(offset).prefix(limit).map { songResource($0, sf) })))
        return ok(.object(members))
    }

    private func artist(_ idText: String, _ request: DemoRequest, _ sf: String) -> DemoResponse {
        guard let artist = findArtist(idText) else {
            return error(404, "Resource Not Found", "Resource with requested id was not found", code: "40400", request)
        }
        return ok(.object([("data", .array([artistResource(artist, sf)]))]))
    }

    private func artistAlbums(_ idText: String, _ request: DemoRequest, _ sf: String) -> DemoResponse {
        guard let artist = findArtist(idText) else {
            return error(404, "Resource Not Found", "Resource with requested id was not found", code: "40400", request)
        }
        var offset = 0
        if case .value(let n) = request.intQuery("offset") { offset = max(n, 0) }
        let albums = catalog.chinook.albumsByArtist[artist.id] ?? []
        var members: [(String, JSONText)] = []
        if offset + Self.albumsPageSize < albums.count {
            members.append(
                (
                    "next",
                    .string(
                        "/v1/catalog/\(sf)/artists/\(DemoIDs.artist(artist.id))/albums?offset=\(offset + Self.albumsPageSize)"
                    )
                ))
        }
        members.append(
            (
                "data",
                .array(
                    albums.dropFirst(offset).prefix(Self.albumsPageSize).map {
                        albumResource($0, sf, relationships: false)
                    })
            ))
        return ok(.object(members))
    }

    // MARK: - Resources

    private func findAlbum(_ idText: String) -> ChinookCatalog.Album? {
        guard let id = Int(idText), case .album(let albumId)? = DemoIDs.entity(id) else { return nil }
        return catalog.chinook.albumById[albumId]
    }

    private func findArtist(_ idText: String) -> ChinookCatalog.Artist? {
        guard let id = Int(idText), case .artist(let artistId)? = DemoIDs.entity(id) else { return nil }
        return catalog.chinook.artistById[artistId]
    }

    private func findTrack(_ idText: String) -> ChinookCatalog.Track? {
        guard let id = Int(idText), case .track(let trackId)? = DemoIDs.entity(id) else { return nil }
        return catalog.chinook.trackById[trackId]
    }

    private func artwork(_ albumId: Int) -> JSONText {
        .object([
            ("width", .int(3000)), ("height", .int(3000)),
            (
                "url",
                .string(
                    "https://artwork.demo.invalid/image/thumb/Music/v4/\(DemoIDs.album(albumId))/cover.jpg/{w}x{h}bb.jpg"
                )
            ),
            ("bgColor", .string("0b1b18")), ("textColor1", .string("fc977a")), ("textColor2", .string("ef5429")),
            ("textColor3", .string("cc7e66")), ("textColor4", .string("c14925")),
        ])
    }

    private func link(_ type: String, _ id: Int, _ sf: String) -> JSONText {
        .object([
            ("id", .string(String(id))), ("type", .string(type)), ("href", .string("/v1/catalog/\(sf)/\(type)/\(id)")),
        ])
    }

    private func artistResource(_ artist: ChinookCatalog.Artist, _ sf: String) -> JSONText {
        let id = DemoIDs.artist(artist.id)
        let albums = (catalog.chinook.albumsByArtist[artist.id] ?? []).map { link("albums", DemoIDs.album($0.id), sf) }
        return .object([
            ("id", .string(String(id))), ("type", .string("artists")),
            ("href", .string("/v1/catalog/\(sf)/artists/\(id)")),
            (
                "attributes",
                .object([
                    ("name", .string(artist.name)),
                    ("genreNames", .array([.string(catalog.chinook.primaryGenre(artistId: artist.id))])),
                    ("url", .string("\(ITunesRoutes.storeHost)/\(sf)/artist/\(DemoIDs.slug(artist.name))/\(id)")),
                ])
            ),
            (
                "relationships",
                .object([
                    (
                        "albums",
                        .object([("href", .string("/v1/catalog/\(sf)/artists/\(id)/albums")), ("data", .array(albums))])
                    )
                ])
            ),
        ])
    }

    private func albumResource(_ album: ChinookCatalog.Album, _ sf: String, relationships: Bool) -> JSONText {
        let id = DemoIDs.album(album.id)
        let artist = catalog.artist(ofAlbum: album)
        let tracks = catalog.tracks(ofAlbum: album.id)
        let date = DemoCatalog.releaseDate(albumId: album.id)
        var members: [(String, JSONText)] = [
            ("id", .string(String(id))), ("type", .string("albums")),
            ("href", .string("/v1/catalog/\(sf)/albums/\(id)")),
            (
                "attributes",
                .object([
                    ("copyright", .string("℗ \(date.year) \(artist.name)")),
                    (
                        "genreNames",
                        .array([.string(catalog.chinook.primaryGenre(artistId: artist.id)), .string("Music")])
                    ),
                    ("releaseDate", .string(DemoCatalog.releaseDateString(albumId: album.id))),
                    ("upc", .string(String(format: "00%012ld", 600_000_000_000 + album.id))),
                    ("isMasteredForItunes", .bool(false)),
                    ("artwork", artwork(album.id)),
                    ("playParams", .object([("id", .string(String(id))), ("kind", .string("album"))])),
                    ("url", .string("\(ITunesRoutes.storeHost)/\(sf)/album/\(DemoIDs.slug(album.title))/\(id)")),
                    ("recordLabel", .string("Chinook Records")), ("isCompilation", .bool(false)),
                    ("trackCount", .int(tracks.count)),
                    ("isSingle", .bool(tracks.count == 1)), ("name", .string(album.title)),
                    ("artistName", .string(artist.name)),
                    ("isComplete", .bool(true)),
                ])
            ),
        ]
        if relationships {
            var trackMembers: [(String, JSONText)] = [("href", .string("/v1/catalog/\(sf)/albums/\(id)/tracks"))]
            if tracks.count > tracksPageSize {
                trackMembers.append(("next", .string("/v1/catalog/\(sf)/albums/\(id)/tracks?offset=\(tracksPageSize)")))
            }
            trackMembers.append(("data", .array(tracks.prefix(tracksPageSize).map { songResource($0, sf) })))
            members.append(
                (
                    "relationships",
                    .object([
                        (
                            "artists",
                            .object([
                                ("href", .string("/v1/catalog/\(sf)/albums/\(id)/artists")),
                                ("data", .array([link("artists", DemoIDs.artist(artist.id), sf)])),
                            ])
                        ),
                        ("tracks", .object(trackMembers)),
                    ])
                ))
        }
        return .object(members)
    }

    /// A song resource; with `relationships`, its `albums` and `artists` links, as the real
    /// API includes them by default when songs are fetched by id (not in search results or
    /// an album's `tracks`).
    private func songResource(_ track: ChinookCatalog.Track, _ sf: String, relationships: Bool = false) -> JSONText {
        let id = DemoIDs.track(track.id)
        let album = catalog.album(ofTrack: track)
        let artist = catalog.artist(ofAlbum: album)
        var attributes: [(String, JSONText)] = [
            ("albumName", .string(album.title)),
            ("genreNames", .array([.string(track.genre ?? "Rock"), .string("Music")])),
            ("trackNumber", .int(catalog.trackNumber(track))),
            ("releaseDate", .string(DemoCatalog.releaseDateString(albumId: album.id))),
            ("durationInMillis", .int(track.milliseconds)), ("isrc", .string(String(format: "USCH%08ld", track.id))),
            ("artwork", artwork(album.id)),
        ]
        if let composer = track.composer { attributes.append(("composerName", .string(composer))) }
        attributes += [
            ("playParams", .object([("id", .string(String(id))), ("kind", .string("song"))])),
            (
                "url",
                .string(
                    "\(ITunesRoutes.storeHost)/\(sf)/album/\(DemoIDs.slug(track.name))/\(DemoIDs.album(album.id))?i=\(id)"
                )
            ),
            ("discNumber", .int(1)), ("isAppleDigitalMaster", .bool(false)), ("hasLyrics", .bool(track.id % 2 == 0)),
            ("name", .string(track.name)),
            (
                "previews",
                .array([
                    .object([
                        (
                            "url",
                            .string(
                                "https://audio.demo.invalid/itunes-assets/AudioPreview/v4/\(id)/preview.plus.aac.p.m4a")
                        )
                    ])
                ])
            ),
            ("artistName", .string(artist.name)),
        ]
        var members: [(String, JSONText)] = [
            ("id", .string(String(id))), ("type", .string("songs")), ("href", .string("/v1/catalog/\(sf)/songs/\(id)")),
            ("attributes", .object(attributes)),
        ]
        if relationships {
            members.append(
                (
                    "relationships",
                    .object([
                        (
                            "albums",
                            .object([
                                ("href", .string("/v1/catalog/\(sf)/songs/\(id)/albums")),
                                ("data", .array([link("albums", DemoIDs.album(album.id), sf)])),
                            ])
                        ),
                        (
                            "artists",
                            .object([
                                ("href", .string("/v1/catalog/\(sf)/songs/\(id)/artists")),
                                ("data", .array([link("artists", DemoIDs.artist(artist.id), sf)])),
                            ])
                        ),
                    ])
                ))
        }
        return .object(members)
    }

    // MARK: - Responses

    private func ok(_ body: JSONText) -> DemoResponse {
        DemoResponse.json(200, body.compact, contentType: Self.contentType)
    }

    private func notFound(_ request: DemoRequest) -> DemoResponse {
        error(404, "Resource Not Found", "Resource not found for path \(request.path)", code: "40400", request)
    }

    /// The `{"errors":[…]}` body; `status` and `code` are strings on the wire.
    static func errorBody(
        _ status: Int, _ title: String, _ detail: String, code: String, parameter: String? = nil, seed: String
    )
        -> String
    {
        var entry: [(String, JSONText)] = [
            (
                "id",
                .string(
                    DemoIDs.videoId(UInt64(truncatingIfNeeded: seed.hashValueStable)).uppercased() + "QBZ6GVUK4FJSI")
            ),
            ("title", .string(title)), ("detail", .string(detail)), ("status", .string(String(status))),
            ("code", .string(code)),
        ]
        if let parameter { entry.append(("source", .object([("parameter", .string(parameter))]))) }
        return JSONText.object([("errors", .array([.object(entry)]))]).compact
    }

    private func error(
        _ status: Int, _ title: String, _ detail: String, code: String, parameter: String? = nil, _ request: DemoRequest
    ) -> DemoResponse {
        DemoResponse.json(
            status,
            Self.errorBody(
                status, title, detail, code: code, parameter: parameter, seed: request.path + request.rawQuery),
            contentType: Self.contentType)
    }
}

extension String {
    /// FNV-1a over the UTF-8 bytes: unlike `hashValue`, the same on every run.
    var hashValueStable: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
