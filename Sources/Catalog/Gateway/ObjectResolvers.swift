import GraphQL

/// Resolvers of the object types' non-scalar fields (and scalar fields with arguments).
/// Every other field is read from the host value by the default property resolver.
enum ObjectResolvers {
    static let artist: [String: any FieldResolver] = [
        "albums": GatewayFieldResolver { source, args, request in
            let artist = try source.node(ArtistNode.self).artist
            let first = try optionalPageSize(args, range: 1...200)
            let loaders = request.loaders
            // Never a lookup of "": an artist the upstream sent without its id has no albums to ask for.
            if artist.missingFields.contains("id"), artist.source == .iTunes || artist.source == .appleMusic {
                throw missingFieldError("id", of: "Artist", id: artist.id, artist.source)
            }
            switch artist.source {
            case .iTunes:
                return loaders.itunesAlbumsByArtist.field(artist.id, at: request.path) { .hosts(prefix($0, first)) }
            case .appleMusic:
                return loaders.appleMusicArtistAlbums.field(artist.id, at: request.path) { .hosts(prefix($0, first)) }
            case .rakuten:
                return loaders.rakutenSearch.field(
                    SearchKey(term: artist.name, limit: 30, option: "artistName"), at: request.path
                ) {
                    .hosts(prefix($0, first))
                }
            default:
                return .value(.list([]))
            }
        }
    ]

    static let album: [String: any FieldResolver] = [
        "artist": GatewayFieldResolver { source, _, request in
            // Read through the node: a copy of its whole `Album` was a retain per string field.
            let node = try source.node(AlbumNode.self)
            let loaders = request.loaders
            if node.album.source == .iTunes, let artistId = node.album.artistId {
                return loaders.itunesArtists.field(artistId, at: request.path) { $0.map { .host($0) } ?? .null }
            }
            // Albums read by id carry their `artists` relationship; search results do not.
            if node.album.source == .appleMusic, let artistId = node.album.artistId {
                return loaders.appleMusicArtists.field(artistId, at: request.path) { $0.map { .host($0) } ?? .null }
            }
            let album = node.album
            guard !album.artistName.isEmpty else { return .value(.null) }
            // Without an artist lookup on this catalog, the album's own artist fields are all we know.
            let artist = Artist(id: album.artistId ?? album.artistName, name: album.artistName, source: album.source)
            return .value(.host(ArtistNode(artist: artist)))
        },
        "artworkUrl": GatewayFieldResolver { source, args, _ in
            let album = try source.node(AlbumNode.self).album
            guard let url = album.artworkURL else { return .value(.null) }
            return .value(.json(.string(resizedArtworkURL(url, size: max(1, args.int("size") ?? 100)))))
        },
        "tracks": GatewayFieldResolver { source, _, request in
            let node = try source.node(AlbumNode.self)
            let parent = AlbumNode(album: node.album)
            if let tracks = node.tracks { return .value(.hosts(tracks.map { TrackNode(track: $0, album: parent) })) }
            let loaders = request.loaders
            // Never a lookup of "": an album the upstream sent without its id has no tracks to ask for.
            if node.album.missingFields.contains("id"), node.album.source == .iTunes || node.album.source == .appleMusic
            {
                throw missingFieldError("id", of: "Album", id: node.album.id, node.album.source)
            }
            switch node.album.source {
            case .iTunes:
                return loaders.itunesTracksByAlbum.field(node.album.id, at: request.path) {
                    .hosts($0.map { TrackNode(track: $0, album: parent) })
                }
            case .appleMusic:
                return loaders.appleMusicAlbums.field(node.album.id, at: request.path) {
                    .hosts(($0?.tracks ?? []).map { TrackNode(track: $0, album: parent) })
                }
            default:
                return .value(.list([]))
            }
        },
    ]

    static let track: [String: any FieldResolver] = [
        "album": GatewayFieldResolver { source, _, request in
            let node = try source.node(TrackNode.self)
            if let album = node.album { return .value(.host(album)) }
            guard let albumId = node.track.albumId else { return .value(.null) }
            let loaders = request.loaders
            switch node.track.source {
            case .iTunes:
                return loaders.itunesAlbums.field(albumId, at: request.path) { $0.map { .host($0) } ?? .null }
            case .appleMusic:
                return loaders.appleMusicAlbums.field(albumId, at: request.path) { $0.map { .host($0) } ?? .null }
            default:
                return .value(.null)
            }
        },
        "videos": GatewayFieldResolver { source, args, request in
            let node = try source.node(TrackNode.self)
            let first = try pageSize(args, default: 3)
            // One search per distinct "artist title": tracks sharing a title (live versions,
            // compilations) share the request through the loader's deduplication.
            let key = SearchKey(term: try node.videoSearchTerm(), limit: first, option: "any")
            let loaders = request.loaders
            if args.string("source") == "ITUNES" {
                return loaders.itunesMusicVideoSearch.field(key, at: request.path) { .hosts($0) }
            }
            return loaders.youTubeSearch.field(key, at: request.path) { .hosts($0) }
        },
    ]

    static let movie: [String: any FieldResolver] = [
        "posterUrl": GatewayFieldResolver { source, args, _ in
            let movie = try source.node(MovieNode.self).movie
            guard let url = movie.posterURL else { return .value(.null) }
            let size = args.string("size") ?? TMDBProvider.posterSize
            // The size becomes a path segment of the URL we hand out: only TMDB's own sizes.
            guard TMDBProvider.posterSizes.contains(size) else {
                throw badInput(
                    "Unknown poster size \"\(size)\"; use one of \(TMDBProvider.posterSizes.joined(separator: ", ")).")
            }
            return .value(.json(.string(url.replacing("/\(TMDBProvider.posterSize)/", with: "/\(size)/"))))
        }
    ]
}

/// An artwork URL whose last path segment names its size (`…/100x100bb.jpg`, the iTunes and
/// Apple Music convention) rewritten to `size`×`size`; other URLs unchanged.
func resizedArtworkURL(_ url: String, size: Int) -> String {
    guard let slash = url.lastIndex(of: "/") else { return url }
    let name = url[url.index(after: slash)...]
    guard let x = name.firstIndex(of: "x"), let bb = name.range(of: "bb."),
        !name[..<x].isEmpty, name[..<x].allSatisfy(\.isNumber),
        name[name.index(after: x)..<bb.lowerBound].allSatisfy(\.isNumber), x < bb.lowerBound
    else { return url }
    return String(url[...slash]) + "\(size)x\(size)" + name[bb.lowerBound...]
}
