import GraphQL
import UpstreamEconomy

// The host values resolvers hand to the executor. Scalar fields are read by the default
// property resolver (`PropertyReadable`); `properties` lists the names each one serves, so
// the start-up binding check knows which schema fields need no resolver of their own.
//
// Classes, not structs: every field of an object reads its node back out of `any Sendable`
// (`node(_:)`), and casting a class out is a type check and a retain, where a struct's cast
// copies every field of its record (a value-witness copy, a retain per string: about 5% of
// a cached 50-album request's CPU in issue 15's profile). Nodes are never mutated, so the
// loaders of artists, albums, videos and movies answer with nodes, made once per fetch and
// shared by every request their memo answers: such a request makes no node and copies no
// record, and each node's `id` (its global id, a string built of three parts) is made once.

/// An `Artist` object.
final class ArtistNode: HostObject, TypeNameProviding {
    static let properties: Set<String> = ["id", "name", "genre", "url"]
    let artist: Artist
    /// The `id` field's value.
    let globalID: String

    init(artist: Artist) {
        self.artist = artist
        globalID = GlobalID(artist.source, .artist, artist.id).description
    }

    var typeName: String { "Artist" }

    func property(_ name: String) -> FieldValue {
        if artist.missingFields.contains(name) {
            return missingField(name, of: typeName, id: artist.id, artist.source)
        }
        return switch name {
        case "id": .json(.string(globalID))
        case "name": .json(.string(artist.name))
        case "genre": json(artist.genre)
        case "url": json(artist.url)
        default: .null
        }
    }
}

/// An `Album` object; `tracks` when the upstream answer that produced it carried them
/// (Apple Music album resources, Rakuten play lists), so `Album.tracks` needs no request.
final class AlbumNode: HostObject, TypeNameProviding {
    static let properties: Set<String> = [
        "id", "title", "artistName", "releaseDate", "genre", "trackCount", "copyright", "source",
    ]
    let album: Album
    let tracks: [Track]?
    /// The `id` field's value.
    let globalID: String
    var typeName: String { "Album" }

    init(album: Album, tracks: [Track]? = nil) {
        self.album = album
        self.tracks = tracks
        globalID = GlobalID(album.source, .album, album.id).description
    }

    /// An album and the tracks its upstream answer carried.
    convenience init(_ release: AlbumWithTracks) { self.init(album: release.album, tracks: release.tracks) }

    func property(_ name: String) -> FieldValue {
        if album.missingFields.contains(name) { return missingField(name, of: typeName, id: album.id, album.source) }
        return switch name {
        case "id": .json(.string(globalID))
        case "title": .json(.string(album.title))
        case "artistName": .json(.string(album.artistName))
        case "releaseDate": json(album.releaseDate)
        case "genre": json(album.genre)
        case "trackCount": album.trackCount.map { .json(.int($0)) } ?? .null
        case "copyright": json(album.copyright)
        case "source": CatalogSource(service: album.source).map { .json(.string($0.rawValue)) } ?? .null
        default: .null
        }
    }
}

/// A `Track` object; `album` when it was reached through its album, so `Track.album`
/// needs no request.
final class TrackNode: HostObject, TypeNameProviding {
    static let properties: Set<String> = [
        "id", "title", "trackNumber", "discNumber", "durationMs", "previewUrl", "artistName",
    ]
    let track: Track
    let album: AlbumNode?
    var typeName: String { "Track" }

    init(track: Track, album: AlbumNode? = nil) {
        self.track = track
        self.album = album
    }

    func property(_ name: String) -> FieldValue {
        if track.missingFields.contains(name) { return missingField(name, of: typeName, id: track.id, track.source) }
        return switch name {
        case "id": .json(.string(GlobalID(track.source, .track, track.id).description))
        case "title": .json(.string(track.title))
        case "trackNumber": track.trackNumber.map { .json(.int($0)) } ?? .null
        case "discNumber": track.discNumber.map { .json(.int($0)) } ?? .null
        case "durationMs": track.durationMs.map { .json(.int($0)) } ?? .null
        case "previewUrl": json(track.previewURL)
        case "artistName": json(track.artistName ?? album?.album.knownArtistName)
        default: .null
        }
    }

    /// The words a video search for this track uses: "artist title".
    /// - Throws: the `Track.title` error when the upstream sent no title: a search for the
    ///   artist alone would answer videos that are not this track's.
    func videoSearchTerm() throws(GraphQLError) -> String {
        if track.missingFields.contains("title") {
            throw missingFieldError("title", of: typeName, id: track.id, track.source)
        }
        let artist = track.artistName ?? album?.album.knownArtistName ?? ""
        return artist.isEmpty ? track.title : "\(artist) \(track.title)"
    }
}

/// A `Video` object.
final class VideoNode: HostObject, TypeNameProviding {
    static let properties: Set<String> = [
        "id", "title", "channelTitle", "description", "thumbnailUrl", "url", "publishedAt",
    ]
    let video: Video
    /// The `id` field's value.
    let globalID: String
    var typeName: String { "Video" }

    init(video: Video) {
        self.video = video
        globalID = GlobalID(video.source, .video, video.id).description
    }

    func property(_ name: String) -> FieldValue {
        if video.missingFields.contains(name) { return missingField(name, of: typeName, id: video.id, video.source) }
        return switch name {
        case "id": .json(.string(globalID))
        case "title": .json(.string(video.title))
        case "channelTitle": json(video.channelTitle)
        case "description": json(video.description)
        case "thumbnailUrl": json(video.thumbnailURL)
        case "url": json(video.url)
        case "publishedAt": json(video.publishedAt)
        default: .null
        }
    }
}

/// A `Movie` object.
final class MovieNode: HostObject, TypeNameProviding {
    static let properties: Set<String> = [
        "id", "title", "originalTitle", "overview", "releaseDate", "voteAverage", "voteCount",
    ]
    let movie: Movie
    /// The `id` field's value.
    let globalID: String
    var typeName: String { "Movie" }

    init(movie: Movie) {
        self.movie = movie
        globalID = GlobalID(.tmdb, .movie, movie.id).description
    }

    func property(_ name: String) -> FieldValue {
        if movie.missingFields.contains(name) { return missingField(name, of: typeName, id: movie.id, movie.source) }
        return switch name {
        case "id": .json(.string(globalID))
        case "title": .json(.string(movie.title))
        case "originalTitle": json(movie.originalTitle)
        case "overview": json(movie.overview)
        case "releaseDate": json(movie.releaseDate)
        case "voteAverage": movie.voteAverage.map { .json(.double($0)) } ?? .null
        case "voteCount": movie.voteCount.map { .json(.int($0)) } ?? .null
        default: .null
        }
    }
}

/// The property names each object type's host value serves, by schema type name.
let modelProperties: [String: Set<String>] = [
    "Artist": ArtistNode.properties, "Album": AlbumNode.properties, "Track": TrackNode.properties,
    "Video": VideoNode.properties, "Movie": MovieNode.properties,
]

/// A non-null field the upstream record lacks (`missingFields`): never a made-up value, but an
/// error at the field's path, `UPSTREAM_BAD_RESPONSE` with `service` and the field's
/// coordinate, so the executor nulls the nearest nullable position around it (spec §6.4.4).
/// Given as a pending value because a property read cannot throw; it fails when awaited.
private func missingField(_ name: String, of typeName: String, id: String, _ service: UpstreamService) -> FieldValue {
    let error = missingFieldError(name, of: typeName, id: id, service)
    return .pending(PendingValue { throw error })
}

/// The `UPSTREAM_BAD_RESPONSE` error of `missingField`, for resolvers that need the field to
/// fetch (a track's video search needs its title) and so fail without sending a request.
func missingFieldError(_ name: String, of typeName: String, id: String, _ service: UpstreamService) -> GraphQLError {
    let type = typeName.lowercased()
    let record = id.isEmpty ? ("aeiou".contains(type.prefix(1)) ? "an " : "a ") + type : "\(type) \(id)"
    return GraphQLError(
        "\(service) sent \(record) without its \(name), a non-null field or one others come from; "
            + "it is not made up, so the field is null where the schema allows.",
        extensions: JSONObject([
            ("code", .string("UPSTREAM_BAD_RESPONSE")), ("service", .string(service.rawValue)),
            ("field", .string("\(typeName).\(name)")),
        ]))
}

private func json(_ text: String?) -> FieldValue {
    text.map { .json(.string($0)) } ?? .null
}
