import Foundation
import GraphQL
import Testing
import UpstreamEconomy

@testable import Catalog

@Suite struct GlobalIDTests {
    @Test func roundTripsAndRejects() {
        #expect(GlobalID("itunes:album:1440857781") == GlobalID(.iTunes, .album, "1440857781"))
        #expect(GlobalID(.rakuten, .artist, "AC/DC: Live").description == "rakuten:artist:AC/DC: Live")
        #expect(GlobalID("rakuten:artist:AC/DC: Live")?.id == "AC/DC: Live")
        #expect(GlobalID(.appleMusic, .track, "Björk – Jóga 🎵").description == "applemusic:track:Björk – Jóga 🎵")
        #expect(GlobalID(.tmdb, .movie, "").description == "tmdb:movie:")
        #expect(GlobalID("spotify:album:1") == nil)
        #expect(GlobalID("itunes:playlist:1") == nil)
        #expect(GlobalID("itunes:album:") == nil)
        #expect(GlobalID("1440857781") == nil)
    }

    @Test func artworkSizesAreRewrittenOnlyInTheSizeSegment() {
        #expect(
            resizedArtworkURL("https://a.example/x/100x100bb.jpg", size: 600) == "https://a.example/x/600x600bb.jpg")
        #expect(
            resizedArtworkURL("https://a.example/100x100bb/cover.png", size: 600)
                == "https://a.example/100x100bb/cover.png")
    }
}

@Suite struct UpstreamCacheTests {
    static func response(_ size: Int) -> UpstreamResponse {
        UpstreamResponse(status: 200, body: Array(repeating: 0x41, count: size))
    }

    @Test func evictsTheLeastRecentlyUsedByBytes() {
        // Each entry weighs body + key + 256 bytes: 1000 + 1 + 256 = 1257; three fit in 4000.
        let cache = UpstreamCache(maxBytes: 4_000)
        let now = ContinuousClock.now
        cache.store(Self.response(1_000), for: "a", ttlSeconds: 60, now: now)
        cache.store(Self.response(1_000), for: "b", ttlSeconds: 60, now: now)
        cache.store(Self.response(1_000), for: "c", ttlSeconds: 60, now: now)
        #expect(cache.lookUp("a", now: now) != nil)  // a is now more recent than b
        cache.store(Self.response(1_000), for: "d", ttlSeconds: 60, now: now)
        #expect(cache.lookUp("b", now: now) == nil)
        #expect(cache.lookUp("a", now: now) != nil)
        #expect(cache.lookUp("c", now: now) != nil)
        #expect(cache.lookUp("d", now: now) != nil)
        #expect(cache.usage.entries == 3)
        #expect(cache.usage.bytes == 3_771)
    }

    @Test func aKeyHitAgainAndAgainStaysTheMostRecent() {
        let cache = UpstreamCache(maxBytes: 4_000)
        let now = ContinuousClock.now
        cache.store(Self.response(1_000), for: "a", ttlSeconds: 60, now: now)
        cache.store(Self.response(1_000), for: "b", ttlSeconds: 60, now: now)
        for _ in 0..<5_000 { #expect(cache.lookUp("b", now: now) != nil) }  // b stays the most recent
        #expect(cache.lookUp("a", now: now) != nil)  // now a is
        cache.store(Self.response(1_000), for: "c", ttlSeconds: 60, now: now)
        for _ in 0..<3 { #expect(cache.lookUp("c", now: now) != nil) }
        cache.store(Self.response(1_000), for: "d", ttlSeconds: 60, now: now)  // evicts b, the oldest use
        #expect(cache.lookUp("b", now: now) == nil)
        #expect(cache.lookUp("a", now: now) != nil)
        #expect(cache.lookUp("c", now: now) != nil)
        #expect(cache.lookUp("d", now: now) != nil)
    }

    @Test func expiresAfterItsTTLAndSkipsWhatCannotFit() {
        let cache = UpstreamCache(maxBytes: 2_000)
        let now = ContinuousClock.now
        cache.store(Self.response(10), for: "k", ttlSeconds: 5, now: now)
        #expect(cache.lookUp("k", now: now.advanced(by: .seconds(4)))?.body.count == 10)
        #expect(cache.lookUp("k", now: now.advanced(by: .seconds(5))) == nil)
        #expect(cache.usage.entries == 0)
        cache.store(Self.response(5_000), for: "big", ttlSeconds: 60, now: now)
        cache.store(Self.response(10), for: "zero", ttlSeconds: 0, now: now)
        #expect(cache.usage.entries == 0)
    }

    @Test func storeReportsTheExpiryItSet() {
        let cache = UpstreamCache(maxBytes: 2_000)
        let now = ContinuousClock.now
        #expect(cache.store(Self.response(10), for: "k", ttlSeconds: 30, now: now) == now.advanced(by: .seconds(30)))
        #expect(cache.lookUpWithExpiry("k", now: now)?.expires == now.advanced(by: .seconds(30)))
        #expect(cache.store(Self.response(10), for: "zero", ttlSeconds: 0, now: now) == nil)
        #expect(cache.store(Self.response(5_000), for: "big", ttlSeconds: 30, now: now) == nil)
    }

    @Test func resultsShareTheBudgetAndExpireOnTheirOwn() {
        let result = CachedResult(
            result: ExecutionResult(dataJSON: Array(repeating: 0x31, count: 1_000)), estimatedCost: 3, upstreamReads: 2)
        // A result weighs its data text + its response text (without the quota) + key + 256:
        // 1000 + 1113 + 1 + 256; a response its body + key + 256: 1000 + 1 + 256 = 1257. Room for
        // the result and one response.
        #expect(result.responseHead.count == 1_113)
        let cache = UpstreamCache(maxBytes: 2_370 + 1_257 + 1_256)
        let now = ContinuousClock.now
        cache.storeResult(result, for: "r", expires: now.advanced(by: .seconds(5)), now: now)
        #expect((cache.lookUpResult("r", now: now.advanced(by: .seconds(4))) as? CachedResult)?.upstreamReads == 2)
        #expect(cache.lookUp("r", now: now) == nil)  // a result is no upstream response
        cache.store(Self.response(1_000), for: "a", ttlSeconds: 60, now: now)
        #expect(cache.lookUpResult("a", now: now) == nil)
        cache.store(Self.response(1_000), for: "b", ttlSeconds: 60, now: now)  // evicts r, the oldest
        #expect(cache.lookUpResult("r", now: now) == nil)
        #expect(cache.usage.bytes == 2_514)
        cache.storeResult(result, for: "late", expires: now, now: now)
        #expect(cache.usage.entries == 2)
        cache.storeResult(result, for: "r", expires: now.advanced(by: .seconds(5)), now: now)
        #expect(cache.lookUpResult("r", now: now.advanced(by: .seconds(5))) == nil)
    }

    @Test func aKeptResultCarriesTheResponseARepeatGets() {
        let result = CachedResult(
            result: ExecutionResult(dataJSON: Array(#"{"artist":{"name":"AC/DC"}}"#.utf8)), estimatedCost: 3,
            upstreamReads: 2)
        let head =
            #"{"data":{"artist":{"name":"AC/DC"}},"extensions":{"cost":{"estimated":3,"actual":0},"#
            + #""upstream":{"requests":0,"cacheHits":2,"deduplicated":0}"#
        #expect(String(decoding: result.responseHead, as: UTF8.self) == head)
        // The quota is the moment's: a hit served later shows what has been spent since.
        for quota in [[], [QuotaUsage(service: .youTube, used: 300, limit: 10_000)]] {
            let hit = result.hit(quota: quota)
            let expected =
                head + (quota.isEmpty ? #","quota":{}}}"# : #","quota":{"youtube":{"used":300,"limit":10000}}}}"#)
            #expect(String(decoding: hit.serializedBody ?? [], as: UTF8.self) == expected)
            #expect(String(decoding: hit.serialized(), as: UTF8.self) == expected)
        }
        let hit = result.hit(quota: [])
        #expect(hit.counts.cacheHits == 2)
        #expect(hit.counts.totalRequests == 0)
    }

    @Test func resultKeysNameDocumentOperationAndVariables() {
        let source = Source("query Q($n: String) { artist(name: $n) { name } }")
        let key = UpstreamCache.resultKey(
            document: source, operationName: "Q", variables: JSONObject([("n", .string("AC/DC"))]))
        #expect(key == "\n1:Q\n13:" + #"{"n":"AC/DC"}"# + "\nquery Q($n: String) { artist(name: $n) { name } }")
    }

    /// Each pair once shared a key, so one request was answered with the other's result.
    @Test func resultKeysCannotCollide() throws {
        let empty = JSONObject()
        let doc = Source("{ a }")
        #expect(
            UpstreamCache.resultKey(document: doc, operationName: nil, variables: empty)
                != UpstreamCache.resultKey(document: doc, operationName: "", variables: empty))
        // A newline in the operation name cannot shift text into the document part.
        #expect(
            UpstreamCache.resultKey(document: Source("x\n{ b }"), operationName: "y", variables: empty)
                != UpstreamCache.resultKey(document: Source("{ b }"), operationName: "y\n{}\nx", variables: empty))
        // 1e400 reads as infinity, which JSON writes as null: never cached at all.
        #expect(
            UpstreamCache.resultKey(
                document: doc, operationName: nil, variables: JSONObject([("k", .double(.infinity))])) == nil)
        #expect(
            UpstreamCache.resultKey(
                document: doc, operationName: nil, variables: JSONObject([("k", .array([.double(.nan)]))])) == nil)
        // Texts equal as Swift Strings (canonically equivalent) but not byte for byte.
        let nfc = try #require(
            UpstreamCache.resultKey(
                document: doc, operationName: nil, variables: JSONObject([("n", .string("Vin\u{ED}cius"))])))
        let nfd = try #require(
            UpstreamCache.resultKey(
                document: doc, operationName: nil, variables: JSONObject([("n", .string("Vini\u{301}cius"))])))
        let cache = UpstreamCache(maxBytes: 10_000)
        let now = ContinuousClock.now
        cache.storeResult(
            CachedResult(result: ExecutionResult(dataJSON: Array("{}".utf8)), estimatedCost: 1, upstreamReads: 1),
            for: nfd,
            expires: now.advanced(by: .seconds(60)), now: now)
        #expect(cache.lookUpResult(nfd, now: now) != nil)
        #expect(cache.lookUpResult(nfc, now: now) == nil)
        cache.store(Self.response(1), for: "http://h/search?term=Vini\u{301}cius", ttlSeconds: 60, now: now)
        #expect(cache.lookUp("http://h/search?term=Vin\u{ED}cius", now: now) == nil)
    }

    @Test func keysDropSecretsAndMaxAgeIsRead() {
        let key = UpstreamCache.cacheKey(
            url: "http://h/youtube/v3/search?q=a+b&key=SECRET&maxResults=1",
            headers: [("Authorization", "Bearer SECRET"), ("Accept", "application/json")],
            secretParameters: HTTPClientTransport.secretQueryParameters)
        #expect(key == "http://h/youtube/v3/search?q=a+b&maxResults=1\naccept:application/json")
        let secrets = HTTPClientTransport.secretQueryParameters
        for (url, expected) in [
            ("http://h/s?key=S&q=1", "http://h/s?q=1"), ("http://h/s?q=1&key=S", "http://h/s?q=1"),
            ("http://h/s?q=1&&key", "http://h/s?q=1"), ("http://h/s?keys=1&akey=2&key", "http://h/s?keys=1&akey=2"),
            ("http://h/s?keys=1&q=%26key%3DS", "http://h/s?keys=1&q=%26key%3DS"), ("http://h/s?", "http://h/s?"),
            ("http://h/s", "http://h/s"),
        ] {
            #expect(UpstreamCache.cacheKey(url: url, headers: [], secretParameters: secrets) == expected, "\(url)")
        }
        #expect(UpstreamCache.maxAge(["cache-control": "public, max-age=120"]) == 120)
        #expect(UpstreamCache.maxAge(["cache-control": "no-store"]) == 0)
        #expect(UpstreamCache.maxAge(["cache-control": "max-age=60, no-cache"]) == 0)
        #expect(UpstreamCache.maxAge(["cache-control": "private, max-age=60"]) == 0)
        #expect(UpstreamCache.maxAge(["cache-control": "public"]) == nil)
        #expect(UpstreamCache.maxAge([:]) == nil)
    }
}

@Suite struct QueryCostTests {
    static let schema = try! GatewaySchema.embedded()

    static func estimate(_ query: String, variables: JSONObject = JSONObject()) throws -> Int {
        let source = Source(query)
        return QueryCost.estimate(
            document: try parse(source), source: source, operationName: nil, variables: variables, schema: schema)
    }

    @Test func listSizesComeFromFirstOrDefaults() throws {
        // 1 search + 1 albums lookup + 1 songs lookup + 25 albums × 15 tracks × 100.
        #expect(
            try Self.estimate(#"{ artist(name: "x") { albums { tracks { videos(first: 1) { url } } } } }"#) == 37_503)
        // 2 albums × 15 tracks × 100.
        #expect(
            try Self.estimate(#"{ artist(name: "x") { albums(first: 2) { tracks { videos { url } } } } }"#) == 3_003)
        #expect(
            try Self.estimate(
                #"query($n: Int) { artist(name: "x") { albums(first: $n) { tracks { videos { url } } } } }"#,
                variables: JSONObject([("n", .int(1))])) == 1_503)
        #expect(try Self.estimate(#"{ videos(query: "x", first: 5) { url } movies(query: "y") { title } }"#) == 101)
        #expect(try Self.estimate(#"{ artist(name: "x") { name genre } }"#) == 1)
        #expect(try Self.estimate(#"{ __typename }"#) == 0)
    }

    /// A batched field counts one call per batch of the smallest catalog's size: the estimate
    /// does not know which catalog a parent comes from.
    @Test func batchedFieldsCountCallsAtTheSmallestCatalogsBatchSize() throws {
        // 1 search + ⌈50 / 25⌉ artist lookups (Apple Music takes 25 artist ids, iTunes 200).
        #expect(try Self.estimate(#"{ albums(term: "x", first: 50) { artist { name } } }"#) == 3)
        // 1 search + 1 albums call + ⌈150 / 100⌉ album lookups (Apple Music `albums?ids=` takes 100).
        #expect(try Self.estimate(#"{ artist(name: "x") { albums(first: 150) { tracks { title } } } }"#) == 4)
        // 1 search + one albums call per artist (Apple Music and Rakuten ask per artist).
        #expect(try Self.estimate(#"{ artists(name: "x", first: 30) { albums { title } } }"#) == 31)
    }

    @Test func variableDefaultsCountWhenNoValueIsGiven() throws {
        let query =
            #"query($n: Int = 1) { artist(name: "x") { albums(first: $n) { tracks { videos(first: 1) { url } } } } }"#
        #expect(try Self.estimate(query) == 1_503)
        #expect(try Self.estimate(query, variables: JSONObject([("n", .int(2))])) == 3_003)
        let skipped = #"query($s: Boolean = true) { a: videos(query: "x") @skip(if: $s) { url } }"#
        #expect(try Self.estimate(skipped) == 0)
        #expect(try Self.estimate(skipped, variables: JSONObject([("s", .bool(false))])) == 100)
        let source =
            #"query($v: VideoSource = ITUNES) { track(id: "itunes:track:1") { videos(first: 2, source: $v) { title } } }"#
        #expect(try Self.estimate(source) == 2)
    }

    @Test func iTunesVideosCostOneUnitNotAYouTubeSearch() throws {
        let track = #"track(id: "itunes:track:300001")"#
        #expect(try Self.estimate("{ \(track) { videos(first: 2, source: ITUNES) { title } } }") == 2)
        #expect(try Self.estimate("{ \(track) { videos(first: 2, source: YOUTUBE) { title } } }") == 101)
        #expect(try Self.estimate("{ \(track) { videos(first: 2) { title } } }") == 101)
        #expect(
            try Self.estimate(
                "query($s: VideoSource) { \(track) { videos(source: $s) { title } } }",
                variables: JSONObject([("s", .string("ITUNES"))])) == 2)
    }

    @Test func skippedSelectionsCostNothing() throws {
        let query = #"""
            query($v: Boolean!) {
              a: videos(query: "x", first: 1) @include(if: $v) { url }
              b: videos(query: "x", first: 1) @skip(if: true) { url }
              ... @include(if: false) { c: videos(query: "x", first: 1) { url } }
              artist(name: "x") { albums(first: 1) { tracks { videos(first: 1) @skip(if: $v) { url } } } }
            }
            """#
        // With v false: a, b and c dropped; the tracks' videos count (15 x 100).
        #expect(try Self.estimate(query, variables: JSONObject([("v", .bool(false))])) == 1_503)
        // With v true: a counts (100); the tracks' videos are dropped.
        #expect(try Self.estimate(query, variables: JSONObject([("v", .bool(true))])) == 103)
        // v unknown: both counted, an upper bound.
        #expect(try Self.estimate(query) == 1_603)
    }

    @Test func fragmentsAndInterfacesCount() throws {
        let query = #"""
            { node(id: "itunes:track:1") { ...T } }
            fragment T on Track { videos(first: 2) { url } }
            """#
        #expect(try Self.estimate(query) == 101)
    }

    @Test func aFragmentSpreadTwiceInOneSelectionSetCountsOnce() throws {
        // As CollectFields merges them: without that, F22 would expand 2^22 times.
        var text = "{ ...F22 }\nfragment F0 on Query { videos(query: \"x\", first: 1) { url } }\n"
        for n in 1...22 { text += "fragment F\(n) on Query { ...F\(n - 1) ...F\(n - 1) }\n" }
        #expect(try Self.estimate(text) == 100)
    }

    @Test func fanOutThroughFieldsStopsAtTheWorkBudgetAsTheHighestCost() throws {
        // Each level selects the previous one under two aliases: 2^30 fields in ~1 KB.
        var text = "{ artist(name: \"x\") { ...F30 } }\nfragment F0 on Artist { name }\n"
        for n in 1...30 {
            text +=
                "fragment F\(n) on Artist { a: albums(first: 1) { artist { ...F\(n - 1) } } b: albums(first: 1) { artist { ...F\(n - 1) } } }\n"
        }
        #expect(try Self.estimate(text) == Int.max)
    }

    @Test func deepNestingSaturatesInsteadOfOverflowing() throws {
        // 18 levels of track → album → tracks: 15^18 tracks pass Int.max; the estimate used to
        // trap on the batch arithmetic and take the server down with it.
        var selection = "title"
        for _ in 0..<18 { selection = "album { tracks { \(selection) } }" }
        let cost = try Self.estimate(#"{ node(id: "itunes:track:1") { ... on Track { "# + selection + " } } }")
        #expect(cost >= Int.max / 1_000)
    }
}

@Suite struct SharedFailureTests {
    @Test func failuresRoundTripWithTheirTime() throws {
        let response = UpstreamResponse(status: 503, headers: ["retry-after": "1"], body: Array("busy".utf8))
        let cases: [(SharedFailure, String)] = [
            (.response(response), "503"), (.transport(.timedOut), "timedOut"),
            (.transport(.afterTries(.connectFailed(reason: "refused"), tries: 2)), "refused"),
            (.transport(.responseTooLarge(limitBytes: 4096)), "4096"), (.transport(.failed(reason: "reset")), "reset"),
        ]
        for (failure, label) in cases {
            let decoded = try #require(SharedFailure.decode(failure.encode(atMs: 1_764_000_000_123)), "\(label)")
            #expect(decoded.atMs == 1_764_000_000_123)
            switch (failure, decoded.failure) {
            case (.response(let a), .response(let b)):
                #expect(a.status == b.status && a.body == b.body && a.headers == b.headers)
            case (.transport(let a), .transport(let b)): #expect(a.underlying == b)
            default: Issue.record("\(label) decoded as another kind")
            }
        }
        #expect(SharedFailure.decode(Array("MGU1 not a failure".utf8)) == nil)
    }
}
