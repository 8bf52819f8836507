import GraphQL

/// Resolvers of the `Query` root fields.
enum QueryResolvers {
  static let bindings: [String: any FieldResolver] = [
    "artist": GatewayFieldResolver { _, args, request in
      if let id = args.string("id") {
        guard args.string("name") == nil else { throw badInput("Give either `name` or `id` to `artist`, not both.") }
        let gid = try globalID(id, kind: .artist)
        return .later { try await NodeFetch.node(gid, request) }
      }
      guard let name = args.string("name") else { throw badInput("`artist` needs a `name` or an `id`.") }
      return .later {
        let found = try await request.loaders.itunesArtistSearch.load(SearchKey(term: name, limit: 1))
        return found.first.map { .host(ArtistNode(artist: $0)) } ?? .null
      }
    },
    "artists": GatewayFieldResolver { _, args, request in
      let name = args.string("name") ?? ""
      let first = try pageSize(args)
      let loaders = request.loaders
      switch CatalogSource(rawValue: args.string("source") ?? "ITUNES") ?? .iTunes {
      case .iTunes:
        return .later { .hosts(try await loaders.itunesArtistSearch.load(SearchKey(term: name, limit: first)).map(ArtistNode.init)) }
      case .appleMusic:
        return .later {
          .hosts(try await loaders.appleMusicArtistSearch.load(SearchKey(term: name, limit: first)).map(ArtistNode.init))
        }
      case .rakuten:
        // Rakuten has no artist search: artists are the distinct artist names of CD releases.
        return .later {
          let releases = try await loaders.rakutenSearch.load(SearchKey(term: name, limit: 30, option: "artistName"))
          var seen = Set<String>()
          let artists = releases.map(\.album.artistName).filter { !$0.isEmpty && seen.insert($0).inserted }
          return .hosts(prefix(artists, first).map { ArtistNode(artist: Artist(id: $0, name: $0, source: .rakuten)) })
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
        return .later { .hosts(try await loaders.itunesAlbumSearch.load(SearchKey(term: term, limit: first)).map { AlbumNode(album: $0) }) }
      case .appleMusic:
        return .later {
          .hosts(try await loaders.appleMusicAlbumSearch.load(SearchKey(term: term, limit: first)).map { AlbumNode(album: $0) })
        }
      case .rakuten:
        return .later {
          let releases = try await loaders.rakutenSearch.load(SearchKey(term: term, limit: min(first, 30), option: "title"))
          return .hosts(prefix(releases, first).map { AlbumNode(album: $0.album, tracks: $0.tracks) })
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
      return .later {
        let videos = try await request.loaders.youTubeSearch.load(SearchKey(term: query, limit: first, option: duration))
        return .hosts(videos.map(VideoNode.init))
      }
    },
    "movies": GatewayFieldResolver { _, args, request in
      let query = args.string("query") ?? ""
      let first = try pageSize(args)
      return .later {
        // TMDB pages hold 20 movies; the key ignores `first` so every cut shares one request.
        let movies = try await request.loaders.tmdbSearch.load(SearchKey(term: query, limit: 20))
        return .hosts(prefix(movies, first).map(MovieNode.init))
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
        "'\(text)' is not a MusicGraph id; ids look like `itunes:album:1440857781` (provider:kind:upstream id).")
    }
    if let kind, gid.kind != kind { throw badInput("'\(text)' is a \(gid.kind.rawValue) id, not a \(kind.rawValue) id.") }
    return gid
  }
}

/// Fetching one object by global id, for `node` and the by-id root fields.
enum NodeFetch {
  static func node(_ gid: GlobalID, _ request: GatewayRequest) async throws -> FieldValue {
    let loaders = request.loaders
    switch (gid.service, gid.kind) {
    case (.iTunes, .artist):
      return try await loaders.itunesArtists.load(gid.id).map { .host(ArtistNode(artist: $0)) } ?? .null
    case (.rakuten, .artist):
      // Rakuten artists are names: the id is the name.
      return .host(ArtistNode(artist: Artist(id: gid.id, name: gid.id, source: .rakuten)))
    case (.iTunes, .album):
      return try await loaders.itunesAlbums.load(gid.id).map { .host(AlbumNode(album: $0)) } ?? .null
    case (.appleMusic, .album):
      return try await loaders.appleMusicAlbums.load(gid.id).map { .host(AlbumNode(album: $0.album, tracks: $0.tracks)) }
        ?? .null
    case (.iTunes, .track):
      return try await loaders.itunesTracks.load(gid.id).map { .host(TrackNode(track: $0)) } ?? .null
    case (.youTube, .video):
      return try await loaders.youTubeVideos.load(gid.id).map { .host(VideoNode(video: $0)) } ?? .null
    default:
      throw unsupported("\(gid.service) \(gid.kind.rawValue)s cannot be fetched by id; find them through a search field.")
    }
  }
}

/// The `first` argument of a root list field: 10 when absent, else 1…50 as the schema
/// documents (the upstream searches' own page limits); anything else is a BAD_USER_INPUT
/// error rather than a silently empty or oversized list.
func pageSize(_ args: JSONObject, default defaultSize: Int = 10, range: ClosedRange<Int> = 1...50) throws -> Int {
  let first = args.int("first") ?? defaultSize
  guard range.contains(first) else {
    throw badInput("first must be between \(range.lowerBound) and \(range.upperBound); got \(first).")
  }
  return first
}
