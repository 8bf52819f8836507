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
    /// Tracks and videos, the two long lists (~3,500 and ~10,000), are indexed: the gateway
    /// sends them searches by the hundred (one YouTube search per distinct track).
    let trackIndex: SearchIndex<ChinookCatalog.Track>
    var trackEntries: [SearchEntry<ChinookCatalog.Track>] { trackIndex.entries }
    let musicVideoTrackEntries: [SearchEntry<ChinookCatalog.Track>]
    let videoIndex: SearchIndex<DemoVideo>
    /// URL slugs by Chinook artist and album id, made once: a 213-track lookup spent a third
    /// of its time re-deriving them for every record.
    let artistSlugs: [Int: String]
    let albumSlugs: [Int: String]
    let movieEntries: [SearchEntry<DemoMovie>]

    init(chinook: ChinookCatalog) {
        self.chinook = chinook
        videos = DerivedMedia.videos(chinook)
        videoIndexById = Dictionary(videos.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        movies = DerivedMedia.movies(chinook)
        movieIndexById = Dictionary(movies.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })

        let artistKey = Dictionary(chinook.artists.map { ($0.id, SearchKey($0.name)) }, uniquingKeysWith: { a, _ in a })
        let albumKey = Dictionary(chinook.albums.map { ($0.id, SearchKey($0.title)) }, uniquingKeysWith: { a, _ in a })
        let none = SearchKey("")
        func artistOf(_ albumId: Int) -> SearchKey {
            chinook.albumById[albumId].flatMap { artistKey[$0.artistId] } ?? none
        }
        artistEntries = chinook.artists.map { SearchEntry(item: $0, name: artistKey[$0.id] ?? none, others: []) }
        albumEntries = chinook.albums.map {
            SearchEntry(item: $0, name: albumKey[$0.id] ?? none, others: [artistKey[$0.artistId] ?? none])
        }
        albumByArtistEntries = chinook.albums.map {
            SearchEntry(item: $0, name: artistKey[$0.artistId] ?? none, others: [])
        }
        let trackEntries = chinook.tracks.map {
            SearchEntry(
                item: $0, name: SearchKey($0.name), others: [artistOf($0.albumId), albumKey[$0.albumId] ?? none])
        }
        trackIndex = SearchIndex(trackEntries)
        musicVideoTrackEntries = trackEntries.filter { Self.hasMusicVideo(chinookTrackId: $0.item.id) }
            .map { SearchEntry(item: $0.item, name: $0.name, others: [$0.others.first ?? none]) }
        videoIndex = SearchIndex(videos.map { SearchEntry(item: $0, name: $0.title, others: [$0.channelTitle]) })
        artistSlugs = Dictionary(
            chinook.artists.map { ($0.id, DemoIDs.slug($0.name)) }, uniquingKeysWith: { a, _ in a })
        albumSlugs = Dictionary(chinook.albums.map { ($0.id, DemoIDs.slug($0.title)) }, uniquingKeysWith: { a, _ in a })
        movieEntries = movies.map { SearchEntry(item: $0, name: $0.title, others: [$0.originalTitle]) }
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

/// An item with its search fields as search keys.
struct SearchEntry<Item: Sendable>: Sendable {
    let item: Item
    let name: SearchKey
    let others: [SearchKey]

    init(item: Item, name: String, others: [String]) {
        self.item = item
        self.name = SearchKey(name)
        self.others = others.map(SearchKey.init)
    }

    init(item: Item, name: SearchKey, others: [SearchKey]) {
        self.item = item
        self.name = name
        self.others = others
    }
}

/// Text prepared for matching: lower-cased, composed to NFC, as UTF-8 bytes, so NFC and
/// NFD spellings match and comparisons are byte scans, fast even in debug builds.
struct SearchKey: Sendable, Equatable {
    let bytes: [UInt8]

    init(_ text: String) {
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (most of the catalog): lower-case bytewise; Foundation's normalisation
            // is what made building the keys slow.
            bytes = utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        } else {
            bytes = Array(text.lowercased().precomposedStringWithCanonicalMapping.utf8)
        }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    var isEmpty: Bool { bytes.isEmpty }

    func hasPrefix(_ other: SearchKey) -> Bool { bytes.starts(with: other.bytes) }

    func contains(_ other: SearchKey) -> Bool {
        guard !other.bytes.isEmpty else { return true }
        guard other.bytes.count <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { hay in
            other.bytes.withUnsafeBufferPointer { needle in
                guard let h = hay.baseAddress, let n = needle.baseAddress else { return false }
                let last = hay.count - needle.count
                var offset = 0
                // memchr finds each candidate first byte, memcmp checks the rest: libc speed even
                // in debug builds.
                while offset <= last {
                    guard let hit = memchr(h + offset, Int32(n.pointee), last - offset + 1) else { return false }
                    let i = h.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if memcmp(h + i, n, needle.count) == 0 { return true }
                    offset = i + 1
                }
                return false
            }
        }
    }

    /// The key split at ASCII blanks.
    var words: [SearchKey] {
        bytes.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { SearchKey(bytes: Array($0)) }
    }

    /// The key without leading and trailing ASCII blanks.
    var trimmed: SearchKey {
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else { return SearchKey(bytes: []) }
        return SearchKey(bytes: Array(bytes[first...last]))
    }
}

/// Search ranking shared by every route, as the real services rank: an exact
/// (case-insensitive) name match first, then names starting with the term, then names
/// containing it, then items whose other fields contain every word of the term.
enum SearchRanking {
    /// The rank of an item for `term` (lower is better), or nil when it does not match.
    /// `name` is the primary field, `others` secondary ones (artist name, album title…).
    static func rank(term: String, name: String, others: [String] = []) -> Int? {
        rank(term: SearchKey(term).trimmed, entry: SearchEntry(item: 0, name: name, others: others))
    }

    /// The rank of `entry` for an already prepared, trimmed `term` (`words`: its words, when
    /// the caller has them already).
    static func rank<T>(term t: SearchKey, words: [SearchKey]? = nil, entry: SearchEntry<T>) -> Int? {
        guard !t.isEmpty else { return nil }
        let n = entry.name
        if n == t { return 0 }
        if n.hasPrefix(t) { return 1 }
        if n.contains(t) { return 2 }
        if entry.others.contains(t) { return 3 }
        if entry.others.contains(where: { $0.contains(t) }) { return 4 }
        let words = words ?? t.words
        guard words.count > 1 else { return nil }
        return words.allSatisfy { word in n.contains(word) || entry.others.contains { $0.contains(word) } } ? 5 : nil
    }

    /// The items of matching `entries`, best rank first, ties in the given order.
    static func ranked<T>(_ entries: [SearchEntry<T>], term: String) -> [T] {
        let t = SearchKey(term).trimmed
        guard !t.isEmpty else { return [] }
        let words = t.words
        return entries.enumerated().compactMap { index, entry -> (Int, Int, T)? in
            rank(term: t, words: words, entry: entry).map { ($0, index, entry.item) }
        }
        .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        .map(\.2)
    }
}
