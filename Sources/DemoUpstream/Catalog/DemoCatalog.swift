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

  init(chinook: ChinookCatalog) {
    self.chinook = chinook
    videos = DerivedMedia.videos(chinook)
    videoIndexById = Dictionary(videos.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    movies = DerivedMedia.movies(chinook)
    movieIndexById = Dictionary(movies.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
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

/// Search ranking shared by every route, as the real services rank: an exact
/// (case-insensitive) name match first, then names starting with the term, then names
/// containing it, then items whose other fields contain every word of the term.
enum SearchRanking {
  /// The rank of an item for `term` (lower is better), or nil when it does not match.
  /// `name` is the primary field, `others` secondary ones (artist name, album title…).
  static func rank(term: String, name: String, others: [String] = []) -> Int? {
    let t = term.lowercased().trimmingCharacters(in: .whitespaces)
    guard !t.isEmpty else { return nil }
    let n = name.lowercased()
    if n == t { return 0 }
    if n.hasPrefix(t) { return 1 }
    if n.contains(t) { return 2 }
    let lowerOthers = others.map { $0.lowercased() }
    if lowerOthers.contains(t) { return 3 }
    if lowerOthers.contains(where: { $0.contains(t) }) { return 4 }
    let words = t.split(whereSeparator: { $0.isWhitespace })
    let haystack = ([n] + lowerOthers).joined(separator: " ")
    return words.allSatisfy { haystack.contains($0) } ? 5 : nil
  }

  /// `items` that match, best rank first, ties in the given order.
  static func ranked<T>(_ items: [T], term: String, key: (T) -> (name: String, others: [String])) -> [T] {
    items.enumerated().compactMap { index, item -> (Int, Int, T)? in
      let k = key(item)
      return rank(term: term, name: k.name, others: k.others).map { ($0, index, item) }
    }
    .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
    .map(\.2)
  }
}
