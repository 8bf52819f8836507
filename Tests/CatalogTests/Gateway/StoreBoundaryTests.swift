import Foundation
import HTTPTypes
import SharedState
import Synchronization
import Testing
import UpstreamEconomy

@testable import Catalog

/// A MemoryStore (not one to the gateway, which keeps no shared responses in a `MemoryStore`)
/// that keeps a copy of every key and value written to it, for tests of what reaches a store.
final class WrittenStore: SharedStore {
    let inner = MemoryStore()
    private let written = Mutex<[(key: String, value: [UInt8])]>([])
    var kind: String { "written" }

    /// Every entry written so far, in order (a removed one too).
    var writes: [(key: String, value: [UInt8])] { written.withLock { $0 } }

    func entry(_ key: String) async throws(SharedStoreError) -> StoredEntry? { try await inner.entry(key) }
    func putEntry(_ key: String, _ entry: StoredEntry) async throws(SharedStoreError) {
        written.withLock { $0.append((key, entry.value)) }
        try await inner.putEntry(key, entry)
    }
    func removeEntry(_ key: String) async throws(SharedStoreError) { try await inner.removeEntry(key) }
    func claim(_ key: String, holder: String, ttlMs: Int) async throws(SharedStoreError) -> Bool {
        written.withLock { $0.append((key, Array(holder.utf8))) }
        return try await inner.claim(key, holder: holder, ttlMs: ttlMs)
    }
    func releaseClaim(_ key: String, holder: String) async throws(SharedStoreError) {
        try await inner.releaseClaim(key, holder: holder)
    }
    func awaitRelease(_ key: String, timeoutMs: Int) async throws(SharedStoreError) -> Bool {
        try await inner.awaitRelease(key, timeoutMs: timeoutMs)
    }
    func addToCounter(_ key: String, units: Int, limit: Int?, expiresAtMs: Int64) async throws(SharedStoreError)
        -> CounterUpdate
    {
        written.withLock { $0.append((key, [])) }
        return try await inner.addToCounter(key, units: units, limit: limit, expiresAtMs: expiresAtMs)
    }
    func raiseCounter(_ key: String, to value: Int, expiresAtMs: Int64) async throws(SharedStoreError) -> Int {
        written.withLock { $0.append((key, [])) }
        return try await inner.raiseCounter(key, to: value, expiresAtMs: expiresAtMs)
    }
    func counter(_ key: String) async throws(SharedStoreError) -> Int { try await inner.counter(key) }
    func document(sha256: String) async throws(SharedStoreError) -> String? { try await inner.document(sha256: sha256) }
    func putDocument(sha256: String, text: String) async throws(SharedStoreError) {
        written.withLock { $0.append(("doc:" + sha256, Array(text.utf8))) }
        try await inner.putDocument(sha256: sha256, text: text)
    }
}

/// What the shared store holds: answers scoped by the upstream that gave them, and no secret.
@Suite struct SharedStoreBoundaryTests {
    /// Canaries with characters every encoding changes (`" / \ + = %`).
    static let secret = #"canarySTORE"12/3\4+5=6%7"#

    @Test func theOriginIsSchemeHostAndAnExplicitPortLowerCasedWithoutUserInfo() {
        #expect(
            SharedResponses.origin(of: "HTTPS://User:Pass@iTunes.Apple.COM:443/base?x=1") == "https://itunes.apple.com")
        #expect(SharedResponses.origin(of: "https://itunes.apple.com") == "https://itunes.apple.com")
        #expect(SharedResponses.origin(of: "http://127.0.0.1:9") == "http://127.0.0.1:9")
        #expect(SharedResponses.origin(of: "http://127.0.0.1:80/v1") == "http://127.0.0.1")
        #expect(SharedResponses.origin(of: "https://api.example.org:8443#f") == "https://api.example.org:8443")
        #expect(SharedResponses.origin(of: "http://[::1]:8080/youtube") == "http://[::1]:8080")
    }

    @Test func keysNameTheUpstreamOrTheScopeAndNoSecret() {
        let url = "https://API.themoviedb.org/3/search/movie?query=Rock&api_key=k3y-0001"
        let headers = [(name: "Authorization", value: "Bearer t0ken-0001")]
        let real = SharedResponses(
            store: WrittenStore(), clock: .system, claimTTLMs: 1_000,
            baseURLs: [.tmdb: "https://API.themoviedb.org"], secrets: ["k3y-0001"])
        #expect(
            real.key(.tmdb, url: url, headers: headers) == "https://api.themoviedb.org|tmdb:/3/search/movie?query=Rock")
        let demo = SharedResponses(
            store: WrittenStore(), clock: .system, claimTTLMs: 1_000,
            baseURLs: [.tmdb: "https://API.themoviedb.org"], scope: "demo")
        #expect(demo.key(.tmdb, url: url, headers: headers) == "demo|tmdb:/3/search/movie?query=Rock")
        // No base URL for the provider: the key is the whole URL, under its own origin.
        let bare = SharedResponses(store: WrittenStore(), clock: .system, claimTTLMs: 1_000)
        #expect(
            bare.key(.tmdb, url: url, headers: headers)
                == "https://api.themoviedb.org|tmdb:https://API.themoviedb.org/3/search/movie?query=Rock")
    }

    @Test func bodiesHeadersAndFailureTextsAreMaskedOnTheirWayIntoTheStore() async throws {
        let store = WrittenStore()
        let shared = SharedResponses(store: store, clock: .system, claimTTLMs: 5_000, secrets: [Self.secret])
        let base64 = Data(Self.secret.utf8).base64EncodedString()
        let percent = try #require(Self.secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let escaped = Self.secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\"")
        let response = UpstreamResponse(
            status: 200, headers: ["Location": "https://x.test/?key=" + percent, "X-Token": base64],
            body: Array(#"{"message":"key \#(escaped) or \#(Self.secret)"}"#.utf8))
        await shared.store(response, for: "k1", until: .now.advanced(by: .seconds(60)))
        await shared.storeFailure(.response(UpstreamResponse(status: 401, body: Array(percent.utf8))), for: "k2")
        await shared.storeFailure(.transport(.failed(reason: "reset after key=\(Self.secret)")), for: "k3")
        await shared.storeFailure(.transport(.connectFailed(reason: "refused: \(base64)")), for: "k4")
        await shared.storeFailure(.transport(.notRecorded(request: "GET /x?key=\(percent)")), for: "k5")

        let writes = store.writes
        #expect(writes.map(\.key) == ["u:k1", "f:k2", "f:k3", "f:k4", "f:k5"])
        for write in writes {
            let text = String(decoding: write.value, as: UTF8.self)
            #expect(CanaryForms.leaks(of: [Self.secret], in: text).isEmpty, "\(write.key): \(text)")
            #expect(text.contains("***"), "\(write.key): \(text)")
        }
        // What is read back is the masked answer, still a whole one.
        let hit = try #require(await shared.lookUp("k1")).response
        #expect(hit.status == 200)
        #expect(hit.headers == ["location": "https://x.test/?key=***", "x-token": "***"])
        #expect(String(decoding: hit.body, as: UTF8.self) == #"{"message":"key *** or ***"}"#)
        let failure = try #require(await shared.failure("k3", sinceMs: 0))
        guard case .transport(.failed(let reason)) = failure else {
            Issue.record("decoded as \(failure)")
            return
        }
        #expect(reason == "reset after key=***")
        // The in-process answer is the upstream's, untouched.
        #expect(String(decoding: response.body, as: UTF8.self).contains(Self.secret))
    }

    @Test func withoutSecretsTheStoredBytesAreTheResponseAsItIs() async throws {
        let store = WrittenStore()
        let shared = SharedResponses(store: store, clock: .system, claimTTLMs: 5_000, secrets: ["abc"])  // too short
        #expect(shared.scrubber.isEmpty)
        let response = UpstreamResponse(status: 200, headers: ["ETag": "abc"], body: Array("abc abcd".utf8))
        await shared.store(response, for: "k", until: .now.advanced(by: .seconds(60)))
        #expect(store.writes.map(\.value) == [StoredUpstreamResponse.encode(response)])
    }
}

extension LoopbackTests {
    /// Gateways on one shared store, against DemoUpstreams over loopback.
    @Suite struct StoreBoundaries {
        static let nested = #"{ artist(name: "AC/DC") { name albums(first: 2) { title tracks { title } } } }"#

        static func gateway(
            _ loopback: Loopback, _ store: WrittenStore, configure: (inout GatewayConfiguration) -> Void = { _ in }
        )
            throws -> GatewayHarness
        {
            var configuration = GatewayHarness.configuration(baseURL: loopback.baseURL)
            configure(&configuration)
            return GatewayHarness(gateway: try Gateway(configuration: configuration, store: store), loopback: loopback)
        }

        @Test func anotherBaseURLForTheSameProviderNeverReadsTheFirstOnesAnswers() async throws {
            try await Loopback.run { first in
                try await Loopback.run { second in
                    let store = WrittenStore()
                    let filled = try await Self.gateway(first, store).query(Self.nested)
                    #expect(filled.result.errors == [])
                    #expect(filled.counts.totalRequests == 3)
                    // A new gateway (its own in-process cache) on the same upstream: all from the store.
                    let again = try await Self.gateway(first, store).query(Self.nested)
                    #expect(again.counts.totalRequests == 0)
                    #expect(again.counts.cacheHits == 3)
                    #expect(again.result.data == filled.result.data)
                    // Another base URL of the provider: its own requests, none of the first one's answers.
                    let other = try await Self.gateway(second, store).query(Self.nested)
                    #expect(other.result.errors == [])
                    #expect(other.counts.totalRequests == 3)
                    #expect(other.counts.cacheHits == 0)
                    #expect(try await second.requestLog().entries.count == 3)
                    let answers = store.writes.map(\.key).filter { $0.hasPrefix("u:") }
                    #expect(answers.count == 6)
                    for loopback in [first, second] {
                        let prefix = "u:" + loopback.baseURL.lowercased() + "|itunes:/"
                        #expect(answers.filter { $0.hasPrefix(prefix) }.count == 3, "\(prefix) in \(answers)")
                    }
                }
            }
        }

        @Test func aScopeStandsInForTheOriginSoADemoOnAnotherPortStillHits() async throws {
            try await Loopback.run { first in
                try await Loopback.run { second in
                    let store = WrittenStore()
                    let filled = try await Self.gateway(first, store) { $0.sharedKeyScope = "demo" }.query(Self.nested)
                    #expect(filled.counts.totalRequests == 3)
                    let other = try await Self.gateway(second, store) { $0.sharedKeyScope = "demo" }.query(Self.nested)
                    #expect(other.counts.totalRequests == 0)
                    #expect(other.counts.cacheHits == 3)
                    #expect(other.result.data == filled.result.data)
                    let answers = store.writes.map(\.key).filter { $0.hasPrefix("u:") }
                    #expect(answers.count == 3)
                    #expect(answers.allSatisfy { $0.hasPrefix("u:demo|itunes:/") }, "\(answers)")
                }
            }
        }

        /// Every provider's upstream echoes the request's credentials back (as an error, and as a
        /// 200 that is kept): what the gateway writes to its store holds none of them, in any form.
        @Test func upstreamsEchoingTheirKeysLeaveNoKeyInTheStore() async throws {
            let canaries = (
                youTube: #"canaryYT"12/3\4+5=6%7"#, tmdb: #"canaryTMDB"8/9\0+1=2%3"#,
                appleMusic: #"canaryAPPLE"789/\+=%"#, rakuten: #"canaryRK"45/6\7+8=9%0"#
            )
            let secrets = [canaries.youTube, canaries.tmdb, canaries.appleMusic, canaries.rakuten]
            let query = """
                { artist(name: "AC/DC") { albums(first: 1) { tracks { videos(first: 1) { title } } } }
                  a: artists(name: "AC/DC", source: APPLE_MUSIC) { name }
                  r: albums(term: "Rock", source: RAKUTEN, first: 1) { title }
                  movies(query: "Rock") { title } videos(query: "AC/DC") { title } }
                """
            try await Loopback.run { loopback in
                let store = WrittenStore()
                for fault in [#"{"/": {"echo": true, "status": 401}}"#, #"{"/": {"echo": true, "status": 200}}"#] {
                    try await loopback.setFaults(fault)
                    // A new gateway each time: nothing is answered from the last one's memory.
                    let h = try Self.gateway(loopback, store) { configuration in
                        configuration.youTubeAPIKey = canaries.youTube
                        configuration.tmdbAPIKey = canaries.tmdb
                        configuration.appleMusicToken = canaries.appleMusic
                        configuration.rakutenApplicationId = canaries.rakuten
                    }
                    _ = try await h.query(query)
                }
                let writes = store.writes
                let failures = writes.filter { $0.key.hasPrefix("f:") }
                let answers = writes.filter { $0.key.hasPrefix("u:") }
                #expect(failures.count >= 5)
                #expect(answers.count >= 5)
                let texts = writes.map { String(decoding: $0.value, as: UTF8.self) }
                // The echoes did reach the store, masked.
                #expect(texts.contains { $0.contains("rejected: authorization=Bearer ***") })
                #expect(texts.contains { $0.contains("key=***") })
                for (write, text) in zip(writes, texts) {
                    #expect(CanaryForms.leaks(of: secrets, in: write.key).isEmpty, "key \(write.key)")
                    #expect(CanaryForms.leaks(of: secrets, in: text).isEmpty, "\(write.key): \(text.prefix(2_000))")
                }
            }
        }
    }
}
