import DataLoader

/// The DataLoaders of one GraphQL request: one per upstream read, each batched to its API's
/// limit on ids per request (iTunes lookup 200, Apple Music albums 100 / artists 25 / songs 300,
/// YouTube videos 50) or, for searches and the one-id-per-request reads (TMDB movie details,
/// Rakuten releases by JAN), sending its distinct keys concurrently (`searchConcurrency` at
/// a time). They
/// share the request's `BatchScheduler`, so each query level dispatches together.
final class RequestLoaders: Sendable {
    let itunesArtistSearch: DataLoader<SearchKey, [Artist]>
    let itunesAlbumSearch: DataLoader<SearchKey, [Album]>
    let itunesMusicVideoSearch: DataLoader<SearchKey, [Video]>
    let itunesArtists: DataLoader<String, Artist?>
    let itunesAlbums: DataLoader<String, Album?>
    let itunesTracks: DataLoader<String, Track?>
    let itunesMusicVideos: DataLoader<String, Video?>
    let itunesAlbumsByArtist: DataLoader<String, [Album]>
    let itunesTracksByAlbum: DataLoader<String, [Track]>
    let appleMusicArtistSearch: DataLoader<SearchKey, [Artist]>
    let appleMusicAlbumSearch: DataLoader<SearchKey, [Album]>
    let appleMusicAlbums: DataLoader<String, AlbumWithTracks?>
    let appleMusicArtists: DataLoader<String, Artist?>
    let appleMusicSongs: DataLoader<String, Track?>
    let appleMusicArtistAlbums: DataLoader<String, [Album]>
    /// `option` is `artistName` or `title`: which field the term searches.
    let rakutenSearch: DataLoader<SearchKey, [AlbumWithTracks]>
    /// Keyed by JAN code.
    let rakutenReleases: DataLoader<String, AlbumWithTracks?>
    /// `option` is the duration filter (`any`, `short`, `medium`, `long`).
    let youTubeSearch: DataLoader<SearchKey, [Video]>
    let youTubeVideos: DataLoader<String, Video?>
    let tmdbSearch: DataLoader<SearchKey, [Movie]>
    let tmdbMovieVideos: DataLoader<String, [Video]>
    let tmdbMovies: DataLoader<String, Movie?>

    init(providers: Providers, scheduler: BatchScheduler, searchConcurrency: Int) {
        let n = searchConcurrency
        let itunes = providers.itunes
        let appleMusic = providers.appleMusic
        let rakuten = providers.rakuten
        let youTube = providers.youTube
        let tmdb = providers.tmdb

        itunesArtistSearch = loader("itunes.searchArtists", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                try await itunes.searchArtists(term: key.term, limit: key.limit)
            }
        }
        itunesAlbumSearch = loader("itunes.searchAlbums", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                try await itunes.searchAlbums(term: key.term, limit: key.limit)
            }
        }
        itunesMusicVideoSearch = loader("itunes.searchMusicVideos", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                try await itunes.searchMusicVideos(term: key.term, limit: key.limit)
            }
        }
        itunesArtists = lookupLoader("itunes.lookupArtists", max: ITunesProvider.maxLookupIds, scheduler: scheduler) {
            ids in
            answerAll(ids, from: try await itunes.lookupArtists(ids: ids))
        }
        itunesAlbums = lookupLoader("itunes.lookupAlbums", max: ITunesProvider.maxLookupIds, scheduler: scheduler) {
            ids in
            answerAll(ids, from: try await itunes.lookupAlbums(ids: ids))
        }
        itunesTracks = lookupLoader("itunes.lookupTracks", max: ITunesProvider.maxLookupIds, scheduler: scheduler) {
            ids in
            let call = UpstreamCall(service: .iTunes, transport: itunes.transport, secrets: [])
            let tracks = try await call.fetch(itunes.lookupURL(ids: ids), decode: ITunesProvider.decodeTracks)
            return answerAll(ids, from: Dictionary(tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        itunesMusicVideos = lookupLoader(
            "itunes.lookupMusicVideos", max: ITunesProvider.maxLookupIds, scheduler: scheduler
        ) {
            ids in
            let call = UpstreamCall(service: .iTunes, transport: itunes.transport, secrets: [])
            let videos = try await call.fetch(itunes.lookupURL(ids: ids), decode: ITunesProvider.decodeMusicVideos)
            return answerAll(ids, from: Dictionary(videos.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        itunesAlbumsByArtist = lookupLoader(
            "itunes.albumsByArtist", max: ITunesProvider.maxLookupIds, scheduler: scheduler
        ) { ids in
            let found = try await itunes.lookupAlbums(artistIds: ids)
            return Dictionary(uniqueKeysWithValues: ids.map { ($0, .success(found[$0] ?? [])) })
        }
        itunesTracksByAlbum = lookupLoader(
            "itunes.tracksByAlbum", max: ITunesProvider.maxLookupIds, scheduler: scheduler
        ) { ids in
            let found = try await itunes.lookupTracks(albumIds: ids)
            return Dictionary(uniqueKeysWithValues: ids.map { ($0, .success(found[$0] ?? [])) })
        }
        appleMusicArtistSearch = loader("applemusic.searchArtists", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                try await appleMusic.searchArtists(term: key.term, limit: key.limit).items
            }
        }
        appleMusicAlbumSearch = loader("applemusic.searchAlbums", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                try await appleMusic.searchAlbums(term: key.term, limit: key.limit).items
            }
        }
        appleMusicAlbums = lookupLoader("applemusic.albums", max: AppleMusicProvider.maxAlbumIds, scheduler: scheduler)
        { ids in
            answerAll(ids, from: try await appleMusic.albums(ids: ids))
        }
        appleMusicArtists = lookupLoader(
            "applemusic.artists", max: AppleMusicProvider.maxArtistIds, scheduler: scheduler
        ) {
            ids in answerAll(ids, from: try await appleMusic.artists(ids: ids))
        }
        appleMusicSongs = lookupLoader("applemusic.songs", max: AppleMusicProvider.maxSongIds, scheduler: scheduler) {
            ids in
            answerAll(ids, from: try await appleMusic.songs(ids: ids))
        }
        appleMusicArtistAlbums = loader("applemusic.artistAlbums", scheduler: scheduler) { ids in
            await fetchEach(ids, limit: n) { id throws(UpstreamError) in
                try await appleMusic.artistAlbums(artistId: id).items
            }
        }
        rakutenSearch = loader("rakuten.search", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                let byArtist = key.option == "artistName"
                return try await rakuten.search(
                    artistName: byArtist ? key.term : nil, title: byArtist ? nil : key.term, hits: key.limit
                ).items
            }
        }
        rakutenReleases = loader("rakuten.releases", scheduler: scheduler) { jans in
            await fetchEach(jans, limit: n) { jan throws(UpstreamError) in try await rakuten.release(jan: jan) }
        }
        youTubeSearch = loader("youtube.search", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                let duration = YouTubeProvider.VideoDuration(rawValue: key.option)
                return try await youTube.search(
                    query: key.term, maxResults: key.limit, duration: duration == .any ? nil : duration
                )
                .items
            }
        }
        youTubeVideos = lookupLoader("youtube.videos", max: YouTubeProvider.maxVideoIds, scheduler: scheduler) { ids in
            answerAll(ids, from: try await youTube.videos(ids: ids))
        }
        tmdbSearch = loader("tmdb.searchMovies", scheduler: scheduler) { keys in
            await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                try await tmdb.searchMovies(query: key.term).items
            }
        }
        tmdbMovies = loader("tmdb.movies", scheduler: scheduler) { ids in
            await fetchEach(ids, limit: n) { id throws(UpstreamError) in try await tmdb.movie(id: id) }
        }
        tmdbMovieVideos = loader("tmdb.movieVideos", scheduler: scheduler) { ids in
            await fetchEach(ids, limit: n) { id throws(UpstreamError) in try await tmdb.movieVideos(movieId: id) }
        }
    }
}

/// A keyed loader whose options are constants of this file: an invalid one is a programming
/// error, caught by the first request of any test.
private func loader<Key: Hashable & Sendable, Value: Sendable>(
    _ name: String, max: Int = .max, scheduler: BatchScheduler,
    _ batch: @escaping DataLoader<Key, Value>.KeyedBatchFunction
) -> DataLoader<Key, Value> {
    do {
        return try DataLoader(name: name, maxBatchSize: max, scheduler: scheduler, batch: batch)
    } catch {
        preconditionFailure("\(error)")
    }
}

/// A loader over a multi-id endpoint: ids are sent sorted, so the same set of ids always
/// makes the same URL (and so the same cache key), whatever order the resolvers asked in.
private func lookupLoader<Value: Sendable>(
    _ name: String, max: Int, scheduler: BatchScheduler,
    _ batch: @escaping @Sendable ([String]) async throws -> [String: Result<Value, any Error>]
) -> DataLoader<String, Value> {
    loader(name, max: max, scheduler: scheduler) { ids in try await batch(ids.sorted()) }
}

/// The five providers of one request, each over that request's counting, caching transport.
struct Providers: Sendable {
    var itunes: ITunesProvider
    var appleMusic: AppleMusicProvider
    var rakuten: RakutenProvider
    var youTube: YouTubeProvider
    var tmdb: TMDBProvider
}
