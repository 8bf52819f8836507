import DataLoader
import GraphQL

/// The DataLoaders of one GraphQL request: one per upstream read, each batched to its API's
/// limit on ids per request (iTunes lookup 200, Apple Music albums 100 / artists 25 / songs 300,
/// YouTube videos 50) or, for searches and the one-id-per-request reads (TMDB movie details,
/// Rakuten releases by JAN), sending its distinct keys concurrently (`searchConcurrency` at
/// a time). They
/// share the request's `BatchScheduler`, so each query level dispatches together.
///
/// Each loader is made the first time a resolver asks for it: a request reads one or two of
/// the 23, and making them all up front was a third of the CPU of a `{ __typename }` request.
/// Two resolvers asking at once may both make one; the first stored wins, before any key is
/// loaded on either.
final class RequestLoaders: Sendable {
    private let makeProviders: @Sendable () -> Providers
    private let scheduler: BatchScheduler
    private let searchConcurrency: Int

    /// `makeProviders` runs when the first loader is made, at most a few times (concurrent
    /// first loaders), never for a request that reads no upstream (`{ __typename }`): five
    /// providers over five boxed transports were a tenth of such a request's CPU.
    init(
        providers makeProviders: @escaping @Sendable () -> Providers, scheduler: BatchScheduler, searchConcurrency: Int
    ) {
        self.makeProviders = makeProviders
        self.scheduler = scheduler
        self.searchConcurrency = searchConcurrency
    }

    private var providers: Providers {
        if let made = _providers.load() { return made.providers }
        return _providers.storeIfNil(ProvidersBox(makeProviders())).providers
    }

    var itunesArtistSearch: FieldLoader<SearchKey, [Artist]> {
        if let made = _itunesArtistSearch.load() { return made }
        let itunes = providers.itunes
        let n = searchConcurrency
        return _itunesArtistSearch.storeIfNil(
            loader("itunes.searchArtists", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    try await itunes.searchArtists(term: key.term, limit: key.limit)
                }
            })
    }

    var itunesAlbumSearch: FieldLoader<SearchKey, [Album]> {
        if let made = _itunesAlbumSearch.load() { return made }
        let itunes = providers.itunes
        let n = searchConcurrency
        return _itunesAlbumSearch.storeIfNil(
            loader("itunes.searchAlbums", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    try await itunes.searchAlbums(term: key.term, limit: key.limit)
                }
            })
    }

    var itunesMusicVideoSearch: FieldLoader<SearchKey, [Video]> {
        if let made = _itunesMusicVideoSearch.load() { return made }
        let itunes = providers.itunes
        let n = searchConcurrency
        return _itunesMusicVideoSearch.storeIfNil(
            loader("itunes.searchMusicVideos", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    try await itunes.searchMusicVideos(term: key.term, limit: key.limit)
                }
            })
    }

    var itunesArtists: FieldLoader<String, Artist?> {
        if let made = _itunesArtists.load() { return made }
        let itunes = providers.itunes
        return _itunesArtists.storeIfNil(
            lookupLoader("itunes.lookupArtists", max: ITunesProvider.maxLookupIds, scheduler: scheduler) {
                ids in try await itunes.lookupArtists(ids: ids)
            })
    }

    var itunesAlbums: FieldLoader<String, Album?> {
        if let made = _itunesAlbums.load() { return made }
        let itunes = providers.itunes
        return _itunesAlbums.storeIfNil(
            lookupLoader("itunes.lookupAlbums", max: ITunesProvider.maxLookupIds, scheduler: scheduler) {
                ids in try await itunes.lookupAlbums(ids: ids)
            })
    }

    var itunesTracks: FieldLoader<String, Track?> {
        if let made = _itunesTracks.load() { return made }
        let itunes = providers.itunes
        return _itunesTracks.storeIfNil(
            lookupLoader("itunes.lookupTracks", max: ITunesProvider.maxLookupIds, scheduler: scheduler) {
                ids in
                let call = UpstreamCall(service: .iTunes, transport: itunes.transport, secrets: [])
                return try await call.fetch(itunes.lookupURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                    IdBatches.keyed(
                        try ITunesProvider.decodeTracks(status: status, headers: headers, body: body), by: \.id)
                }
            })
    }

    var itunesMusicVideos: FieldLoader<String, Video?> {
        if let made = _itunesMusicVideos.load() { return made }
        let itunes = providers.itunes
        return _itunesMusicVideos.storeIfNil(
            lookupLoader(
                "itunes.lookupMusicVideos", max: ITunesProvider.maxLookupIds, scheduler: scheduler
            ) {
                ids in
                let call = UpstreamCall(service: .iTunes, transport: itunes.transport, secrets: [])
                return try await call.fetch(itunes.lookupURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                    IdBatches.keyed(
                        try ITunesProvider.decodeMusicVideos(status: status, headers: headers, body: body), by: \.id)
                }
            })
    }

    var itunesAlbumsByArtist: FieldLoader<String, [Album]> {
        if let made = _itunesAlbumsByArtist.load() { return made }
        let itunes = providers.itunes
        return _itunesAlbumsByArtist.storeIfNil(
            lookupLoader(
                "itunes.albumsByArtist", max: ITunesProvider.maxLookupIds, scheduler: scheduler, answer: { $0 ?? [] }
            ) { ids in try await itunes.lookupAlbums(artistIds: ids) })
    }

    var itunesTracksByAlbum: FieldLoader<String, [Track]> {
        if let made = _itunesTracksByAlbum.load() { return made }
        let itunes = providers.itunes
        return _itunesTracksByAlbum.storeIfNil(
            lookupLoader(
                "itunes.tracksByAlbum", max: ITunesProvider.maxLookupIds, scheduler: scheduler, answer: { $0 ?? [] }
            ) { ids in try await itunes.lookupTracks(albumIds: ids) })
    }

    var appleMusicArtistSearch: FieldLoader<SearchKey, [Artist]> {
        if let made = _appleMusicArtistSearch.load() { return made }
        let appleMusic = providers.appleMusic
        let n = searchConcurrency
        return _appleMusicArtistSearch.storeIfNil(
            loader("applemusic.searchArtists", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    try await appleMusic.searchArtists(term: key.term, limit: key.limit).items
                }
            })
    }

    var appleMusicAlbumSearch: FieldLoader<SearchKey, [Album]> {
        if let made = _appleMusicAlbumSearch.load() { return made }
        let appleMusic = providers.appleMusic
        let n = searchConcurrency
        return _appleMusicAlbumSearch.storeIfNil(
            loader("applemusic.searchAlbums", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    try await appleMusic.searchAlbums(term: key.term, limit: key.limit).items
                }
            })
    }

    var appleMusicAlbums: FieldLoader<String, AlbumWithTracks?> {
        if let made = _appleMusicAlbums.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicAlbums.storeIfNil(
            lookupLoader("applemusic.albums", max: AppleMusicProvider.maxAlbumIds, scheduler: scheduler) { ids in
                try await appleMusic.albums(ids: ids)
            })
    }

    var appleMusicArtists: FieldLoader<String, Artist?> {
        if let made = _appleMusicArtists.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicArtists.storeIfNil(
            lookupLoader(
                "applemusic.artists", max: AppleMusicProvider.maxArtistIds, scheduler: scheduler
            ) {
                ids in try await appleMusic.artists(ids: ids)
            })
    }

    var appleMusicSongs: FieldLoader<String, Track?> {
        if let made = _appleMusicSongs.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicSongs.storeIfNil(
            lookupLoader("applemusic.songs", max: AppleMusicProvider.maxSongIds, scheduler: scheduler) {
                ids in try await appleMusic.songs(ids: ids)
            })
    }

    var appleMusicArtistAlbums: FieldLoader<String, [Album]> {
        if let made = _appleMusicArtistAlbums.load() { return made }
        let appleMusic = providers.appleMusic
        let n = searchConcurrency
        return _appleMusicArtistAlbums.storeIfNil(
            loader("applemusic.artistAlbums", scheduler: scheduler) { ids in
                await fetchEach(ids, limit: n) { id throws(UpstreamError) in
                    try await appleMusic.artistAlbums(artistId: id).items
                }
            })
    }

    /// `option` is `artistName` or `title`: which field the term searches.
    var rakutenSearch: FieldLoader<SearchKey, [AlbumWithTracks]> {
        if let made = _rakutenSearch.load() { return made }
        let rakuten = providers.rakuten
        let n = searchConcurrency
        return _rakutenSearch.storeIfNil(
            loader("rakuten.search", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    let byArtist = key.option == "artistName"
                    return try await rakuten.search(
                        artistName: byArtist ? key.term : nil, title: byArtist ? nil : key.term, hits: key.limit
                    ).items
                }
            })
    }

    /// Keyed by JAN code.
    var rakutenReleases: FieldLoader<String, AlbumWithTracks?> {
        if let made = _rakutenReleases.load() { return made }
        let rakuten = providers.rakuten
        let n = searchConcurrency
        return _rakutenReleases.storeIfNil(
            loader("rakuten.releases", scheduler: scheduler) { jans in
                await fetchEach(jans, limit: n) { jan throws(UpstreamError) in try await rakuten.release(jan: jan) }
            })
    }

    /// `option` is the duration filter (`any`, `short`, `medium`, `long`).
    var youTubeSearch: FieldLoader<SearchKey, [Video]> {
        if let made = _youTubeSearch.load() { return made }
        let youTube = providers.youTube
        let n = searchConcurrency
        return _youTubeSearch.storeIfNil(
            loader("youtube.search", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    let duration = YouTubeProvider.VideoDuration(rawValue: key.option)
                    return try await youTube.search(
                        query: key.term, maxResults: key.limit, duration: duration == .any ? nil : duration
                    )
                    .items
                }
            })
    }

    var youTubeVideos: FieldLoader<String, Video?> {
        if let made = _youTubeVideos.load() { return made }
        let youTube = providers.youTube
        return _youTubeVideos.storeIfNil(
            lookupLoader("youtube.videos", max: YouTubeProvider.maxVideoIds, scheduler: scheduler) { ids in
                try await youTube.videos(ids: ids)
            })
    }

    var tmdbSearch: FieldLoader<SearchKey, [Movie]> {
        if let made = _tmdbSearch.load() { return made }
        let tmdb = providers.tmdb
        let n = searchConcurrency
        return _tmdbSearch.storeIfNil(
            loader("tmdb.searchMovies", scheduler: scheduler) { keys in
                await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                    try await tmdb.searchMovies(query: key.term).items
                }
            })
    }

    var tmdbMovies: FieldLoader<String, Movie?> {
        if let made = _tmdbMovies.load() { return made }
        let tmdb = providers.tmdb
        let n = searchConcurrency
        return _tmdbMovies.storeIfNil(
            loader("tmdb.movies", scheduler: scheduler) { ids in
                await fetchEach(ids, limit: n) { id throws(UpstreamError) in try await tmdb.movie(id: id) }
            })
    }

    var tmdbMovieVideos: FieldLoader<String, [Video]> {
        if let made = _tmdbMovieVideos.load() { return made }
        let tmdb = providers.tmdb
        let n = searchConcurrency
        return _tmdbMovieVideos.storeIfNil(
            loader("tmdb.movieVideos", scheduler: scheduler) { ids in
                await fetchEach(ids, limit: n) { id throws(UpstreamError) in try await tmdb.movieVideos(movieId: id) }
            })
    }

    private let _providers = LazyReference<ProvidersBox>()
    private let _itunesArtistSearch = LazyReference<FieldLoader<SearchKey, [Artist]>>()
    private let _itunesAlbumSearch = LazyReference<FieldLoader<SearchKey, [Album]>>()
    private let _itunesMusicVideoSearch = LazyReference<FieldLoader<SearchKey, [Video]>>()
    private let _itunesArtists = LazyReference<FieldLoader<String, Artist?>>()
    private let _itunesAlbums = LazyReference<FieldLoader<String, Album?>>()
    private let _itunesTracks = LazyReference<FieldLoader<String, Track?>>()
    private let _itunesMusicVideos = LazyReference<FieldLoader<String, Video?>>()
    private let _itunesAlbumsByArtist = LazyReference<FieldLoader<String, [Album]>>()
    private let _itunesTracksByAlbum = LazyReference<FieldLoader<String, [Track]>>()
    private let _appleMusicArtistSearch = LazyReference<FieldLoader<SearchKey, [Artist]>>()
    private let _appleMusicAlbumSearch = LazyReference<FieldLoader<SearchKey, [Album]>>()
    private let _appleMusicAlbums = LazyReference<FieldLoader<String, AlbumWithTracks?>>()
    private let _appleMusicArtists = LazyReference<FieldLoader<String, Artist?>>()
    private let _appleMusicSongs = LazyReference<FieldLoader<String, Track?>>()
    private let _appleMusicArtistAlbums = LazyReference<FieldLoader<String, [Album]>>()
    private let _rakutenSearch = LazyReference<FieldLoader<SearchKey, [AlbumWithTracks]>>()
    private let _rakutenReleases = LazyReference<FieldLoader<String, AlbumWithTracks?>>()
    private let _youTubeSearch = LazyReference<FieldLoader<SearchKey, [Video]>>()
    private let _youTubeVideos = LazyReference<FieldLoader<String, Video?>>()
    private let _tmdbSearch = LazyReference<FieldLoader<SearchKey, [Movie]>>()
    private let _tmdbMovies = LazyReference<FieldLoader<String, Movie?>>()
    private let _tmdbMovieVideos = LazyReference<FieldLoader<String, [Video]>>()
}

/// A keyed loader whose options are constants of this file: an invalid one is a programming
/// error, caught by the first request of any test.
private func loader<Key: Hashable & Sendable, Value: Sendable>(
    _ name: String, max: Int = .max, scheduler: BatchScheduler,
    _ batch: @escaping DataLoader<Key, Value>.KeyedBatchFunction
) -> FieldLoader<Key, Value> {
    fieldLoader { () throws(DataLoaderError) in
        try DataLoader(name: name, maxBatchSize: max, scheduler: scheduler, batch: batch)
    }
}

/// A loader over a multi-id endpoint: ids are sent sorted, so the same set of ids always
/// makes the same URL (and so the same cache key), whatever order the resolvers asked in.
/// `fetch` answers by id; `answer` makes a key's value of what was found for it (nil for an
/// id the upstream left out). The batch answers the DataLoader's keys in their order (an
/// ordered batch), straight from the found ids: no second dictionary of per-key results for
/// every batch of every request.
private func lookupLoader<Found: Sendable, Value: Sendable>(
    _ name: String, max: Int, scheduler: BatchScheduler, answer: @escaping @Sendable (Found?) -> Value,
    _ fetch: @escaping @Sendable ([String]) async throws -> [String: Found]
) -> FieldLoader<String, Value> {
    fieldLoader { () throws(DataLoaderError) in
        try DataLoader(
            name: name, maxBatchSize: max, scheduler: scheduler,
            orderedBatch: { ids in
                let found = try await fetch(ids.sorted())
                return ids.map { .success(answer(found[$0])) }
            })
    }
}

/// `lookupLoader` for a value that is nil when the upstream does not know the id.
private func lookupLoader<Found: Sendable>(
    _ name: String, max: Int, scheduler: BatchScheduler,
    _ fetch: @escaping @Sendable ([String]) async throws -> [String: Found]
) -> FieldLoader<String, Found?> {
    lookupLoader(name, max: max, scheduler: scheduler, answer: { $0 }, fetch)
}

private func fieldLoader<Key: Hashable & Sendable, Value: Sendable>(
    _ make: () throws(DataLoaderError) -> DataLoader<Key, Value>
) -> FieldLoader<Key, Value> {
    do {
        return FieldLoader(try make())
    } catch {
        preconditionFailure("\(error)")
    }
}

/// `Providers` made once per request, for `LazyReference` (which holds objects).
private final class ProvidersBox: Sendable {
    let providers: Providers
    init(_ providers: Providers) { self.providers = providers }
}

/// The five providers of one request, each over that request's counting, caching transport.
struct Providers: Sendable {
    var itunes: ITunesProvider
    var appleMusic: AppleMusicProvider
    var rakuten: RakutenProvider
    var youTube: YouTubeProvider
    var tmdb: TMDBProvider
}
