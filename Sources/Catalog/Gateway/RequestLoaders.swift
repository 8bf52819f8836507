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
    /// The gateway's memos of loader answers; nil when it caches nothing.
    private let memos: AnswerMemos?
    /// Where memo answers are counted (as cache hits) and noted (for the result's freshness).
    private let counters: UpstreamCounters
    private let freshness: ResultFreshness
    /// The instant this request reads the memos at.
    private let now: ContinuousClock.Instant

    /// `makeProviders` runs when the first loader is made, at most a few times (concurrent
    /// first loaders), never for a request that reads no upstream (`{ __typename }`): five
    /// providers over five boxed transports were a tenth of such a request's CPU.
    init(
        providers makeProviders: @escaping @Sendable () -> Providers, scheduler: BatchScheduler, searchConcurrency: Int,
        memos: AnswerMemos?, counters: UpstreamCounters, freshness: ResultFreshness,
        now: ContinuousClock.Instant = .now
    ) {
        self.makeProviders = makeProviders
        self.scheduler = scheduler
        self.searchConcurrency = searchConcurrency
        self.memos = memos
        self.counters = counters
        self.freshness = freshness
        self.now = now
    }

    private var providers: Providers {
        if let made = _providers.load() { return made.providers }
        return _providers.storeIfNil(ProvidersBox(makeProviders())).providers
    }

    var itunesArtistSearch: FieldLoader<SearchKey, [Artist]> {
        if let made = _itunesArtistSearch.load() { return made }
        let itunes = providers.itunes
        return _itunesArtistSearch.storeIfNil(
            eachLoader("itunes.searchArtists") { key throws(UpstreamError) in
                try await itunes.searchArtists(term: key.term, limit: key.limit)
            })
    }

    var itunesAlbumSearch: FieldLoader<SearchKey, [Album]> {
        if let made = _itunesAlbumSearch.load() { return made }
        let itunes = providers.itunes
        return _itunesAlbumSearch.storeIfNil(
            eachLoader("itunes.searchAlbums") { key throws(UpstreamError) in
                try await itunes.searchAlbums(term: key.term, limit: key.limit)
            })
    }

    var itunesMusicVideoSearch: FieldLoader<SearchKey, [Video]> {
        if let made = _itunesMusicVideoSearch.load() { return made }
        let itunes = providers.itunes
        return _itunesMusicVideoSearch.storeIfNil(
            eachLoader("itunes.searchMusicVideos") { key throws(UpstreamError) in
                try await itunes.searchMusicVideos(term: key.term, limit: key.limit)
            })
    }

    var itunesArtists: FieldLoader<String, Artist?> {
        if let made = _itunesArtists.load() { return made }
        let itunes = providers.itunes
        return _itunesArtists.storeIfNil(
            lookupLoader("itunes.lookupArtists", max: ITunesProvider.maxLookupIds) {
                ids in try await itunes.lookupArtists(ids: ids)
            })
    }

    var itunesAlbums: FieldLoader<String, Album?> {
        if let made = _itunesAlbums.load() { return made }
        let itunes = providers.itunes
        return _itunesAlbums.storeIfNil(
            lookupLoader("itunes.lookupAlbums", max: ITunesProvider.maxLookupIds) {
                ids in try await itunes.lookupAlbums(ids: ids)
            })
    }

    var itunesTracks: FieldLoader<String, Track?> {
        if let made = _itunesTracks.load() { return made }
        let itunes = providers.itunes
        return _itunesTracks.storeIfNil(
            lookupLoader("itunes.lookupTracks", max: ITunesProvider.maxLookupIds) {
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
                "itunes.lookupMusicVideos", max: ITunesProvider.maxLookupIds
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
                "itunes.albumsByArtist", max: ITunesProvider.maxLookupIds, answer: { $0 ?? [] }
            ) { ids in try await itunes.lookupAlbums(artistIds: ids) })
    }

    var itunesTracksByAlbum: FieldLoader<String, [Track]> {
        if let made = _itunesTracksByAlbum.load() { return made }
        let itunes = providers.itunes
        return _itunesTracksByAlbum.storeIfNil(
            lookupLoader(
                "itunes.tracksByAlbum", max: ITunesProvider.maxLookupIds, answer: { $0 ?? [] }
            ) { ids in try await itunes.lookupTracks(albumIds: ids) })
    }

    var appleMusicArtistSearch: FieldLoader<SearchKey, [Artist]> {
        if let made = _appleMusicArtistSearch.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicArtistSearch.storeIfNil(
            eachLoader("applemusic.searchArtists") { key throws(UpstreamError) in
                try await appleMusic.searchArtists(term: key.term, limit: key.limit).items
            })
    }

    var appleMusicAlbumSearch: FieldLoader<SearchKey, [Album]> {
        if let made = _appleMusicAlbumSearch.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicAlbumSearch.storeIfNil(
            eachLoader("applemusic.searchAlbums") { key throws(UpstreamError) in
                try await appleMusic.searchAlbums(term: key.term, limit: key.limit).items
            })
    }

    var appleMusicAlbums: FieldLoader<String, AlbumWithTracks?> {
        if let made = _appleMusicAlbums.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicAlbums.storeIfNil(
            lookupLoader("applemusic.albums", max: AppleMusicProvider.maxAlbumIds) { ids in
                try await appleMusic.albums(ids: ids)
            })
    }

    var appleMusicArtists: FieldLoader<String, Artist?> {
        if let made = _appleMusicArtists.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicArtists.storeIfNil(
            lookupLoader(
                "applemusic.artists", max: AppleMusicProvider.maxArtistIds
            ) {
                ids in try await appleMusic.artists(ids: ids)
            })
    }

    var appleMusicSongs: FieldLoader<String, Track?> {
        if let made = _appleMusicSongs.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicSongs.storeIfNil(
            lookupLoader("applemusic.songs", max: AppleMusicProvider.maxSongIds) {
                ids in try await appleMusic.songs(ids: ids)
            })
    }

    var appleMusicArtistAlbums: FieldLoader<String, [Album]> {
        if let made = _appleMusicArtistAlbums.load() { return made }
        let appleMusic = providers.appleMusic
        return _appleMusicArtistAlbums.storeIfNil(
            eachLoader("applemusic.artistAlbums") { id throws(UpstreamError) in
                try await appleMusic.artistAlbums(artistId: id).items
            })
    }

    /// `option` is `artistName` or `title`: which field the term searches.
    var rakutenSearch: FieldLoader<SearchKey, [AlbumWithTracks]> {
        if let made = _rakutenSearch.load() { return made }
        let rakuten = providers.rakuten
        return _rakutenSearch.storeIfNil(
            eachLoader("rakuten.search") { key throws(UpstreamError) in
                let byArtist = key.option == "artistName"
                return try await rakuten.search(
                    artistName: byArtist ? key.term : nil, title: byArtist ? nil : key.term, hits: key.limit
                ).items
            })
    }

    /// Keyed by JAN code.
    var rakutenReleases: FieldLoader<String, AlbumWithTracks?> {
        if let made = _rakutenReleases.load() { return made }
        let rakuten = providers.rakuten
        return _rakutenReleases.storeIfNil(
            eachLoader("rakuten.releases") { jan throws(UpstreamError) in try await rakuten.release(jan: jan) })
    }

    /// `option` is the duration filter (`any`, `short`, `medium`, `long`).
    var youTubeSearch: FieldLoader<SearchKey, [Video]> {
        if let made = _youTubeSearch.load() { return made }
        let youTube = providers.youTube
        return _youTubeSearch.storeIfNil(
            eachLoader("youtube.search") { key throws(UpstreamError) in
                let duration = YouTubeProvider.VideoDuration(rawValue: key.option)
                return try await youTube.search(
                    query: key.term, maxResults: key.limit, duration: duration == .any ? nil : duration
                )
                .items
            })
    }

    var youTubeVideos: FieldLoader<String, Video?> {
        if let made = _youTubeVideos.load() { return made }
        let youTube = providers.youTube
        return _youTubeVideos.storeIfNil(
            lookupLoader("youtube.videos", max: YouTubeProvider.maxVideoIds) { ids in
                try await youTube.videos(ids: ids)
            })
    }

    var tmdbSearch: FieldLoader<SearchKey, [Movie]> {
        if let made = _tmdbSearch.load() { return made }
        let tmdb = providers.tmdb
        return _tmdbSearch.storeIfNil(
            eachLoader("tmdb.searchMovies") { key throws(UpstreamError) in
                try await tmdb.searchMovies(query: key.term).items
            })
    }

    var tmdbMovies: FieldLoader<String, Movie?> {
        if let made = _tmdbMovies.load() { return made }
        let tmdb = providers.tmdb
        return _tmdbMovies.storeIfNil(
            eachLoader("tmdb.movies") { id throws(UpstreamError) in try await tmdb.movie(id: id) })
    }

    var tmdbMovieVideos: FieldLoader<String, [Video]> {
        if let made = _tmdbMovieVideos.load() { return made }
        let tmdb = providers.tmdb
        return _tmdbMovieVideos.storeIfNil(
            eachLoader("tmdb.movieVideos") { id throws(UpstreamError) in try await tmdb.movieVideos(movieId: id) })
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

extension RequestLoaders {
    /// A loader over an endpoint that takes one key per request (a search, a TMDB movie): its
    /// distinct keys fetched concurrently, `searchConcurrency` at a time. Each key's answer is
    /// kept in the loader's memo when its reads were all cached responses.
    fileprivate func eachLoader<Key: Hashable & Sendable, Value: Sendable>(
        _ name: String, _ fetch: @escaping @Sendable (Key) async throws(UpstreamError) -> Value
    ) -> FieldLoader<Key, Value> {
        let memo: AnswerMemo<Key, Value>? = memos?.memo(name)
        let n = searchConcurrency
        return fieldLoader(memo) { () throws(DataLoaderError) in
            try DataLoader(
                name: name, scheduler: scheduler,
                batch: { keys in
                    await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                        guard let memo else { return try await fetch(key) }
                        let reads = BatchReads()
                        let value = try await BatchReads.noting(reads) { () throws(UpstreamError) in
                            try await fetch(key)
                        }
                        if let (expires, bytes) = reads.keepableUntil {
                            memo.keep([(key, value)], until: expires, bytes: bytes)
                        }
                        return value
                    }
                })
        }
    }

    /// A loader over a multi-id endpoint: ids are sent sorted, so the same set of ids always
    /// makes the same URL (and so the same cache key), whatever order the resolvers asked in.
    /// `fetch` answers by id; `answer` makes a key's value of what was found for it (nil for an
    /// id the upstream left out). The batch answers the DataLoader's keys in their order (an
    /// ordered batch), straight from the found ids: no second dictionary of per-key results for
    /// every batch of every request. A batch's answers (those of ids left out too) are kept in
    /// the loader's memo when its reads were all cached responses.
    fileprivate func lookupLoader<Found: Sendable, Value: Sendable>(
        _ name: String, max: Int, answer: @escaping @Sendable (Found?) -> Value,
        _ fetch: @escaping @Sendable ([String]) async throws -> [String: Found]
    ) -> FieldLoader<String, Value> {
        let memo: AnswerMemo<String, Value>? = memos?.memo(name)
        return fieldLoader(memo) { () throws(DataLoaderError) in
            try DataLoader(
                name: name, maxBatchSize: max, scheduler: scheduler,
                orderedBatch: { ids in
                    let sorted = ids.sorted()
                    guard let memo else {
                        let found = try await fetch(sorted)
                        return ids.map { .success(answer(found[$0])) }
                    }
                    let reads = BatchReads()
                    let found = try await BatchReads.noting(reads) { try await fetch(sorted) }
                    let values = ids.map { answer(found[$0]) }
                    if let (expires, bytes) = reads.keepableUntil {
                        memo.keep(zip(ids, values).map { ($0, $1) }, until: expires, bytes: bytes)
                    }
                    return values.map { .success($0) }
                })
        }
    }

    /// `lookupLoader` for a value that is nil when the upstream does not know the id.
    fileprivate func lookupLoader<Found: Sendable>(
        _ name: String, max: Int, _ fetch: @escaping @Sendable ([String]) async throws -> [String: Found]
    ) -> FieldLoader<String, Found?> {
        lookupLoader(name, max: max, answer: { $0 }, fetch)
    }

    /// The loader `make` makes (its options are constants of this file: an invalid one is a
    /// programming error, caught by the first request of any test), answering from `memo` at
    /// this request's instant.
    private func fieldLoader<Key: Hashable & Sendable, Value: Sendable>(
        _ memo: AnswerMemo<Key, Value>?, _ make: () throws(DataLoaderError) -> DataLoader<Key, Value>
    ) -> FieldLoader<Key, Value> {
        do {
            let reads = memo.map { RequestMemo(memo: $0, now: now, counters: counters, freshness: freshness) }
            return FieldLoader(try make(), memo: reads)
        } catch {
            preconditionFailure("\(error)")
        }
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
