import GraphQL
import UpstreamEconomy

/// Resolvers of the `Query` root fields.
enum QueryResolvers {
    static let bindings: [String: any FieldResolver] = [
        "artist": GatewayFieldResolver { _, args, request in
            if let id = args.string("id") {
                guard args.string("name") == nil else {
                    throw badInput("Give either `name` or `id` to `artist`, not both.")
                }
                let gid = try globalID(id, kind: .artist)
                return .later { try await NodeFetch.node(gid, request) }
            }
            guard let name = args.string("name") else { throw badInput("`artist` needs a `name` or an `id`.") }
            return request.loaders.itunesArtistSearch.field(SearchKey(term: name, limit: 1), at: request.path) {
                $0.first.map { .host($0) } ?? .null
            }
        },
        "artists": GatewayFieldResolver { _, args, request in
            let name = args.string("name") ?? ""
            let first = try pageSize(args)
            let loaders = request.loaders
            switch CatalogSource(rawValue: args.string("source") ?? "ITUNES") ?? .iTunes {
            case .iTunes:
                return loaders.itunesArtistSearch.field(SearchKey(term: name, limit: first), at: request.path) {
                    .hosts($0)
                }
            case .appleMusic:
                return loaders.appleMusicArtistSearch.field(SearchKey(term: name, limit: first), at: request.path) {
                    .hosts($0)
                }
            case .rakuten:
                // Rakuten has no artist search: artists are the distinct artist names of CD releases.
                return loaders.rakutenSearch.field(
                    SearchKey(term: name, limit: 30, option: "artistName"), at: request.path
                ) {
                    releases in
                    var seen = Set<String>()
                    let artists = releases.map(\.album.artistName).filter { !$0.isEmpty && seen.insert($0).inserted }
                    return .hosts(
                        prefix(artists, first).map { ArtistNode(artist: Artist(id: $0, name: $0, source: .rakuten)) })
                }
            }
        },
        "album": GatewayFieldResolver { _, args, request in
            let gid = try globalID(args.string("id") ?? "", kind: .album)
            return .later { try await NodeFetch.node(gid, request) }
        },
        "albums": GatewayFieldResolver { _, args, request in
            let term = args.string("term") ?? ""
            let first = try pageSize(args)
            let loaders = request.loaders
            switch CatalogSource(rawValue: args.string("source") ?? "ITUNES") ?? .iTunes {
            case .iTunes:
                return loaders.itunesAlbumSearch.field(SearchKey(term: term, limit: first), at: request.path) {
                    .hosts($0)
                }
            case .appleMusic:
                return loaders.appleMusicAlbumSearch.field(SearchKey(term: term, limit: first), at: request.path) {
                    .hosts($0)
                }
            case .rakuten:
                return loaders.rakutenSearch.field(
                    SearchKey(term: term, limit: min(first, 30), option: "title"), at: request.path
                ) {
                    .hosts(prefix($0, first))
                }
            }
        },
        "track": GatewayFieldResolver { _, args, request in
            let gid = try globalID(args.string("id") ?? "", kind: .track)
            return .later { try await NodeFetch.node(gid, request) }
        },
        "videos": GatewayFieldResolver { _, args, request in
            let query = args.string("query") ?? ""
            let first = try pageSize(args)
            let duration = (args.string("duration") ?? "ANY").lowercased()
            return request.loaders.youTubeSearch.field(
                SearchKey(term: query, limit: first, option: duration), at: request.path
            ) {
                .hosts($0)
            }
        },
        "node": GatewayFieldResolver { _, args, request in
            let gid = try globalID(args.string("id") ?? "", kind: nil)
            return .later { try await NodeFetch.node(gid, request) }
        },
    ]

    /// Parses a global id argument, checking its kind when one is expected.
    static func globalID(_ text: String, kind: GlobalID.Kind?) throws -> GlobalID {
        guard let gid = GlobalID(text) else {
            throw badInput(
                "'\(text)' is not a MusicGraph id; ids look like `itunes:album:1440857781` (provider:kind:upstream id)."
            )
        }
        if let kind, gid.kind != kind {
            throw badInput("'\(text)' is \(gid.kind.withArticle) id, not \(kind.withArticle) id.")
        }
        if let problem = gid.upstreamIdProblem { throw badInput(problem) }
        return gid
    }
}

/// Fetching one object by global id, for `node` and the by-id root fields. Every kind a
/// provider hands out can be fetched again, each through its upstream's own by-id read:
///
/// | provider | artist | album | track | video | movie |
/// | --- | --- | --- | --- | --- | --- |
/// | iTunes | `lookup?id=` | `lookup?id=` | `lookup?id=` | `lookup?id=` (music videos) | – |
/// | Apple Music | `artists?ids=` | `albums?ids=` | `songs?ids=` | – | – |
/// | Rakuten Books | the id is the name | search `jan=` | search `jan=` | – | – |
/// | YouTube | – | – | – | `videos?id=` | – |
/// | TMDB | – | – | – | no by-key endpoint | `/3/movie/{id}` (declared in the schema) |
///
/// Ids that no provider hands out (`tmdb:album:…`) are `BAD_USER_INPUT`; TMDB videos are
/// `UNSUPPORTED` (see `tmdbVideosHaveNoEndpoint`).
enum NodeFetch {
    static func node(_ gid: GlobalID, _ request: GatewayField) async throws -> FieldValue {
        // A lookup the schema declares on the kind's type (`@http` on `Movie`) reads it.
        if let declared = try await request.request.connectors?.lookup(
            typeName: gid.kind.typeName, service: gid.service, id: gid.id, at: request.path)
        {
            return declared
        }
        let loaders = request.loaders
        switch (gid.service, gid.kind) {
        case (.iTunes, .artist):
            return try await loaders.itunesArtists.load(gid.id, at: request.path).map { .host($0) } ?? .null
        case (.appleMusic, .artist):
            return try await loaders.appleMusicArtists.load(gid.id, at: request.path).map { .host($0) } ?? .null
        case (.rakuten, .artist):
            // Rakuten artists are names: the id is the name.
            return .host(ArtistNode(artist: Artist(id: gid.id, name: gid.id, source: .rakuten)))
        case (.iTunes, .album):
            return try await loaders.itunesAlbums.load(gid.id, at: request.path).map { .host($0) } ?? .null
        case (.appleMusic, .album):
            return try await loaders.appleMusicAlbums.load(gid.id, at: request.path).map { .host($0) } ?? .null
        case (.rakuten, .album):
            return try await loaders.rakutenReleases.load(gid.id, at: request.path).map { .host($0) } ?? .null
        case (.iTunes, .track):
            return try await loaders.itunesTracks.load(gid.id, at: request.path).map { .host(TrackNode(track: $0)) }
                ?? .null
        case (.appleMusic, .track):
            return try await loaders.appleMusicSongs.load(gid.id, at: request.path).map { .host(TrackNode(track: $0)) }
                ?? .null
        case (.rakuten, .track):
            // Rakuten tracks are play-list entries, `<jan>-<position>`: the release holds them.
            guard let dash = gid.id.lastIndex(of: "-") else { return .null }
            guard let release = try await loaders.rakutenReleases.load(String(gid.id[..<dash]), at: request.path),
                let track = release.tracks?.first(where: { $0.id == gid.id })
            else { return .null }
            return .host(TrackNode(track: track, album: release))
        case (.iTunes, .video):
            return try await loaders.itunesMusicVideos.load(gid.id, at: request.path).map { .host($0) } ?? .null
        case (.youTube, .video):
            return try await loaders.youTubeVideos.load(gid.id, at: request.path).map { .host($0) } ?? .null
        default:
            throw refusal(gid) ?? badInput("'\(gid)' names nothing.")
        }
    }

    /// Why `gid` cannot be fetched (a TMDB video: `UNSUPPORTED`; an id no provider issues:
    /// `BAD_USER_INPUT`), or nil when `node` can fetch it. Mocks refuse the same ids.
    static func refusal(_ gid: GlobalID) -> GraphQLError? {
        if gid.service == .tmdb, gid.kind == .video { return unsupported(tmdbVideosHaveNoEndpoint) }
        guard !issues(gid.service, gid.kind) else { return nil }
        let prefixes = UpstreamService.builtIn.filter { issues($0, gid.kind) }.map { "`\($0.rawValue):`" }
        let list =
            prefixes.count > 1
            ? prefixes.dropLast().joined(separator: ", ") + " or " + prefixes[prefixes.count - 1]
            : prefixes.joined()
        return badInput(
            "'\(gid)' names nothing: \(gid.service.displayName) has no \(gid.kind.rawValue)s; "
                + "\(gid.kind.rawValue) ids start with \(list).")
    }

    /// Why `tmdb:video:…` ids cannot be fetched again.
    static let tmdbVideosHaveNoEndpoint =
        "TMDB videos cannot be fetched by id: TMDB has no endpoint that reads one video by its key "
        + "(only /3/movie/{id}/videos, a movie's list); reach them through `Movie.videos`."

    /// Whether `service` hands out ids of `kind`.
    static func issues(_ service: UpstreamService, _ kind: GlobalID.Kind) -> Bool {
        switch kind {
        case .artist, .album, .track: [.iTunes, .appleMusic, .rakuten].contains(service)
        case .video: [.iTunes, .youTube, .tmdb].contains(service)
        case .movie: service == .tmdb
        }
    }
}

/// The `first` argument of a root list field: 10 when absent, else 1…50 as the schema
/// documents (the upstream searches' own page limits); anything else is a BAD_USER_INPUT
/// error rather than a silently empty or oversized list.
func pageSize(_ args: JSONObject, default defaultSize: Int = 10, range: ClosedRange<Int> = 1...50) throws -> Int {
    try optionalPageSize(args, range: range) ?? defaultSize
}

/// `first` when given, checked against `range` like `pageSize`; nil when absent (all items).
func optionalPageSize(_ args: JSONObject, argument: String = "first", range: ClosedRange<Int>) throws -> Int? {
    guard let first = args.int(argument) else { return nil }
    guard range.contains(first) else {
        throw badInput("\(argument) must be between \(range.lowerBound) and \(range.upperBound); got \(first).")
    }
    return first
}
