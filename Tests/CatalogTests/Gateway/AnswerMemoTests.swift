import DataLoader
import Foundation
import GraphQL
import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

/// A loader's answers kept across requests in front of the upstream cache: served while the
/// reads they came from are fresh, in the cache's byte bound, forgotten with their batch.
@Suite struct AnswerMemoTests {
    static let body = [UInt8](repeating: 0x41, count: 1_800)

    static func memo(maxBytes: Int) -> (UpstreamCache, AnswerMemo<String, Int>) {
        let cache = UpstreamCache(maxBytes: maxBytes)
        return (cache, AnswerMemos(cache: cache).memo(0))
    }

    @Test func aKeptAnswerIsServedUntilItsReadsExpire() {
        let (_, memo) = Self.memo(maxBytes: 1 << 20)
        let now = ContinuousClock.now
        memo.keep([("a", 1), ("b", 2)], until: now + .seconds(10), bytes: 100)
        #expect(memo.answer("a", now: now)?.value == 1)
        #expect(memo.answer("b", now: now)?.expires == now + .seconds(10))
        #expect(memo.answer("c", now: now) == nil)
        #expect(memo.answer("a", now: now + .seconds(10)) == nil)
    }

    @Test func answersAreChargedToTheCacheAndLeaveWithTheirBatch() {
        let (cache, memo) = Self.memo(maxBytes: 2_500)
        memo.keep([("a", 1)], until: .now + .seconds(60), bytes: 500)
        #expect(memo.count == 1)
        let charged = cache.usage.bytes
        #expect(charged >= 500)
        // A response that needs the answers' room evicts them, least recently kept first.
        cache.store(UpstreamResponse(status: 200, body: Self.body), for: "r", ttlSeconds: 60)
        #expect(memo.count == 0)
        #expect(memo.answer("a", now: .now) == nil)
        #expect(cache.usage.bytes <= 2_500)
        #expect(cache.lookUp("r") != nil)
    }

    @Test func answersLargerThanTheWholeCacheAreNotKept() {
        let (cache, memo) = Self.memo(maxBytes: 1_000)
        memo.keep([("a", 1)], until: .now + .seconds(60), bytes: 5_000)
        #expect(memo.count == 0)
        #expect(cache.usage.entries == 0)
        memo.keep([("a", 1)], until: .now - .seconds(1), bytes: 10)
        #expect(memo.count == 0)
    }

    @Test func aKeyAnsweredAgainOutlivesItsOldBatch() {
        let (cache, memo) = Self.memo(maxBytes: 3_000)
        let until = ContinuousClock.now + .seconds(60)
        memo.keep([("a", 1), ("b", 1)], until: until, bytes: 400)
        memo.keep([("a", 2)], until: until, bytes: 400)
        // Room for the response and the newer batch only: the older batch is evicted.
        cache.store(UpstreamResponse(status: 200, body: Self.body), for: "r", ttlSeconds: 60)
        #expect(memo.answer("a", now: .now)?.value == 2)
        #expect(memo.answer("b", now: .now) == nil)
    }

    @Test func aFetchIsKeptOnlyWhenEveryReadWasCached() async {
        let now = ContinuousClock.now
        let cached = BatchReads()
        await BatchReads.noting(cached) {
            BatchReads.current?.noteCached(until: now + .seconds(30), bytes: 10)
            BatchReads.current?.noteCached(until: now + .seconds(5), bytes: 20)
        }
        #expect(cached.keepableUntil?.expires == now + .seconds(5))
        #expect(cached.keepableUntil?.bytes == 30)
        let mixed = BatchReads()
        await BatchReads.noting(mixed) {
            BatchReads.current?.noteCached(until: now + .seconds(30), bytes: 10)
            BatchReads.current?.noteUncached()
        }
        #expect(mixed.keepableUntil == nil)
        #expect(BatchReads().keepableUntil == nil)
        #expect(BatchReads.current == nil)
    }

    @Test func aLoaderMakesItsDataLoaderOnlyForAKeyItsMemoDoesNotAnswer() async throws {
        let (_, memo) = Self.memo(maxBytes: 1 << 20)
        let now = ContinuousClock.now
        memo.keep([("a", 1)], until: now + .seconds(60), bytes: 10)
        let counters = UpstreamCounters()
        let made = Mutex(0)
        let dataLoader = try DataLoader<String, Int>(name: "test", scheduler: BatchScheduler()) { keys in
            Dictionary(uniqueKeysWithValues: keys.map { ($0, .success(Int($0.utf8.first ?? 0))) })
        }
        let loader = FieldLoader<String, Int>(
            memo: memo, reading: MemoReading(now: now, counters: counters, freshness: ResultFreshness()),
            staleness: KeyStaleness(), stale: StaleValues()
        ) {
            made.withLock { $0 += 1 }
            return dataLoader
        }
        guard case .value(.json(.int(1))) = loader.field("a", at: [.key("f")], { .json(.int($0)) }) else {
            Issue.record("the memo's answer was not given at once")
            return
        }
        #expect(try await loader.load("a", at: [.key("f")]) == 1)
        #expect(made.withLock { $0 } == 0)
        #expect(counters.snapshot.cacheHits == 2)
        guard case .batched = loader.field("b", at: [.key("f")], { .json(.int($0)) }) else {
            Issue.record("a key the memo does not hold was answered at once")
            return
        }
        #expect(try await loader.load("b", at: [.key("f")]) == 98)
        #expect(try await loader.load("c", at: [.key("f")]) == 99)
        #expect(loader.loader === dataLoader)
        #expect(made.withLock { $0 } == 1)
    }
}

extension LoopbackTests {
    /// A loader's answers kept across requests, through the gateway and a real DemoUpstream.
    @Suite struct AnswerMemoThroughTheGateway {
        static let page = #"{ albums(term: "rock", first: 50) { id title artist { id name } } }"#

        @Test func aRepeatedQueryIsAnsweredAtOnceFromTheKeptAnswers() async throws {
            try await GatewayHarness.configured { $0.cacheResults = false }.run { h in
                let first = try await h.query(Self.page)
                guard case .success(let prepared) = h.gateway.prepare(Self.page) else { throw HarnessError("rejected") }
                // No loader, no task: the whole execution finishes in the call.
                guard
                    case .finished(let again) = h.gateway.start(
                        prepared: prepared, operationName: nil, variables: JSONObject())
                else {
                    Issue.record("a query whose answers are all kept was left pending")
                    return
                }
                #expect(again.result.dataJSON == first.result.dataJSON)
                #expect(again.counts.totalRequests == 0)
                let albums = try #require(first.result.data?["albums"]?.items)
                #expect(albums.count > 1)
                // The page and each album's artist, one cached read each.
                #expect(again.counts.cacheHits == 1 + albums.count)
            }
        }

        @Test func requestsAnsweredFromKeptAnswersShareTheirNodes() async throws {
            try await GatewayHarness.configured { $0.cacheResults = false }.run { h in
                _ = try await h.query(Self.page)
                let first = try Self.keptNodes(h.gateway.requestScope(budgetLimit: 1_000))
                let second = try Self.keptNodes(h.gateway.requestScope(budgetLimit: 1_000))
                #expect(first.albums.count > 1)
                // The same objects: made once, when the answers were fetched, never per request.
                #expect(first.albums.count == second.albums.count)
                #expect(zip(first.albums, second.albums).allSatisfy { $0 === $1 })
                #expect(first.artist === second.artist)
            }
        }

        /// The page's albums and its first album's artist, as a request reads them from the
        /// kept answers.
        static func keptNodes(_ scope: RequestScope) throws -> (albums: [AlbumNode], artist: ArtistNode) {
            let loaders = scope.request.loaders
            guard
                case .value(.list(let items)) = loaders.itunesAlbumSearch.field(
                    SearchKey(term: "rock", limit: 50), at: [.key("albums")], { .hosts($0) })
            else { throw HarnessError("the page was not answered from the kept answers") }
            let albums = items.compactMap { $0.hostValue as? AlbumNode }
            guard albums.count == items.count, let artistId = albums.first?.album.artistId,
                case .value(let artist) = loaders.itunesArtists.field(
                    artistId, at: [.key("artist")], { $0.map { .host($0) } ?? .null }),
                let node = artist.hostValue as? ArtistNode
            else { throw HarnessError("the artist was not answered from the kept answers") }
            return (albums, node)
        }

        @Test func anIdAnsweredBeforeIsNotAskedForAgainBesideOthers() async throws {
            try await GatewayHarness.configured { $0.cacheResults = false }.run { h in
                let ids = try #require(
                    try await h.query(#"{ albums(term: "rock", first: 3) { id } }"#).result.data?["albums"]?
                        .items?.compactMap { $0["id"]?.text })
                try #require(ids.count == 3)
                func pair(_ a: String, _ b: String) -> String {
                    #"{ a: album(id: "\#(a)") { title } b: album(id: "\#(b)") { title } }"#
                }
                let first = try await h.query(pair(ids[0], ids[1]))
                #expect(first.counts.totalRequests == 1)
                try await h.loopback.clearLog()
                let second = try await h.query(pair(ids[0], ids[2]))
                #expect(second.result.errors == [])
                #expect(second.result.data?["a", "title"] == first.result.data?["a", "title"])
                #expect(second.result.data?["b", "title"]?.text != nil)
                let sent = try await h.loopback.requestLog().entries
                // One lookup, of the id not answered before only (it was `id=<0>,<2>`).
                #expect(sent.count == 1)
                let numeric = { (id: String) in String(id.split(separator: ":").last ?? "") }
                #expect(sent.first?.query.contains(numeric(ids[2])) == true)
                #expect(sent.first?.query.contains(numeric(ids[0])) == false, "\(sent)")
                #expect(second.counts.cacheHits == 1)
            }
        }

        /// Two spellings of one name (a combining accent, or the precomposed letter) are one
        /// upstream request: the second request is the cache's, whichever came first.
        @Test func twoSpellingsOfOneSearchAreOneRequest() async throws {
            try await GatewayHarness.configured { $0.cacheResults = false }.run { h in
                let first = try await h.query("{ artists(name: \"Beyonce\u{301}\", first: 2) { name } }")
                #expect(first.counts.totalRequests == 1)
                let second = try await h.query("{ artists(name: \"Beyonc\u{E9}\", first: 2) { name } }")
                #expect(second.counts.totalRequests == 0)
                #expect(second.counts.cacheHits == 1)
                let sent = try await h.loopback.requestLog().entries
                #expect(sent.count == 1)
                #expect(sent.first?.query.contains("Beyonc%C3%A9") == true, "\(sent)")
            }
        }

        @Test func answersFollowTheirResponsesFreshness() async throws {
            let query = #"{ albums(term: "rock", first: 2) { title } }"#
            // iTunes responses kept for 1 s, then not at all: answers read from a response that
            // is not cached are not kept either.
            for ttl in [1, 0] {
                try await GatewayHarness.configured {
                    $0.cacheResults = false
                    $0.cacheTTLSeconds[.iTunes] = ttl
                }.run { h in
                    _ = try await h.query(query)
                    #expect(try await h.query(query).counts.totalRequests == (ttl == 0 ? 1 : 0))
                    guard ttl > 0 else { return }
                    try await Task.sleep(for: .milliseconds(1_100))
                    let expired = try await h.query(query)
                    #expect(expired.counts.totalRequests == 1)
                    #expect(expired.counts.cacheHits == 0)
                }
            }
        }
    }
}

extension JSONValue {
    fileprivate var items: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    fileprivate var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
