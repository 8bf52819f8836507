import Foundation
import GraphQL
import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

/// The models decoded from a kept upstream response are kept beside its bytes: a hit is a
/// lookup, not a decode, and the decoded size counts against the cache's byte bound.
@Suite struct DecodedValuesTests {
    /// Hands out one response (as a cache hit would) and counts nothing else.
    struct FixedTransport: UpstreamTransport {
        let response: UpstreamResponse
        func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse { response }
    }

    final class Counter: Sendable {
        let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    static let body = Array(
        #"{"resultCount":1,"results":[{"wrapperType":"collection","collectionType":"Album","collectionId":1440857781,"artistId":5040714,"artistName":"AC/DC","collectionName":"Back In Black","trackCount":10,"releaseDate":"1980-07-25T07:00:00Z","primaryGenreName":"Hard Rock"}]}"#
            .utf8)

    @Test func aKeptResponseIsDecodedOncePerCallSite() async throws {
        let cache = UpstreamCache(maxBytes: 1 << 20)
        let kept = cache.keepable(UpstreamResponse(status: 200, body: Self.body), for: "k")
        cache.store(kept, for: "k", ttlSeconds: 60)
        let call = UpstreamCall(service: .iTunes, transport: FixedTransport(response: kept), secrets: [])
        let decodes = Counter()
        var titles: [[String]] = []
        for _ in 0..<3 {
            let albums = try await call.fetch("http://x/lookup?id=1") { status, headers, body throws(UpstreamError) in
                decodes.increment()
                return try ITunesProvider.decodeAlbums(status: status, headers: headers, body: body)
            }
            titles.append(albums.map(\.title))
        }
        #expect(decodes.value == 1)
        #expect(titles == Array(repeating: ["Back In Black"], count: 3))
        // Another call site (another decoder) decodes for itself, once too.
        let artists = try await call.fetch("http://x/lookup?id=1", decode: ITunesProvider.decodeArtists)
        #expect(artists.isEmpty)
        #expect(kept.decoded?.count == 2)
    }

    /// A decoder whose result is optional (TMDB's movie by id) finds nothing kept before its
    /// first run, not a kept nil.
    @Test func anOptionalResultIsDecodedBeforeItIsKept() async throws {
        let cache = UpstreamCache(maxBytes: 1 << 20)
        let kept = cache.keepable(UpstreamResponse(status: 200, body: Self.body), for: "k")
        let call = UpstreamCall(service: .iTunes, transport: FixedTransport(response: kept), secrets: [])
        for _ in 0..<2 {
            let album: Album? = try await call.fetch("http://x/lookup?id=1") {
                status, headers, body throws(UpstreamError) in
                try ITunesProvider.decodeAlbums(status: status, headers: headers, body: body).first
            }
            #expect(album?.title == "Back In Black")
        }
    }

    @Test func aResponseNobodyKeepsIsDecodedEveryTime() async throws {
        let call = UpstreamCall(
            service: .iTunes, transport: FixedTransport(response: UpstreamResponse(status: 200, body: Self.body)),
            secrets: [])
        let decodes = Counter()
        for _ in 0..<2 {
            _ = try await call.fetch("http://x/lookup?id=1") { status, headers, body throws(UpstreamError) in
                decodes.increment()
                return try ITunesProvider.decodeAlbums(status: status, headers: headers, body: body)
            }
        }
        #expect(decodes.value == 2)
    }

    @Test func decodedValuesCountAgainstTheByteBound() async throws {
        let cache = UpstreamCache(maxBytes: 4_000)
        let kept = cache.keepable(UpstreamResponse(status: 200, body: Self.body), for: "a")
        cache.store(kept, for: "a", ttlSeconds: 60)
        let bodyOnly = cache.usage.bytes
        #expect(bodyOnly == Self.body.count + 1 + 256)
        let call = UpstreamCall(service: .iTunes, transport: FixedTransport(response: kept), secrets: [])
        let albums = try await call.fetch("http://x/lookup?id=1", decode: ITunesProvider.decodeAlbums)
        // One decoded value is charged as much again as its body (the documented estimate).
        #expect(albums.count == 1)
        #expect(cache.usage.bytes - bodyOnly == Self.body.count)
        // The estimate is not below what the value holds: an `Album`'s inline size plus its
        // out-of-line strings (those over 15 UTF-8 bytes).
        let album = albums[0]
        let strings = [album.id, album.title, album.artistName, album.genre, album.artworkURL, album.url]
            .compactMap { $0 }.filter { $0.utf8.count > 15 }
        #expect(MemoryLayout<Album>.size + strings.reduce(0) { $0 + $1.utf8.count + 32 } <= Self.body.count)
        // Filling the cache past its bound evicts the decoded-heavy entry like any other.
        cache.store(UpstreamResponse(status: 200, body: Array(repeating: 0x41, count: 3_000)), for: "b", ttlSeconds: 60)
        #expect(cache.lookUp("a") == nil)
        #expect(cache.usage.bytes <= 4_000)
    }

    @Test func aReplacedEntryIsNotChargedForTheOldValues() async throws {
        let cache = UpstreamCache(maxBytes: 1 << 20)
        let old = cache.keepable(UpstreamResponse(status: 200, body: Self.body), for: "a")
        cache.store(old, for: "a", ttlSeconds: 60)
        cache.store(UpstreamResponse(status: 200, body: Self.body), for: "a", ttlSeconds: 60)
        let before = cache.usage.bytes
        let call = UpstreamCall(service: .iTunes, transport: FixedTransport(response: old), secrets: [])
        _ = try await call.fetch("http://x/lookup?id=1", decode: ITunesProvider.decodeAlbums)
        #expect(cache.usage.bytes == before)
    }

    /// Through the gateway and a real DemoUpstream: executions without the result cache read
    /// the iTunes responses from the cache, and every response they read carries its decoded
    /// models after the first one, with the same answer each time.
    @Test func repeatedExecutionsShareTheDecodedModels() async throws {
        try await GatewayHarness.configured { $0.cacheResults = false }.run { harness in
            let query = #"{ albums(term: "rock", first: 50) { id title artist { id name } } }"#
            let first = try await harness.query(query)
            let second = try await harness.query(query)
            #expect(first.counts.totalRequests == 2 && second.counts.totalRequests == 0)
            // The page and each album's artist answered from the loaders' kept answers.
            let albums = first.result.data?["albums"].flatMap { if case .array(let items) = $0 { items } else { nil } }
            #expect(second.counts.cacheHits == 1 + (albums?.count ?? 0))
            #expect(
                JSONWriter.serialize(first.result.data ?? .null) == JSONWriter.serialize(second.result.data ?? .null))
            let cache = try #require(harness.gateway.cache)
            #expect(cache.upstreamKeys.count == 2)
            for key in cache.upstreamKeys {
                #expect(cache.lookUp(key)?.decoded?.count == 1, "\(key)")
            }
        }
    }
}
