import Foundation

/// The bundled Chinook catalog (artists, albums, tracks, genres), indexed for the routes.
///
/// Tracks of an album are in Chinook id order, which is their track order (track numbers
/// are 1-based positions; Chinook has one disc per album).
struct ChinookCatalog: Sendable {
    struct Genre: Decodable, Sendable {
        var id: Int
        var name: String
    }
    struct Artist: Decodable, Sendable {
        var id: Int
        var name: String
    }
    struct Album: Decodable, Sendable {
        var id: Int
        var artistId: Int
        var title: String
    }
    struct Track: Decodable, Sendable {
        var id: Int
        var albumId: Int
        var name: String
        var composer: String?
        var genre: String?
        var milliseconds: Int
        var unitPrice: Double
    }
    private struct File: Decodable {
        var genres: [Genre]
        var artists: [Artist]
        var albums: [Album]
        var tracks: [Track]
    }

    enum LoadError: Error, CustomStringConvertible {
        case missingResource
        case invalid(String)
        var description: String {
            switch self {
            case .missingResource: "chinook-catalog.json is missing from the DemoUpstream bundle"
            case .invalid(let why): "chinook-catalog.json is invalid: \(why)"
            }
        }
    }

    let genres: [Genre]
    let artists: [Artist]
    let albums: [Album]
    let tracks: [Track]
    let artistById: [Int: Artist]
    let albumById: [Int: Album]
    let trackById: [Int: Track]
    let albumsByArtist: [Int: [Album]]
    let tracksByAlbum: [Int: [Track]]
    let genreIdByName: [String: Int]
    /// Most frequent track genre per artist (ties: alphabetical), "Rock" when unknown.
    let primaryGenreByArtist: [Int: String]

    /// Loads `Resources/chinook-catalog.json` from the module bundle.
    static func bundled() throws -> ChinookCatalog {
        guard
            let url = Bundle.module.url(
                forResource: "chinook-catalog", withExtension: "json", subdirectory: "Resources"),
            let data = FileManager.default.contents(atPath: url.path)
        else { throw LoadError.missingResource }
        return try ChinookCatalog(json: data)
    }

    init(json: Data) throws {
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw LoadError.invalid(String(describing: error))
        }
        genres = file.genres
        artists = file.artists.sorted { $0.id < $1.id }
        albums = file.albums.sorted { $0.id < $1.id }
        tracks = file.tracks.sorted { $0.id < $1.id }
        artistById = Dictionary(artists.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        albumById = Dictionary(albums.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        trackById = Dictionary(tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        albumsByArtist = Dictionary(grouping: albums, by: \.artistId)
        tracksByAlbum = Dictionary(grouping: tracks, by: \.albumId)
        genreIdByName = Dictionary(genres.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
        var counts: [Int: [String: Int]] = [:]
        for track in tracks {
            guard let genre = track.genre, let album = albumById[track.albumId] else { continue }
            counts[album.artistId, default: [:]][genre, default: 0] += 1
        }
        primaryGenreByArtist = counts.mapValues { byGenre in
            byGenre.max { a, b in a.value != b.value ? a.value < b.value : a.key > b.key }?.key ?? "Rock"
        }
    }

    func primaryGenre(artistId: Int) -> String { primaryGenreByArtist[artistId] ?? "Rock" }
}
