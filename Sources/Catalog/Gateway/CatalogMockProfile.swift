import GraphQL
import GraphQLMocks
import UpstreamEconomy

/// What makes mocks of `schema.graphql` look like the gateway's answers (`--mock`):
///
/// - ids are global ids of the provider the object would come from: the `source` argument
///   (`albums(source: RAKUTEN)`), the id an object was fetched by, or the parent's provider;
///   TMDB for movies and their videos, YouTube for other videos; in each provider's own
///   format (iTunes and Apple Music decimal, Rakuten JAN codes with `<JAN>-<n>` tracks and
///   names as artist ids, YouTube 11-character keys, TMDB decimal movies and 24-hex videos);
/// - `Album.source` matches the id, `Album.artistName` and `Track.artistName` the artist
///   they were reached from, `Track.trackNumber` its position, URLs are the providers' URL
///   shapes around the object's id;
/// - `node(id:)` answers the type the id names; ids the gateway refuses (malformed, of the
///   wrong kind, naming nothing, TMDB videos) get the same `BAD_USER_INPUT` or `UNSUPPORTED`
///   error, and so does `artist` without `name` or `id`.
///
/// It applies to schemas that have all five object types of the catalog.
public struct CatalogMockProfile: MockProfile {
    public init() {}

    /// Whether `schema` is (a version of) the gateway's schema, which this profile describes.
    public static func applies(to schema: Schema) -> Bool {
        ["Artist", "Album", "Track", "Video", "Movie"].allSatisfy { schema.types[$0] != nil }
    }

    public func check(_ field: MockField) throws {
        guard field.parentType == "Query" else { return }
        let id = field.arguments["id"].flatMap { value -> String? in
            if case .string(let text) = value { return text }
            return nil
        }
        let kind: GlobalID.Kind?
        switch field.name {
        case "artist":
            let hasName: Bool = {
                if case .string? = field.arguments["name"] { return true }
                return false
            }()
            if id != nil, hasName { throw badInput("Give either `name` or `id` to `artist`, not both.") }
            if id == nil, !hasName { throw badInput("`artist` needs a `name` or an `id`.") }
            kind = .artist
        case "album": kind = .album
        case "track": kind = .track
        case "node": kind = nil
        default: return
        }
        guard let id else { return }
        let gid = try QueryResolvers.globalID(id, kind: kind)
        if let refusal = NodeFetch.refusal(gid) { throw refusal }
    }

    public func concreteType(of abstractType: String, for field: MockField, engine: MockEngine) throws -> String? {
        guard case .string(let id)? = field.arguments["id"], let gid = GlobalID(id) else { return nil }
        return Self.typeName[gid.kind]
    }

    public func facts(for child: MockObject, of field: MockField, engine: MockEngine) -> [String: String] {
        var facts: [String: String] = [:]
        if case .string(let id)? = child.pinned["id"], let gid = GlobalID(id) {
            facts["provider"] = gid.service.rawValue
        } else if let provider = Self.provider(of: field) {
            facts["provider"] = provider.rawValue
        }
        let parent = field.object
        switch (parent.typeName, child.typeName) {
        case ("Artist", "Album"):
            if case .string(let name)? = engine.leafValue("name", of: parent) { facts["artistName"] = name }
        case ("Album", "Track"):
            if case .string(let name)? = engine.leafValue("artistName", of: parent) { facts["artistName"] = name }
            if let id = upstreamID(of: parent, engine: engine) { facts["albumId"] = id }
        case ("Album", "Artist"), ("Track", "Artist"):
            if case .string(let name)? = engine.leafValue("artistName", of: parent) { facts["linkedArtistName"] = name }
        case ("Track", "Album"):
            if case .string(let name)? = engine.leafValue("artistName", of: parent) { facts["artistName"] = name }
        default: break
        }
        return facts
    }

    public func value(for field: MockField, engine: MockEngine) throws -> JSONValue? {
        let object = field.object
        switch field.coordinate {
        case "Artist.id", "Album.id", "Track.id", "Video.id", "Movie.id":
            return .string(globalID(of: object, seed: field.seed, engine: engine).description)
        case "Album.source":
            return CatalogSource(service: service(of: object)).map { .string($0.rawValue) }
        case "Album.artistName", "Track.artistName":
            return object.facts["artistName"].map { .string($0) }
        case "Artist.name":
            // An album's or track's artist is named as the album or track says.
            return object.facts["linkedArtistName"].map { .string($0) }
        case "Track.trackNumber":
            return .int((object.index ?? 0) + 1)
        case "Track.discNumber":
            return .int(1)
        case "Album.trackCount":
            return .int(MockSeed.pick(field.seed, in: 8...16))
        case "Artist.genre", "Album.genre":
            return .string(Self.genres[MockSeed.pick(field.seed, in: 0...(Self.genres.count - 1))])
        case "Artist.url":
            guard let id = upstreamID(of: object, engine: engine) else { return nil }
            return .string("https://music.apple.com/us/artist/\(QueryEncoding.percentEncode(id))")
        case "Album.artworkUrl":
            guard case .int(let size)? = field.arguments["size"] else { return nil }
            return .string("https://is1-ssl.mzstatic.com/image/thumb/Music/\(hex(field.seed))/\(size)x\(size)bb.jpg")
        case "Track.previewUrl":
            return .string("https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview/\(hex(field.seed)).m4a")
        case "Video.url":
            guard let id = upstreamID(of: object, engine: engine) else { return nil }
            return .string(
                service(of: object) == .iTunes
                    ? "https://music.apple.com/us/music-video/\(id)" : YouTubeProvider.watchURL(videoId: id))
        case "Video.thumbnailUrl":
            guard let id = upstreamID(of: object, engine: engine) else { return nil }
            return .string(
                service(of: object) == .iTunes
                    ? "https://is1-ssl.mzstatic.com/image/thumb/Video/\(id)/320x180bb.jpg"
                    : "https://i.ytimg.com/vi/\(id)/hqdefault.jpg")
        case "Movie.posterUrl":
            guard case .string(let size)? = field.arguments["size"] else { return nil }
            return .string("https://image.tmdb.org/t/p/\(size)/\(hex(field.seed)).jpg")
        default:
            return nil
        }
    }

    // MARK: - Ids

    private static let typeName: [GlobalID.Kind: String] = [
        .artist: "Artist", .album: "Album", .track: "Track", .video: "Video", .movie: "Movie",
    ]

    private static let genres = [
        "Rock", "Hard Rock", "Pop", "Alternative", "Electronic", "Jazz", "Hip-Hop/Rap", "Soul", "Classical", "Metal",
    ]

    /// The provider the objects of `field` come from, when the field decides it.
    private static func provider(of field: MockField) -> UpstreamService? {
        let source: String? = {
            if case .string(let value)? = field.arguments["source"] { return value }
            return nil
        }()
        switch field.coordinate {
        case "Query.artists", "Query.albums":
            switch source {
            case "APPLE_MUSIC": return .appleMusic
            case "RAKUTEN": return .rakuten
            default: return .iTunes
            }
        case "Query.artist": return .iTunes
        case "Query.videos": return .youTube
        case "Query.movies", "Movie.videos": return .tmdb
        case "Track.videos": return source == "ITUNES" ? .iTunes : .youTube
        default: return nil
        }
    }

    /// The provider of `object`: its facts, else the one that issues its kind by default.
    private func service(of object: MockObject) -> UpstreamService {
        if let raw = object.facts["provider"], let service = UpstreamService(builtIn: raw) {
            let kind = Self.kind(of: object.typeName)
            if let kind, NodeFetch.issues(service, kind) { return service }
        }
        switch object.typeName {
        case "Movie": return .tmdb
        case "Video": return .youTube
        default: return .iTunes
        }
    }

    private static func kind(of typeName: String) -> GlobalID.Kind? {
        typeName.isEmpty ? nil : GlobalID.Kind(rawValue: typeName.lowercased())
    }

    /// The upstream part of `object`'s id (as its `id` field answers it).
    private func upstreamID(of object: MockObject, engine: MockEngine) -> String? {
        guard case .string(let text)? = engine.leafValue("id", of: object) else { return nil }
        return GlobalID(text)?.id
    }

    private func globalID(of object: MockObject, seed: UInt64, engine: MockEngine) -> GlobalID {
        let kind = Self.kind(of: object.typeName) ?? .artist
        let service = service(of: object)
        let id: String
        switch (service, kind) {
        case (.rakuten, .album):
            id = "49" + MockSeed.digits(seed, count: 11)
        case (.rakuten, .track):
            id = (object.facts["albumId"] ?? "49" + MockSeed.digits(seed, count: 11)) + "-\((object.index ?? 0) + 1)"
        case (.rakuten, .artist):
            if case .string(let name)? = engine.leafValue("name", of: object) {
                id = name
            } else {
                id = MockSeed.characters(seed, count: 8, from: "abcdefghijklmnopqrstuvwxyz")
            }
        case (.youTube, _), (.tmdb, .video):
            // TMDB videos are the hosting site's keys, YouTube's in the main.
            id = MockSeed.characters(
                seed, count: 11, from: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        case (.tmdb, _):
            id = MockSeed.digits(seed, count: MockSeed.pick(seed, in: 3...6))
        default:
            id = MockSeed.digits(seed, count: MockSeed.pick(seed, in: 9...10))
        }
        return GlobalID(service, kind, id)
    }

    private func hex(_ seed: UInt64, count: Int = 16) -> String {
        MockSeed.characters(seed, count: count, from: "0123456789abcdef")
    }
}
