import DataLoader
import GraphQL
import Synchronization
import UpstreamEconomy

/// The DataLoaders of one GraphQL request: one per upstream read, each batched to its API's
/// limit on ids per request (iTunes lookup 200, Apple Music albums 100 / artists 25 / songs 300,
/// YouTube videos 50) or, for searches and the one-id-per-request reads (TMDB movie details,
/// Rakuten releases by JAN), sending its distinct keys concurrently (`searchConcurrency` at
/// a time). They
/// share the request's `BatchScheduler`, so each query level dispatches together.
///
/// Each loader is made the first time a resolver asks for it: a request reads one or two of
/// the 22, and making them all up front was a third of the CPU of a `{ __typename }` request.
/// Two resolvers asking at once may both make one; the first stored wins, before any key is
/// loaded on either. A loader's DataLoader, and the request's providers, are made later still,
/// when a key is not answered by the loader's memo (`FieldLoader`). Loaders of artists,
/// albums, videos and movies answer with the nodes the resolvers hand out (Nodes.swift), made
/// once per fetch, so that the requests their memos answer share them.
final class RequestLoaders: Sendable {
    private let providers: LazyProviders
    private let scheduler: BatchScheduler
    private let searchConcurrency: Int
    /// The gateway's memos of loader answers; nil when it caches nothing.
    private let memos: AnswerMemos?
    /// How this request reads the memos: at one instant, each answer counted as a cache hit
    /// and noted for the result's freshness.
    private let reading: MemoReading
    /// The loaders made so far, newest first: a request makes one or two of the 22, and a list
    /// of them is released with their count of nodes, where an array of 22 optional slots
    /// released each slot through the runtime's generic witnesses (and 22 generic loader
    /// references, before, a metadata lookup each). Nil until the first loader is made.
    private let made = Mutex<MadeLoader?>(nil)
    /// The fields this request answered from stale upstream answers.
    let stale: StaleValues
    /// Whether this request is a dry run (its loaders note the level of each key).
    private let dryRun: Bool

    /// `makeProviders` runs when the first DataLoader sends, at most a few times (concurrent
    /// first loaders), never for a request that reads no upstream (`{ __typename }`) or whose
    /// loaders' memos answer every key: the providers over their boxed transports were a tenth
    /// of such a request's CPU.
    init(
        providers makeProviders: @escaping @Sendable () -> Providers, scheduler: BatchScheduler, searchConcurrency: Int,
        memos: AnswerMemos?, counters: UpstreamCounters, freshness: ResultFreshness, stale: StaleValues = StaleValues(),
        dryRun: Bool = false, now: ContinuousClock.Instant = .now
    ) {
        self.stale = stale
        self.dryRun = dryRun
        self.providers = LazyProviders(makeProviders)
        self.scheduler = scheduler
        self.searchConcurrency = searchConcurrency
        self.memos = memos
        self.reading = MemoReading(now: now, counters: counters, freshness: freshness)
    }

    var itunesArtistSearch: FieldLoader<SearchKey, [ArtistNode]> {
        loader(.itunesArtistSearch) {
            eachLoader(.itunesArtistSearch, "itunes.searchArtists") { providers, key throws(UpstreamError) in
                try await providers.itunes.searchArtists(term: key.term, limit: key.limit).map(ArtistNode.init)
            }
        }
    }

    var itunesAlbumSearch: FieldLoader<SearchKey, [AlbumNode]> {
        loader(.itunesAlbumSearch) {
            eachLoader(.itunesAlbumSearch, "itunes.searchAlbums") { providers, key throws(UpstreamError) in
                try await providers.itunes.searchAlbums(term: key.term, limit: key.limit).map { AlbumNode(album: $0) }
            }
        }
    }

    var itunesMusicVideoSearch: FieldLoader<SearchKey, [VideoNode]> {
        loader(.itunesMusicVideoSearch) {
            eachLoader(.itunesMusicVideoSearch, "itunes.searchMusicVideos") { providers, key throws(UpstreamError) in
                try await providers.itunes.searchMusicVideos(term: key.term, limit: key.limit).map(VideoNode.init)
            }
        }
    }

    var itunesArtists: FieldLoader<String, ArtistNode?> {
        loader(.itunesArtists) {
            lookupLoader(
                .itunesArtists, "itunes.lookupArtists", max: ITunesProvider.maxLookupIds,
                answer: { $0.map(ArtistNode.init) }
            ) {
                providers, ids in try await providers.itunes.lookupArtists(ids: ids)
            }
        }
    }

    var itunesAlbums: FieldLoader<String, AlbumNode?> {
        loader(.itunesAlbums) {
            lookupLoader(
                .itunesAlbums, "itunes.lookupAlbums", max: ITunesProvider.maxLookupIds,
                answer: { $0.map { AlbumNode(album: $0) } }
            ) {
                providers, ids in try await providers.itunes.lookupAlbums(ids: ids)
            }
        }
    }

    var itunesTracks: FieldLoader<String, Track?> {
        loader(.itunesTracks) {
            lookupLoader(.itunesTracks, "itunes.lookupTracks", max: ITunesProvider.maxLookupIds) { providers, ids in
                let itunes = providers.itunes
                let call = UpstreamCall(service: .iTunes, transport: itunes.transport, secrets: [])
                return try await call.fetch(itunes.lookupURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                    IdBatches.keyed(
                        try ITunesProvider.decodeTracks(status: status, headers: headers, body: body), by: \.id)
                }
            }
        }
    }

    var itunesMusicVideos: FieldLoader<String, VideoNode?> {
        loader(.itunesMusicVideos) {
            lookupLoader(
                .itunesMusicVideos, "itunes.lookupMusicVideos", max: ITunesProvider.maxLookupIds,
                answer: { $0.map(VideoNode.init) }
            ) {
                providers, ids in
                let itunes = providers.itunes
                let call = UpstreamCall(service: .iTunes, transport: itunes.transport, secrets: [])
                return try await call.fetch(itunes.lookupURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                    IdBatches.keyed(
                        try ITunesProvider.decodeMusicVideos(status: status, headers: headers, body: body), by: \.id)
                }
            }
        }
    }

    var itunesAlbumsByArtist: FieldLoader<String, [AlbumNode]> {
        loader(.itunesAlbumsByArtist) {
            lookupLoader(
                .itunesAlbumsByArtist, "itunes.albumsByArtist", max: ITunesProvider.maxLookupIds,
                answer: { ($0 ?? []).map { AlbumNode(album: $0) } }
            ) {
                providers, ids in try await providers.itunes.lookupAlbums(artistIds: ids)
            }
        }
    }

    var itunesTracksByAlbum: FieldLoader<String, [Track]> {
        loader(.itunesTracksByAlbum) {
            lookupLoader(
                .itunesTracksByAlbum, "itunes.tracksByAlbum", max: ITunesProvider.maxLookupIds, answer: { $0 ?? [] }
            ) {
                providers, ids in try await providers.itunes.lookupTracks(albumIds: ids)
            }
        }
    }

    var appleMusicArtistSearch: FieldLoader<SearchKey, [ArtistNode]> {
        loader(.appleMusicArtistSearch) {
            eachLoader(.appleMusicArtistSearch, "applemusic.searchArtists") { providers, key throws(UpstreamError) in
                try await providers.appleMusic.searchArtists(term: key.term, limit: key.limit).items.map(
                    ArtistNode.init)
            }
        }
    }

    var appleMusicAlbumSearch: FieldLoader<SearchKey, [AlbumNode]> {
        loader(.appleMusicAlbumSearch) {
            eachLoader(.appleMusicAlbumSearch, "applemusic.searchAlbums") { providers, key throws(UpstreamError) in
                try await providers.appleMusic.searchAlbums(term: key.term, limit: key.limit).items.map {
                    AlbumNode(album: $0)
                }
            }
        }
    }

    var appleMusicAlbums: FieldLoader<String, AlbumNode?> {
        loader(.appleMusicAlbums) {
            lookupLoader(
                .appleMusicAlbums, "applemusic.albums", max: AppleMusicProvider.maxAlbumIds,
                answer: { $0.map(AlbumNode.init) }
            ) {
                providers, ids in try await providers.appleMusic.albums(ids: ids)
            }
        }
    }

    var appleMusicArtists: FieldLoader<String, ArtistNode?> {
        loader(.appleMusicArtists) {
            lookupLoader(
                .appleMusicArtists, "applemusic.artists", max: AppleMusicProvider.maxArtistIds,
                answer: { $0.map(ArtistNode.init) }
            ) {
                providers, ids in try await providers.appleMusic.artists(ids: ids)
            }
        }
    }

    var appleMusicSongs: FieldLoader<String, Track?> {
        loader(.appleMusicSongs) {
            lookupLoader(.appleMusicSongs, "applemusic.songs", max: AppleMusicProvider.maxSongIds) { providers, ids in
                try await providers.appleMusic.songs(ids: ids)
            }
        }
    }

    var appleMusicArtistAlbums: FieldLoader<String, [AlbumNode]> {
        loader(.appleMusicArtistAlbums) {
            eachLoader(.appleMusicArtistAlbums, "applemusic.artistAlbums") { providers, id throws(UpstreamError) in
                // An artist's albums come without their `artists` relationship: they are this
                // artist's, so `Album.artist` names it by its catalog id (fetchable again).
                try await providers.appleMusic.artistAlbums(artistId: id).items.map { album in
                    var album = album
                    if album.artistId == nil { album.artistId = id }
                    return AlbumNode(album: album)
                }
            }
        }
    }

    /// `option` is `artistName` or `title`: which field the term searches.
    var rakutenSearch: FieldLoader<SearchKey, [AlbumNode]> {
        loader(.rakutenSearch) {
            eachLoader(.rakutenSearch, "rakuten.search") { providers, key throws(UpstreamError) in
                let byArtist = key.option == "artistName"
                return try await providers.rakuten.search(
                    artistName: byArtist ? key.term : nil, title: byArtist ? nil : key.term, hits: key.limit
                ).items.map(AlbumNode.init)
            }
        }
    }

    /// Keyed by JAN code.
    var rakutenReleases: FieldLoader<String, AlbumNode?> {
        loader(.rakutenReleases) {
            eachLoader(.rakutenReleases, "rakuten.releases") { providers, jan throws(UpstreamError) in
                try await providers.rakuten.release(jan: jan).map(AlbumNode.init)
            }
        }
    }

    /// `option` is the duration filter (`any`, `short`, `medium`, `long`).
    var youTubeSearch: FieldLoader<SearchKey, [VideoNode]> {
        loader(.youTubeSearch) {
            eachLoader(.youTubeSearch, "youtube.search") { providers, key throws(UpstreamError) in
                let duration = YouTubeProvider.VideoDuration(rawValue: key.option)
                return try await providers.youTube.search(
                    query: key.term, maxResults: key.limit, duration: duration == .any ? nil : duration
                )
                .items.map(VideoNode.init)
            }
        }
    }

    var youTubeVideos: FieldLoader<String, VideoNode?> {
        loader(.youTubeVideos) {
            lookupLoader(
                .youTubeVideos, "youtube.videos", max: YouTubeProvider.maxVideoIds, answer: { $0.map(VideoNode.init) }
            ) {
                providers, ids in try await providers.youTube.videos(ids: ids)
            }
        }
    }

    /// Which loader: the key of `made` and of the loader's memo.
    enum Slot: Int, CaseIterable {
        case itunesArtistSearch, itunesAlbumSearch, itunesMusicVideoSearch, itunesArtists, itunesAlbums
        case itunesTracks, itunesMusicVideos, itunesAlbumsByArtist, itunesTracksByAlbum
        case appleMusicArtistSearch, appleMusicAlbumSearch, appleMusicAlbums, appleMusicArtists
        case appleMusicSongs, appleMusicArtistAlbums, rakutenSearch, rakutenReleases
        case youTubeSearch, youTubeVideos
    }

    /// The loader in `slot`, made by `make` the first time (the first stored wins).
    private func loader<Key: Hashable & Sendable, Value: Sendable>(
        _ slot: Slot, _ make: () -> FieldLoader<Key, Value>
    ) -> FieldLoader<Key, Value> {
        if let found = made.withLock({ $0?.loader(slot) }) {
            return unsafeDowncast(found, to: FieldLoader<Key, Value>.self)
        }
        let new = make()
        let stored = made.withLock { made in
            if let found = made?.loader(slot) { return found }
            made = MadeLoader(slot: slot, loader: new, next: made)
            return new
        }
        return unsafeDowncast(stored, to: FieldLoader<Key, Value>.self)
    }
}

/// One made loader of a request, and the ones made before it.
private final class MadeLoader: Sendable {
    let slot: RequestLoaders.Slot
    let loader: any AnyObject & Sendable
    let next: MadeLoader?

    init(slot: RequestLoaders.Slot, loader: any AnyObject & Sendable, next: MadeLoader?) {
        self.slot = slot
        self.loader = loader
        self.next = next
    }

    func loader(_ wanted: RequestLoaders.Slot) -> (any AnyObject & Sendable)? {
        var node: MadeLoader? = self
        while let current = node {
            if current.slot == wanted { return current.loader }
            node = current.next
        }
        return nil
    }
}

extension RequestLoaders {
    /// A loader over an endpoint that takes one key per request (a search, a TMDB movie): its
    /// distinct keys fetched concurrently, `searchConcurrency` at a time. Each key's answer is
    /// kept in the loader's memo when its reads were all cached responses.
    fileprivate func eachLoader<Key: Hashable & Sendable, Value: Sendable>(
        _ slot: Slot, _ name: String, _ fetch: @escaping @Sendable (Providers, Key) async throws(UpstreamError) -> Value
    ) -> FieldLoader<Key, Value> {
        let memo: AnswerMemo<Key, Value>? = memos?.memo(slot.rawValue)
        let (n, scheduler, lazyProviders) = (searchConcurrency, scheduler, providers)
        let staleness = KeyStaleness()
        let levels = dryRun ? KeyLevels<Key>() : nil
        return fieldLoader(memo, staleness, levels) { () throws(DataLoaderError) in
            let providers = lazyProviders.providers
            return try DataLoader(
                name: name, scheduler: scheduler,
                batch: { keys in
                    await UpstreamTracing.batch(name, keys: keys.count) {
                        await fetchEach(keys, limit: n) { key throws(UpstreamError) in
                            try await DryRunPlan.at(levels?.level(key)) { () throws(UpstreamError) in
                                guard let memo else { return try await fetch(providers, key) }
                                let reads = BatchReads()
                                let value = try await BatchReads.noting(reads) { () throws(UpstreamError) in
                                    try await fetch(providers, key)
                                }
                                if let (expires, bytes) = reads.keepableUntil {
                                    memo.keep([(key, value)], until: expires, bytes: bytes)
                                }
                                if let age = reads.staleAgeSeconds { staleness.note(key, ageSeconds: age) }
                                return value
                            }
                        }
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
        _ slot: Slot, _ name: String, max: Int, answer: @escaping @Sendable (Found?) -> Value,
        _ fetch: @escaping @Sendable (Providers, [String]) async throws -> [String: Found]
    ) -> FieldLoader<String, Value> {
        let memo: AnswerMemo<String, Value>? = memos?.memo(slot.rawValue)
        let (scheduler, lazyProviders) = (scheduler, providers)
        let staleness = KeyStaleness()
        let levels = dryRun ? KeyLevels<String>() : nil
        return fieldLoader(memo, staleness, levels) { () throws(DataLoaderError) in
            let providers = lazyProviders.providers
            return try DataLoader(
                name: name, maxBatchSize: max, scheduler: scheduler,
                orderedBatch: { ids in
                    try await UpstreamTracing.batch(name, keys: ids.count) {
                        try await DryRunPlan.at(levels?.level(of: ids)) {
                            let sorted = ids.sorted()
                            guard let memo else {
                                let found = try await fetch(providers, sorted)
                                return ids.map { .success(answer(found[$0])) }
                            }
                            let reads = BatchReads()
                            let found = try await BatchReads.noting(reads) { try await fetch(providers, sorted) }
                            let values = ids.map { answer(found[$0]) }
                            if let (expires, bytes) = reads.keepableUntil {
                                memo.keep(zip(ids, values).map { ($0, $1) }, until: expires, bytes: bytes)
                            }
                            // One response answers the batch's ids: a stale one answers them all.
                            if let age = reads.staleAgeSeconds { for id in ids { staleness.note(id, ageSeconds: age) } }
                            return values.map { .success($0) }
                        }
                    }
                })
        }
    }

    /// `lookupLoader` for a value that is nil when the upstream does not know the id.
    fileprivate func lookupLoader<Found: Sendable>(
        _ slot: Slot, _ name: String, max: Int,
        _ fetch: @escaping @Sendable (Providers, [String]) async throws -> [String: Found]
    ) -> FieldLoader<String, Found?> {
        lookupLoader(slot, name, max: max, answer: { $0 }, fetch)
    }

    /// The loader over the DataLoader `make` makes (its options are constants of this file: an
    /// invalid one is a programming error, caught by the first request of any test), answering
    /// from `memo` at this request's instant.
    private func fieldLoader<Key: Hashable & Sendable, Value: Sendable>(
        _ memo: AnswerMemo<Key, Value>?, _ staleness: KeyStaleness, _ levels: KeyLevels<Key>?,
        _ make: @escaping @Sendable () throws(DataLoaderError) -> DataLoader<Key, Value>
    ) -> FieldLoader<Key, Value> {
        return FieldLoader(memo: memo, reading: reading, staleness: staleness, stale: stale, levels: levels) {
            do throws(DataLoaderError) {
                return try make()
            } catch {
                preconditionFailure("\(error)")
            }
        }
    }
}

/// The providers of one request, made the first time a DataLoader sends.
private final class LazyProviders: Sendable {
    private let make: @Sendable () -> Providers
    private let made = LazyReference<ProvidersBox>()

    init(_ make: @escaping @Sendable () -> Providers) { self.make = make }

    var providers: Providers { made.load(orStore: { ProvidersBox(make()) }).providers }
}

/// `Providers` made once per request, for `LazyReference` (which holds objects).
private final class ProvidersBox: Sendable {
    let providers: Providers
    init(_ providers: Providers) { self.providers = providers }
}

/// The providers written in Swift, of one request, each over that request's counting, caching
/// transport. (TMDB is declared in the schema: its calls are connectors.)
struct Providers: Sendable {
    var itunes: ITunesProvider
    var appleMusic: AppleMusicProvider
    var rakuten: RakutenProvider
    var youTube: YouTubeProvider
}
