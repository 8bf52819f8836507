import Foundation
import HTTPTypes
import SharedState

/// The upstream responses of a `Gateway` in its `SharedStore`, under the in-process
/// `UpstreamCache`: a response another process (or this one before a restart) fetched is a
/// cache hit here. Keys are `u:` + the request's shared key (`key(_:url:headers:)`: the upstream
/// that answers it, the provider and the request relative to its base URL, without secrets);
/// values are `StoredUpstreamResponse` bytes with the response's expiry in wall-clock
/// milliseconds.
///
/// Nothing written holds a configured secret: bodies, header values and failure texts pass
/// through `scrubber` on their way into the store (a store is a file or a server that outlives
/// the process; the in-process cache keeps what the upstream sent).
///
/// A request one process is sending is awaited by the others: its sender holds a claim on the
/// key (`c:` + the shared key) until its response is stored, for at most `claimTTLMs`.
///
/// Every store failure is a miss (reads), nothing kept (writes) or "send it yourself" (claims),
/// noted in `health`: the store never fails a query, it only saves upstream requests when it
/// works.
package struct SharedResponses: Sendable {
    package let store: any SharedStore
    package let clock: WallClock
    /// Every call's outcome, for `/metrics` and `/readyz`.
    package let health: StoreHealth
    /// This gateway's name on its claims: host, process id and a random part, unique per start.
    package let holder: String
    /// How long a claim holds (ms): the longest a send may take with its tries, plus a margin.
    /// A holder that crashes blocks the others no longer than this.
    package let claimTTLMs: Int

    /// Each provider's base URL, stripped from the keys.
    package let baseURLs: [UpstreamService: String]
    /// What every key of a provider starts with: the scope when there is one
    /// (`GatewayConfiguration.sharedKeyScope`), else the origin of its base URL (`origin(of:)`),
    /// so that one upstream's answers are never served as another's.
    package let scopes: [UpstreamService: String]
    /// Masks the configured secrets in what is written; empty when there are none.
    package let scrubber: SecretScrubber
    /// The secrets a request key may carry outside the known secret parameters (a declared
    /// upstream's `{$env.…}` query entries and headers): masked in the key before it is written.
    package let keySecrets: [String]

    package init(
        store: any SharedStore, clock: WallClock, claimTTLMs: Int, baseURLs: [UpstreamService: String] = [:],
        scope: String? = nil, secrets: [String] = [], keySecrets: [String] = []
    ) {
        self.store = store
        self.baseURLs = baseURLs
        self.scopes = baseURLs.mapValues { scope ?? Self.origin(of: $0) }
        self.keySecrets = keySecrets
        self.scrubber = SecretScrubber(secrets: secrets)
        self.clock = clock
        self.health = StoreHealth(kind: store.kind)
        self.claimTTLMs = max(100, claimTTLMs)
        let process = ProcessInfo.processInfo
        self.holder = "\(process.hostName):\(process.processIdentifier):\(UUID().uuidString.prefix(8))"
    }

    /// The key of a GET of `url` with `headers` to `service` in the store: the upstream's scope,
    /// `|`, the provider, then the request key relative to the provider's base URL
    /// (`RecordedExchange.requestKey`: secret parameters and `Authorization` dropped), e.g.
    /// `https://api.example.com|releases:/ws/search?query=abba`, or with the scope `demo` (a
    /// local server on a random port) `demo|releases:/ws/search?…`.
    package func key(_ service: UpstreamService, url: String, headers: [(name: String, value: String)]) -> String {
        let base = baseURLs[service]
        let relative = RecordedExchange.requestKey(
            url: url, headers: headers, baseURLs: base.map { [$0] } ?? [], secrets: keySecrets)
        // Without a base URL the key is the whole URL, which names its upstream already.
        let scope = scopes[service] ?? Self.origin(of: url)
        return scope + "|" + service.rawValue + ":" + relative
    }

    /// `scheme://host[:port]` of `url`, lower-cased: no user info (it may hold a password), path
    /// or query; the port only when it is not the scheme's default (80 for http, 443 for https),
    /// so that both spellings of one upstream share its answers.
    package static func origin(of url: String) -> String {
        var rest = Substring(url)
        var scheme = ""
        if let separator = rest.range(of: "://") {
            scheme = rest[..<separator.lowerBound].lowercased()
            rest = rest[separator.upperBound...]
        }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority.lowercased()
        let defaultPort = ["http": ":80", "https": ":443"][scheme]
        if let defaultPort, host.hasSuffix(defaultPort) { host.removeLast(defaultPort.count) }
        return scheme.isEmpty ? host : scheme + "://" + host
    }

    /// The live response stored under `key` and the instant it stops being served; nil when
    /// there is none, it has expired, it does not decode, or the store failed.
    package func lookUp(_ key: String) async -> (response: UpstreamResponse, expires: ContinuousClock.Instant)? {
        let store = self.store
        guard
            let found = await health.attempt({ () async throws(SharedStoreError) in try await store.entry("u:" + key) }
            ),
            let entry = found, let response = StoredUpstreamResponse.decode(entry.value)
        else { return nil }
        let remainingMs = entry.expiresAtMs - clock.nowMs()
        guard remainingMs > 0 else { return nil }
        return (response, ContinuousClock.now.advanced(by: .milliseconds(remainingMs)))
    }

    /// Keeps `response` under `key` until `expires` (a failure keeps nothing).
    package func store(_ response: UpstreamResponse, for key: String, until expires: ContinuousClock.Instant) async {
        // Masking a body's secrets is no small work: none for a store that would drop it.
        guard store.isTakingCalls else { return }
        let remaining = ContinuousClock.now.duration(to: expires)
        let remainingMs =
            remaining.components.seconds * 1_000 + remaining.components.attoseconds / 1_000_000_000_000_000
        guard remainingMs > 0 else { return }
        let entry = StoredEntry(
            value: StoredUpstreamResponse.encode(response, scrubbing: scrubber),
            expiresAtMs: clock.nowMs() + remainingMs
        )
        let store = self.store
        _ = await health.attempt { () async throws(SharedStoreError) in try await store.putEntry("u:" + key, entry) }
    }

    /// Keeps, for one claim TTL, how this process's send of `key` failed, for the processes
    /// waiting on its claim (before it lets go of the claim).
    package func storeFailure(_ failure: SharedFailure, for key: String) async {
        guard store.isTakingCalls else { return }
        let now = clock.nowMs()
        let entry = StoredEntry(
            value: failure.encode(atMs: now, scrubbing: scrubber), expiresAtMs: now + Int64(claimTTLMs))
        let store = self.store
        _ = await health.attempt { () async throws(SharedStoreError) in try await store.putEntry("f:" + key, entry) }
    }

    /// How a send of `key` failed at `sinceMs` or later (wall clock, the sender's), for a caller
    /// that has waited on its claim since then; nil when none did, or the store failed.
    package func failure(_ key: String, sinceMs: Int64) async -> SharedFailure? {
        let store = self.store
        guard
            let found = await health.attempt({ () async throws(SharedStoreError) in try await store.entry("f:" + key) }
            ),
            let entry = found, entry.expiresAtMs > clock.nowMs(),
            let (failure, atMs) = SharedFailure.decode(entry.value),
            atMs >= sinceMs
        else { return nil }
        return failure
    }

    /// Drops the response under `key` (one the caller found it cannot use).
    package func remove(_ key: String) async {
        let store = self.store
        _ = await health.attempt { () async throws(SharedStoreError) in try await store.removeEntry("u:" + key) }
    }

    // MARK: Claims on the requests in flight, across processes (`c:` + the cache key)

    /// Takes the fleet-wide claim on sending `key`. True when this gateway may send: it holds
    /// the claim, or the store failed (then nobody can be waited for).
    package func claim(_ key: String) async -> Bool {
        let (store, holder, ttl) = (self.store, self.holder, claimTTLMs)
        return await health.attempt { () async throws(SharedStoreError) in
            try await store.claim("c:" + key, holder: holder, ttlMs: ttl)
        } ?? true
    }

    /// Waits, at most one claim TTL, until whoever holds the claim on `key` lets go.
    package func awaitRelease(_ key: String) async {
        let (store, ttl) = (self.store, claimTTLMs)
        _ = await health.attempt { () async throws(SharedStoreError) in
            try await store.awaitRelease("c:" + key, timeoutMs: ttl)
        }
    }

    /// Lets go of this gateway's claim on `key`, after its response is stored (so that those
    /// woken find it).
    package func release(_ key: String) async {
        let (store, holder) = (self.store, self.holder)
        _ = await health.attempt { () async throws(SharedStoreError) in
            try await store.releaseClaim("c:" + key, holder: holder)
        }
    }
}

/// An `UpstreamResponse` as bytes in a shared store: `MGU1`, the status (2 bytes), the header
/// count (2 bytes), each header's name and value, then the body, each as a 4-byte big-endian
/// length and its bytes. `tries` is not kept: a hit was not sent.
package enum StoredUpstreamResponse {
    private static let magic = Array("MGU1".utf8)

    /// The bytes of `response`, its header values and body with every secret of `scrubber`
    /// masked (nothing is scanned when it has none).
    package static func encode(_ response: UpstreamResponse, scrubbing scrubber: SecretScrubber? = nil) -> [UInt8] {
        let scrubber = scrubber.flatMap { $0.isEmpty ? nil : $0 }
        let body = scrubber?.scrub(response.body) ?? response.body
        var bytes = magic
        bytes.reserveCapacity(body.count + 64 + response.headers.count * 48)
        append(UInt32(clamping: response.status), width: 2, to: &bytes)
        let headers = response.headers.sorted { $0.key < $1.key }.prefix(Int(UInt16.max))
        append(UInt32(headers.count), width: 2, to: &bytes)
        for (name, value) in headers {
            appendField(Array(name.utf8), to: &bytes)
            appendField(Array((scrubber?.scrub(value) ?? value).utf8), to: &bytes)
        }
        appendField(body, to: &bytes)
        return bytes
    }

    /// The response `bytes` hold; nil when they are not one (another version, truncated, extra bytes).
    package static func decode(_ bytes: [UInt8]) -> UpstreamResponse? {
        var reader = Reader(bytes: bytes)
        guard reader.take(magic.count) == magic[...], let status = reader.number(width: 2),
            let count = reader.number(width: 2)
        else { return nil }
        var headers: [String: String] = [:]
        for _ in 0..<count {
            guard let name = reader.field(), let value = reader.field() else { return nil }
            headers[String(decoding: name, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
        }
        guard let body = reader.field(), reader.atEnd else { return nil }
        return UpstreamResponse(status: Int(status), headers: headers, body: Array(body))
    }

    private static func append(_ value: UInt32, width: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    private static func appendField(_ field: [UInt8], to bytes: inout [UInt8]) {
        append(UInt32(clamping: field.count), width: 4, to: &bytes)
        bytes.append(contentsOf: field)
    }

    private struct Reader {
        package let bytes: [UInt8]
        package var offset = 0

        package var atEnd: Bool { offset == bytes.count }

        package mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        package mutating func number(width: Int) -> UInt32? {
            take(width).map { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        }

        package mutating func field() -> ArraySlice<UInt8>? {
            number(width: 4).flatMap { take(Int($0)) }
        }
    }
}
