import Foundation

/// Everything DemoUpstream serves: the Chinook catalog plus the videos and movies derived
/// from it, with the lookups the routes need. Built once per `DemoUpstream`.
struct DemoCatalog: Sendable {
  let chinook: ChinookCatalog
  let videos: [DemoVideo]
  let videoIndexById: [String: Int]
  /// Chinook track ids that have an iTunes music video (every fourth track).
  let movies: [DemoMovie]
  let movieIndexById: [Int: Int]

  // Search keys, lower-cased once here: lower-casing ten thousand titles per request made
  // debug-build searches take a second.
  let artistEntries: [SearchEntry<ChinookCatalog.Artist>]
  /// Albums by title, with their artist's name as secondary field.
  let albumEntries: [SearchEntry<ChinookCatalog.Album>]
  /// Albums by their artist's name only (Rakuten `artistName`).
  let albumByArtistEntries: [SearchEntry<ChinookCatalog.Album>]
  let trackEntries: [SearchEntry<ChinookCatalog.Track>]
  let musicVideoTrackEntries: [SearchEntry<ChinookCatalog.Track>]
  let videoEntries: [SearchEntry<DemoVideo>]
  let movieEntries: [SearchEntry<DemoMovie>]

  init(chinook: ChinookCatalog) {
    self.chinook = chinook
    videos = DerivedMedia.videos(chinook)
    videoIndexById = Dictionary(videos.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    movies = DerivedMedia.movies(chinook)
    movieIndexById = Dictionary(movies.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

    let artistName = Dictionary(chinook.artists.map { ($0.id, $0.name.lowercased()) }, uniquingKeysWith: { a, _ in a })
    let albumTitle = Dictionary(chinook.albums.map { ($0.id, $0.title.lowercased()) }, uniquingKeysWith: { a, _ in a })
    func artistOf(_ albumId: Int) -> String { chinook.albumById[albumId].flatMap { artistName[$0.artistId] } ?? "" }
    artistEntries = chinook.artists.map { SearchEntry(item: $0, name: artistName[$0.id] ?? "", others: []) }
    albumEntries = chinook.albums.map {
      SearchEntry(item: $0, name: albumTitle[$0.id] ?? "", others: [artistName[$0.artistId] ?? ""])
    }
    albumByArtistEntries = chinook.albums.map { SearchEntry(item: $0, name: artistName[$0.artistId] ?? "", others: []) }
    trackEntries = chinook.tracks.map {
      SearchEntry(item: $0, name: $0.name.lowercased(), others: [artistOf($0.albumId), albumTitle[$0.albumId] ?? ""])
    }
    musicVideoTrackEntries = trackEntries.filter { Self.hasMusicVideo(chinookTrackId: $0.item.id) }
      .map { SearchEntry(item: $0.item, name: $0.name, others: [$0.others.first ?? ""]) }
    videoEntries = videos.map {
      SearchEntry(item: $0, name: $0.title.lowercased(), others: [$0.channelTitle.lowercased()])
    }
    movieEntries = movies.map {
      SearchEntry(item: $0, name: $0.title.lowercased(), others: [$0.originalTitle.lowercased()])
    }
  }

  /// Whether a track has an iTunes `music-video` twin.
  static func hasMusicVideo(chinookTrackId: Int) -> Bool { chinookTrackId % 4 == 0 }

  /// Release date of an album: `(year, month, day)`, 1970–2014.
  static func releaseDate(albumId: Int) -> (year: Int, month: Int, day: Int) {
    let r = DemoIDs.mix(UInt64(albumId) | 3 << 40)
    return (1970 + Int(r % 45), 1 + Int((r >> 6) % 12), 1 + Int((r >> 12) % 28))
  }

  static func releaseDateString(albumId: Int) -> String {
    let d = releaseDate(albumId: albumId)
    return "\(d.year)-\(d.month < 10 ? "0" : "")\(d.month)-\(d.day < 10 ? "0" : "")\(d.day)"
  }

  func artist(ofAlbum album: ChinookCatalog.Album) -> ChinookCatalog.Artist {
    chinook.artistById[album.artistId] ?? ChinookCatalog.Artist(id: album.artistId, name: "Unknown Artist")
  }

  func album(ofTrack track: ChinookCatalog.Track) -> ChinookCatalog.Album {
    chinook.albumById[track.albumId] ?? ChinookCatalog.Album(id: track.albumId, artistId: 0, title: "Unknown Album")
  }

  func tracks(ofAlbum albumId: Int) -> [ChinookCatalog.Track] { chinook.tracksByAlbum[albumId] ?? [] }

  /// 1-based position of a track on its album.
  func trackNumber(_ track: ChinookCatalog.Track) -> Int {
    (tracks(ofAlbum: track.albumId).firstIndex { $0.id == track.id } ?? 0) + 1
  }
}

/// An item with its search fields, already lower-cased.
struct SearchEntry<Item: Sendable>: Sendable {
  let item: Item
  let name: String
  let others: [String]
}

/// Search ranking shared by every route, as the real services rank: an exact
/// (case-insensitive) name match first, then names starting with the term, then names
/// containing it, then items whose other fields contain every word of the term.
enum SearchRanking {
  /// The rank of an item for `term` (lower is better), or nil when it does not match.
  /// `name` is the primary field, `others` secondary ones (artist name, album title…), both
  /// lower-cased. Comparison is by Unicode canonical equivalence (Swift `String`), so NFC
  /// and NFD spellings of a name match each other.
  static func rank(term: String, name: String, others: [String] = []) -> Int? {
    let t = term.lowercased().trimmingCharacters(in: .whitespaces)
    guard !t.isEmpty else { return nil }
    return rank(lowerTerm: t, name: name, others: others)
  }

  private static func rank(lowerTerm t: String, name n: String, others: [String]) -> Int? {
    if n == t { return 0 }
    if n.hasPrefix(t) { return 1 }
    if n.contains(t) { return 2 }
    if others.contains(t) { return 3 }
    if others.contains(where: { $0.contains(t) }) { return 4 }
    let words = t.split(whereSeparator: { $0.isWhitespace })
    guard words.count > 1 else { return nil }
    return words.allSatisfy { word in n.contains(word) || others.contains { $0.contains(word) } } ? 5 : nil
  }

  /// The items of matching `entries`, best rank first, ties in the given order.
  static func ranked<T>(_ entries: [SearchEntry<T>], term: String) -> [T] {
    let t = term.lowercased().trimmingCharacters(in: .whitespaces)
    guard !t.isEmpty else { return [] }
    return entries.enumerated().compactMap { index, entry -> (Int, Int, T)? in
      rank(lowerTerm: t, name: entry.name, others: entry.others).map { ($0, index, entry.item) }
    }
    .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    .map(\.2)
  }
}
