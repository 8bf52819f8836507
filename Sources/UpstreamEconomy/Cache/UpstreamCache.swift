import GraphQL
import LRU
import Synchronization

/// Upstream responses kept across requests, and the GraphQL results built from nothing else:
/// bounded by total bytes (bodies, keys, and the models decoded from a kept response, estimated
/// as `DecodedValues` says), least recently used evicted first, each entry valid until its
/// own expiry (TTL per provider, or the response's `Cache-Control: max-age`; a result until
/// the first of its responses expires). Upstream keys are whole requests minus secrets
/// (`cacheKey`); result keys are `resultKey`s, which no URL can equal.
///
/// Thread-safe; one per `Gateway`. Only 2xx responses are stored (errors are never cached,
/// so a retry after an outage reaches the upstream again). An upstream response past its expiry
/// is kept `staleIfErrorSeconds` longer (in the byte bound, evicted as any other): never a hit,
/// but what `lookUpStale` serves when the upstream cannot answer (RFC 5861 `stale-if-error`).
public final class UpstreamCache: Sendable {
    /// What an entry holds.
    package enum Value {
        case upstream(UpstreamResponse)
        case result(any KeptResult)
        /// One batch of a loader's answers kept in an `AnswerMemo`: the entry only holds their
        /// place in the byte bound, and tells the memo to forget them when it leaves the cache.
        case answers(KeptAnswers)
    }

    package struct Entry {
        package var value: Value
        package var expires: ContinuousClock.Instant
        /// When the value was stored: a stale copy's age counts from it.
        package var storedAt: ContinuousClock.Instant
    }

    package struct State {
        /// Every entry with its bytes (body, key and overhead), in order of use.
        package var entries = LRUDictionary<ExactStringKey, Entry>()
    }

    /// The most body bytes (plus key bytes) kept at once.
    public let maxBytes: Int
    /// How long an upstream response is kept past its expiry, to be served stale when its
    /// upstream fails; 0 for not at all.
    public let staleIfErrorSeconds: Int
    private let state = Mutex(State())

    public init(maxBytes: Int, staleIfErrorSeconds: Int = 0) {
        self.maxBytes = max(0, maxBytes)
        self.staleIfErrorSeconds = max(0, staleIfErrorSeconds)
    }

    /// The response kept under `key` past its expiry but within `staleIfErrorSeconds` of it, and
    /// its age in whole seconds (since it was stored); nil when there is none, or it is fresh
    /// (then `lookUp` answers it).
    package func lookUpStale(_ key: String, now: ContinuousClock.Instant = .now) -> (
        response: UpstreamResponse, ageSeconds: Int
    )? {
        guard staleIfErrorSeconds > 0 else { return nil }
        return state.withLock { state in
            guard let entry = state.entries.peekValue(forKey: ExactStringKey(key)),
                case .upstream(let response) = entry.value,
                entry.expires <= now, now < entry.expires.advanced(by: .seconds(staleIfErrorSeconds))
            else { return nil }
            return (response, Int(entry.storedAt.duration(to: now).components.seconds))
        }
    }

    /// The live response stored under `key`, marking it recently used; nil when absent or expired.
    public func lookUp(_ key: String, now: ContinuousClock.Instant = .now) -> UpstreamResponse? {
        lookUpWithExpiry(key, now: now)?.response
    }

    /// `lookUp`, with the instant the response stops being served.
    package func lookUpWithExpiry(_ key: String, now: ContinuousClock.Instant = .now)
        -> (response: UpstreamResponse, expires: ContinuousClock.Instant)?
    {
        guard let (value, expires) = liveValue(key, now: now), case .upstream(let response) = value else { return nil }
        return (response, expires)
    }

    /// Stores `response` under `key` for `ttlSeconds` (nothing when ≤ 0 or larger than the
    /// whole cache), evicting least recently used entries to stay within `maxBytes`.
    /// - Returns: the instant the stored response expires; nil when it was not stored.
    @discardableResult
    public func store(
        _ response: UpstreamResponse, for key: String, ttlSeconds: Int, now: ContinuousClock.Instant = .now
    ) -> ContinuousClock.Instant? {
        guard ttlSeconds > 0 else { return nil }
        let expires = now.advanced(by: .seconds(ttlSeconds))
        return insert(.upstream(response), for: key, bytes: response.body.count, expires: expires) ? expires : nil
    }

    /// Stores `response` under `key` until `expires` (a response another process fetched, with
    /// the expiry it was stored with), evicting as `store(_:for:ttlSeconds:now:)` does.
    /// - Returns: false when it was not stored (expired already, or larger than the whole cache).
    @discardableResult
    package func store(
        _ response: UpstreamResponse, for key: String, until expires: ContinuousClock.Instant,
        now: ContinuousClock.Instant = .now
    ) -> Bool {
        guard expires > now else { return false }
        return insert(.upstream(response), for: key, bytes: response.body.count, expires: expires)
    }

    /// `response` as this cache keeps it under `key`: with a `DecodedValues` of its own, whose
    /// values are charged to the entry's bytes as they are decoded (the byte bound covers the
    /// decoded models too). Give every reader the returned response, and `store` it.
    package func keepable(_ response: UpstreamResponse, for key: String) -> UpstreamResponse {
        var response = response
        let key = ExactStringKey(key)
        response.decoded = DecodedValues(bodyBytes: response.body.count) { [weak self] bytes, values in
            self?.charge(bytes, to: key, holding: values)
        }
        return response
    }

    /// Adds `bytes` of decoded values to the entry under `key`, when it still holds `values`
    /// (not evicted or replaced since), evicting least recently used entries to stay in bounds.
    private func charge(_ bytes: Int, to key: ExactStringKey, holding values: DecodedValues) {
        let forgotten = state.withLock { state -> [KeptAnswers] in
            guard let index = state.entries.index(forKey: key),
                case .upstream(let response) = state.entries[index].value,
                response.decoded === values
            else { return [] }
            state.entries.addBytes(bytes, at: index)
            return state.evict(toFit: maxBytes)
        }
        for answers in forgotten { answers.forget() }
    }

    /// Holds `bytes` of a memo's answers in the byte bound until `expires`, evicted with the
    /// rest (least recently kept first; a memo hit does not mark it used, that would take this
    /// cache's lock for every field answered). The memo forgets the answers when it is evicted.
    /// - Returns: false when it was not kept (expired already, or larger than the whole cache):
    ///   the caller forgets them.
    package func keep(
        _ answers: KeptAnswers, bytes: Int, until expires: ContinuousClock.Instant, now: ContinuousClock.Instant = .now
    )
        -> Bool
    {
        guard expires > now else { return false }
        // No URL or result key starts with a NUL byte.
        let key = ExactStringKey("\u{0}answers \(answers.id)")
        return insert(.answers(answers), for: key, bytes: bytes, expires: expires)
    }

    /// Drops the entry under `key`, if any.
    public func remove(_ key: String) {
        let key = ExactStringKey(key)
        state.withLock { state in
            _ = state.entries.removeValue(forKey: key)
        }
    }

    /// The live result stored under `resultKey`, marking it recently used.
    public func lookUpResult(_ resultKey: String, now: ContinuousClock.Instant = .now) -> (any KeptResult)? {
        lookUpResult(ExactStringKey(resultKey), now: now)
    }

    package func lookUpResult(_ resultKey: ExactStringKey, now: ContinuousClock.Instant = .now) -> (any KeptResult)? {
        lookUpResultWithExpiry(resultKey, now: now)?.result
    }

    /// `lookUpResult`, with the instant the result stops being served.
    package func lookUpResultWithExpiry(_ resultKey: ExactStringKey, now: ContinuousClock.Instant = .now)
        -> (result: any KeptResult, expires: ContinuousClock.Instant)?
    {
        guard let (value, expires) = liveValue(resultKey, now: now), case .result(let result) = value else {
            return nil
        }
        return (result, expires)
    }

    /// Stores a GraphQL result until `expires` (nothing when that has passed or the result is
    /// larger than the whole cache), evicting as `store` does.
    public func storeResult(
        _ result: any KeptResult, for resultKey: String, expires: ContinuousClock.Instant,
        now: ContinuousClock.Instant = .now
    ) {
        storeResult(result, for: ExactStringKey(resultKey), expires: expires, now: now)
    }

    package func storeResult(
        _ result: any KeptResult, for resultKey: ExactStringKey, expires: ContinuousClock.Instant,
        now: ContinuousClock.Instant = .now
    ) {
        guard expires > now else { return }
        insert(
            .result(result), for: resultKey, bytes: result.keptBytes,
            expires: expires)
    }

    private func liveValue(_ text: String, now: ContinuousClock.Instant) -> (Value, ContinuousClock.Instant)? {
        liveValue(ExactStringKey(text), now: now)
    }

    private func liveValue(_ key: ExactStringKey, now: ContinuousClock.Instant) -> (Value, ContinuousClock.Instant)? {
        state.withLock { state in
            guard let index = state.entries.index(forKey: key) else { return nil }
            let entry = state.entries[index]
            guard entry.expires > now else {
                // An upstream response stays for `lookUpStale` while it may still be served stale.
                if case .upstream = entry.value, now < entry.expires.advanced(by: .seconds(staleIfErrorSeconds)) {
                    return nil
                }
                state.entries.remove(at: index)
                return nil
            }
            state.entries.use(at: index)
            return (entry.value, entry.expires)
        }
    }

    /// Adds an entry of `bodyBytes` (plus its key and a fixed overhead); false when it alone is
    /// over `maxBytes`.
    @discardableResult
    private func insert(_ value: Value, for text: String, bytes bodyBytes: Int, expires: ContinuousClock.Instant)
        -> Bool
    {
        insert(value, for: ExactStringKey(text), bytes: bodyBytes, expires: expires)
    }

    @discardableResult
    private func insert(
        _ value: Value, for key: ExactStringKey, bytes bodyBytes: Int, expires: ContinuousClock.Instant
    ) -> Bool {
        let bytes = bodyBytes + key.utf8.count + 256
        guard bytes <= maxBytes else { return false }
        let forgotten = state.withLock { state -> [KeptAnswers] in
            state.entries.updateValue(Entry(value: value, expires: expires, storedAt: .now), forKey: key, bytes: bytes)
            return state.evict(toFit: maxBytes)
        }
        // Outside the lock: a memo takes its own lock before this one.
        for answers in forgotten { answers.forget() }
        return true
    }

    /// The keys of the upstream responses held now, in no order (for tests).
    package var upstreamKeys: [String] {
        state.withLock { state in
            state.entries.entries.compactMap { key, entry in
                guard case .upstream = entry.value else { return nil }
                return String(decoding: key.utf8, as: UTF8.self)
            }
        }
    }

    /// Bytes and entries held now (for tests and metrics).
    public var usage: (bytes: Int, entries: Int) { state.withLock { ($0.entries.bytes, $0.entries.count) } }

    /// The cache key of a GET: the URL without secret query parameters, plus the non-secret
    /// request headers (names lower-cased, sorted). Secrets never become part of a key, so a
    /// key may be logged or shown.
    public static func cacheKey(
        url: String, headers: [(name: String, value: String)], secretParameters: Set<String>
    ) -> String {
        var key = url
        // Read as bytes (`?`, `&` and `=` are ASCII): a URL is built for every read, and walking
        // it by Characters (grapheme breaking) and rebuilding it was a few % of a cached request.
        // The usual URL holds no secret name and is returned as it is, after one scan of its
        // contiguous bytes: no array of pairs, no String or hash per name.
        let bytes = url.utf8
        if let q = bytes.firstIndex(of: UInt8(ascii: "?")),
            url.utf8.withContiguousStorageIfAvailable({ Self.hasSecretName($0, secretParameters) }) ?? true
        {
            func isSecret(_ pair: Substring.UTF8View.SubSequence) -> Bool {
                let name = pair.prefix { $0 != UInt8(ascii: "=") }
                return secretParameters.contains(String(decoding: name, as: UTF8.self))
            }
            let pairs = bytes[bytes.index(after: q)...].split(separator: UInt8(ascii: "&"))
            let kept = pairs.filter { !isSecret($0) }.map { String(decoding: $0, as: UTF8.self) }
            key = String(decoding: bytes[..<q], as: UTF8.self) + "?" + kept.joined(separator: "&")
        }
        guard !headers.isEmpty else { return key }
        let shown = headers.filter { $0.name.lowercased() != "authorization" }
            .map { "\($0.name.lowercased()):\($0.value)" }.sorted()
        return shown.isEmpty ? key : key + "\n" + shown.joined(separator: "\n")
    }

    /// Whether a query parameter of `url` (its bytes) is named one of `names`.
    private static func hasSecretName(_ url: UnsafeBufferPointer<UInt8>, _ names: Set<String>) -> Bool {
        guard var start = url.firstIndex(of: UInt8(ascii: "?")).map({ $0 + 1 }) else { return false }
        while start < url.endIndex {
            var end = start
            while end < url.endIndex, url[end] != UInt8(ascii: "&") { end += 1 }
            var nameEnd = start
            while nameEnd < end, url[nameEnd] != UInt8(ascii: "=") { nameEnd += 1 }
            let name = UnsafeBufferPointer(rebasing: url[start..<nameEnd])
            for secret in names where secret.utf8.count == name.count && secret.utf8.elementsEqual(name) {
                return true
            }
            start = end + 1
        }
        return false
    }

    /// The key of a GraphQL result: the operation name, the variables (as JSON) and the
    /// document text behind a newline, which no URL starts with. The name and the variables are
    /// length-prefixed (a missing name is `-`), so no part can pose as another: `null` and `""`
    /// names differ, and a newline in a name cannot shift text into the document. Keys are
    /// compared by their exact bytes. Nil when a variable holds a number JSON cannot write
    /// (±infinity, NaN): such a request is never cached.
    public static func resultKey(document: Source, operationName: String?, variables: JSONObject) -> String? {
        resultKeyBytes(document: document, operationName: operationName, variables: variables).map {
            String(decoding: $0.utf8, as: UTF8.self)
        }
    }

    /// `resultKey` as the bytes the cache keys on, built without an intermediate String.
    package static func resultKeyBytes(document: Source, operationName: String?, variables: JSONObject)
        -> ExactStringKey?
    {
        guard variables.entries.allSatisfy({ $0.value.isWritableJSON }) else { return nil }
        let variablesJSON: [UInt8] =
            variables.count == 0 ? [UInt8(ascii: "{"), UInt8(ascii: "}")] : JSONWriter.serialize(.object(variables))
        var key: [UInt8] = []
        key.reserveCapacity(document.utf8.count + variablesJSON.count + (operationName?.utf8.count ?? 0) + 24)
        key.append(UInt8(ascii: "\n"))
        if let operationName {
            key.append(contentsOf: String(operationName.utf8.count).utf8)
            key.append(UInt8(ascii: ":"))
            key.append(contentsOf: operationName.utf8)
        } else {
            key.append(UInt8(ascii: "-"))
        }
        key.append(UInt8(ascii: "\n"))
        key.append(contentsOf: String(variablesJSON.count).utf8)
        key.append(UInt8(ascii: ":"))
        key.append(contentsOf: variablesJSON)
        key.append(UInt8(ascii: "\n"))
        key.append(contentsOf: document.utf8)
        return ExactStringKey(utf8: key)
    }

    /// Seconds from a `Cache-Control: max-age=N` response header: 0 when the response says it
    /// must not be kept or reused unchecked (`no-store`, `no-cache`, `private`: we are a cache
    /// shared by every client); nil when it says nothing about its lifetime.
    public static func maxAge(_ headers: [String: String]) -> Int? {
        guard let value = headers["cache-control"] else { return nil }
        var maxAge: Int?
        for directive in value.split(separator: ",") {
            let parts = directive.trimmingCharacters(in: " ").split(separator: "=", maxSplits: 1)
            let name = parts.first.map { $0.lowercased() } ?? ""
            if name == "no-store" || name == "no-cache" || name == "private" { return 0 }
            if parts.count == 2, name == "max-age", let seconds = Int(parts[1]) { maxAge = max(0, seconds) }
        }
        return maxAge
    }
}

/// A result kept in the `UpstreamCache` beside the responses it was built from: what a repeat
/// of its request is answered with, whatever its domain makes of it.
public protocol KeptResult: Sendable {
    /// What it holds in memory, counted against the cache's byte bound.
    var keptBytes: Int { get }
}

extension JSONValue {
    /// False for a value holding a non-finite number, which JSON text cannot carry.
    fileprivate var isWritableJSON: Bool {
        switch self {
        case .double(let number): number.isFinite
        case .array(let items): items.allSatisfy(\.isWritableJSON)
        case .object(let object): object.entries.allSatisfy { $0.value.isWritableJSON }
        case .null, .bool, .int, .string: true
        }
    }
}

extension UpstreamCache.State {
    /// Evicts least recently used entries until their bytes fit `maxBytes`; returns the memo
    /// answers evicted, for their memos to forget once the lock is released.
    package mutating func evict(toFit maxBytes: Int) -> [KeptAnswers] {
        var forgotten: [KeptAnswers] = []
        while entries.bytes > maxBytes, let (_, entry) = entries.removeLeastRecentlyUsed() {
            if case .answers(let answers) = entry.value { forgotten.append(answers) }
        }
        return forgotten
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var slice = Substring(self)
        while slice.first == set { slice.removeFirst() }
        while slice.last == set { slice.removeLast() }
        return slice
    }
}
