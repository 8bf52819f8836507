import Foundation

/// A YouTube video derived from a Chinook track. Text is plain; the search route escapes it.
struct DemoVideo: Sendable {
    var id: String
    var chinookTrackId: Int
    var title: String
    var description: String
    var channelTitle: String
    var channelId: String
    var publishedAt: String
    var durationSeconds: Int
    var viewCount: Int
    var likeCount: Int
    var commentCount: Int
}

/// A TMDB movie derived from a Chinook artist or album.
struct DemoMovie: Sendable {
    struct Clip: Sendable {
        var key: String
        var name: String
        var type: String
        var publishedAt: String
        var id: String
    }
    var id: Int
    var title: String
    var originalTitle: String
    var originalLanguage: String
    var overview: String
    /// `YYYY-MM-DD`, or `""` as TMDB sends for unknown dates.
    var releaseDate: String
    var posterPath: String?
    var backdropPath: String?
    var genreIds: [Int]
    var popularity: String
    var voteAverage: String
    var voteCount: Int
    var clips: [Clip]
}

/// Deterministic derivation of videos and movies from the catalog: the same catalog gives
/// the same ids, titles and numbers on every start.
enum DerivedMedia {
    /// 1–5 videos per track. Some titles carry `'` and `&` so the search route's HTML
    /// escaping (`&#39;`, `&amp;`) shows up, as on the real API.
    static func videos(_ catalog: ChinookCatalog) -> [DemoVideo] {
        var result: [DemoVideo] = []
        result.reserveCapacity(catalog.tracks.count * 3)
        for track in catalog.tracks {
            guard let album = catalog.albumById[track.albumId], let artist = catalog.artistById[album.artistId] else {
                continue
            }
            let count = 1 + Int(DemoIDs.mix(UInt64(track.id)) % 5)
            for variant in 0..<count {
                let seed = UInt64(track.id) << 8 | UInt64(variant)
                let r = DemoIDs.mix(seed ^ 0xA5A5)
                let (title, channel): (String, String) =
                    switch variant {
                    case 0: ("\(artist.name) - \(track.name) (Official Video)", artist.name)
                    case 1: ("\(artist.name) - \(track.name) (Live)", "Live Archive")
                    case 2: ("\(track.name) - \(artist.name) | Lyric Video", "Lyrics & Co")
                    case 3: ("\(artist.name) - \(track.name) [Fan's Cut]", "Fan's Corner")
                    default: ("\(track.name) (Rock & Roll Cover)", "Cover Nation")
                    }
                let seconds = track.milliseconds / 1000 + (variant == 1 ? 30 : variant * 3)
                result.append(
                    DemoVideo(
                        id: DemoIDs.videoId(seed), chinookTrackId: track.id, title: title,
                        description: "\"\(track.name)\" by \(artist.name), from the album \"\(album.title)\".",
                        channelTitle: channel,
                        channelId: "UC" + DemoIDs.videoId(UInt64(variant) << 32 | UInt64(artist.id)) + "AAAAAAAAAAA",
                        publishedAt: timestamp(r), durationSeconds: max(seconds, 1), viewCount: Int(r % 50_000_000),
                        likeCount: Int(r % 400_000), commentCount: Int((r >> 20) % 20_000)))
            }
        }
        return result
    }

    /// Movies: a documentary for every third artist (ids 1, 4, 7, …: AC/DC, Guns N' Roses have
    /// one) and a film named after every fourth album. Some have no poster (`poster_path`
    /// null) or no release date (`""`), like real TMDB results.
    static func movies(_ catalog: ChinookCatalog) -> [DemoMovie] {
        var result: [DemoMovie] = []
        let languages = ["en", "en", "pt", "de", "fr", "ja"]
        func add(title: String, overview: String, seed: UInt64) {
            let index = result.count + 1
            let id = DemoIDs.movie(index)
            let r = DemoIDs.mix(seed)
            let language = languages[Int(r % UInt64(languages.count))]
            let clipCount = Int((r >> 8) % 3) + 1
            let clips = (0..<clipCount).map { n in
                DemoMovie.Clip(
                    key: DemoIDs.videoId(UInt64(id) << 4 | UInt64(n)),
                    name: ["Official Trailer", "Teaser", "Clip: \(title)"][n],
                    type: ["Trailer", "Teaser", "Clip"][n], publishedAt: timestamp(r >> UInt64(n)),
                    id: String(
                        format: "%016llx%08llx", DemoIDs.mix(UInt64(id) &+ UInt64(n)),
                        DemoIDs.mix(UInt64(n) &+ 7) & 0xFFFF_FFFF))
            }
            result.append(
                DemoMovie(
                    id: id, title: title, originalTitle: language == "ja" ? "映画「\(title)」" : title,
                    originalLanguage: language,
                    overview: overview, releaseDate: id % 7 == 0 ? "" : String(timestamp(r).prefix(10)),
                    posterPath: id % 5 == 0 ? nil : "/" + DemoIDs.videoId(r) + "Poster.jpg",
                    backdropPath: id % 3 == 0 ? nil : "/" + DemoIDs.videoId(r >> 3) + "Back.jpg",
                    genreIds: [[99, 10402], [18, 10402], [10402]][Int(r % 3)],
                    popularity: String(format: "%.3f", Double(r % 90_000) / 1000 + 0.6),
                    voteAverage: String(format: "%.1f", Double(r % 91) / 10), voteCount: Int(r % 5000), clips: clips))
        }
        for artist in catalog.artists where artist.id % 3 == 1 {
            add(
                title: "\(artist.name): The Story",
                overview: "A documentary about \(artist.name), on the road and in the studio.",
                seed: UInt64(artist.id) | 1 << 40)
        }
        for album in catalog.albums where album.id % 4 == 0 {
            let artistName = catalog.artistById[album.artistId]?.name ?? "the band"
            add(
                title: album.title, overview: "A film named after the album by \(artistName).",
                seed: UInt64(album.id) | 2 << 40
            )
        }
        return result
    }

    /// An RFC 3339 UTC timestamp between 2006 and 2025 derived from `r`.
    static func timestamp(_ r: UInt64) -> String {
        let year = 2006 + Int(r % 20)
        let month = 1 + Int((r >> 5) % 12)
        let day = 1 + Int((r >> 9) % 28)
        let hour = Int((r >> 14) % 24)
        let minute = Int((r >> 19) % 60)
        let second = Int((r >> 25) % 60)
        return "\(year)-\(pad2(month))-\(pad2(day))T\(pad2(hour)):\(pad2(minute)):\(pad2(second))Z"
    }

    /// `n` (0–99) with two digits; `String(format:)` made deriving ten thousand videos slow.
    static func pad2(_ n: Int) -> String {
        n < 10 ? "0\(n)" : String(n)
    }
}
