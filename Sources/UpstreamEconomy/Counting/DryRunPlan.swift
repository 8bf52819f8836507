import GraphQL
import Synchronization

/// The upstream plan of one request run as a dry run (`RequestMode.dryRun`): every upstream
/// call its resolvers asked for, and what would answer it: the cache (or the shared store),
/// a send already in flight (another request's), or a send of its own, with its quota units.
/// Nothing is sent: a call that would be sent ends there, and what only its answer could ask
/// for (the levels below it) is not planned, which `complete` says; the query's estimate prices
/// those. Thread-safe; one per dry run.
package final class DryRunPlan: Sendable {
    package init() {}
    package enum Source: String, Sendable {
        case cache, store, inFlight, send
    }

    /// The query level (response path depth, not counting list indices) of the fields whose
    /// keys the current batch fetches, set by the loaders of a dry run; nil outside one.
    @TaskLocal package static var level: Int?

    /// Runs `body` at `level` (nothing set when it is nil: no dry run).
    package static func at<T, E: Error>(_ level: Int?, _ body: () async throws(E) -> T) async throws(E) -> T {
        guard let level else { return try await body() }
        return try await $level.withValue(level, typed: body)
    }

    package struct Call: Sendable {
        /// The query level of the fields it answers (0 when unknown).
        package var level: Int
        package var service: UpstreamService
        /// The upstream path without its query (no secret, no user string).
        package var endpoint: String
        package var source: Source
        package var units: Int
        /// Ids the call asks for at once (a batched lookup), 1 for any other.
        package var ids: Int
    }

    private let calls = Mutex<[Call]>([])

    package func note(_ service: UpstreamService, url: String, _ source: Source, units: Int) {
        let call = Call(
            level: Self.level ?? 0, service: service, endpoint: Self.endpoint(of: url), source: source,
            units: source == .send ? units : 0,
            ids: Self.ids(in: url))
        calls.withLock { $0.append(call) }
    }

    /// The calls noted so far.
    package var all: [Call] { calls.withLock { $0 } }

    /// `extensions.plan`: the calls by source and units in all, then per provider the same and
    /// per endpoint its calls and ids; `complete` is false when a call would be sent (the levels
    /// below it are unknown until it is); `quota` each limited provider's day and the client's
    /// share of it as they stand.
    /// `kept`: the loaders' kept answers the dry run read (they stand for calls not even asked).
    package func json(quota: [QuotaUsage], shares: [(UpstreamService, used: Int, limit: Int)], kept: Int) -> JSONValue {
        let calls = all
        func counts(_ calls: [Call]) -> [(String, JSONValue)] {
            [
                ("calls", .int(calls.count)),
                ("send", .int(calls.filter { $0.source == .send }.count)),
                ("cache", .int(calls.filter { $0.source == .cache || $0.source == .store }.count)),
                ("inFlight", .int(calls.filter { $0.source == .inFlight }.count)),
                ("units", .int(calls.reduce(0) { $0 + $1.units })),
            ]
        }
        var providers = JSONObject()
        for service in Set(calls.map(\.service)).sorted() {
            let own = calls.filter { $0.service == service }
            guard !own.isEmpty else { continue }
            var endpoints = JSONObject()
            for endpoint in Set(own.map(\.endpoint)).sorted() {
                let those = own.filter { $0.endpoint == endpoint }
                endpoints[endpoint] = .object(
                    JSONObject([
                        ("calls", .int(those.count)), ("ids", .int(those.reduce(0) { $0 + $1.ids })),
                        ("send", .int(those.filter { $0.source == .send }.count)),
                    ]))
            }
            providers[service.rawValue] = .object(JSONObject(counts(own) + [("endpoints", .object(endpoints))]))
        }
        var quotaJSON = JSONObject()
        for usage in quota {
            var entry = JSONObject([("used", .int(usage.used)), ("limit", .int(usage.limit))])
            if let share = shares.first(where: { $0.0 == usage.service }) {
                entry["shareUsed"] = .int(share.used)
                entry["shareLimit"] = .int(share.limit)
            }
            quotaJSON[usage.service.rawValue] = .object(entry)
        }
        var levels: [JSONValue] = []
        for level in Set(calls.map(\.level)).sorted() {
            let those = calls.filter { $0.level == level }
            let services = Set(those.map(\.service)).sorted { $0.rawValue < $1.rawValue }
            levels.append(
                .object(
                    JSONObject(
                        [("level", .int(level))] + counts(those) + [
                            ("providers", .array(services.map { .string($0.rawValue) }))
                        ])))
        }
        return .object(
            JSONObject(
                counts(calls) + [
                    ("keptAnswers", .int(kept)), ("complete", .bool(!calls.contains { $0.source == .send })),
                    ("levels", .array(levels)), ("providers", .object(providers)), ("quota", .object(quotaJSON)),
                ]))
    }

    private static func endpoint(of url: String) -> String {
        let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let path = afterScheme.drop { $0 != "/" }
        return String(path.prefix { $0 != "?" && $0 != "#" })
    }

    /// Ids in the call's `id=` or `ids=` parameter (comma-separated), else 1.
    private static func ids(in url: String) -> Int {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return 1 }
        for item in query.split(separator: "&") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == "id" || parts[0] == "ids" else { continue }
            // Commas as sent, or percent-encoded.
            let value = Array(parts[1].utf8)
            var commas = 0
            for index in value.indices {
                if value[index] == UInt8(ascii: ",") { commas += 1 }
                if value[index] == UInt8(ascii: "%"), index + 2 < value.count, value[index + 1] == UInt8(ascii: "2"),
                    value[index + 2] | 0x20 == UInt8(ascii: "c")
                {
                    commas += 1
                }
            }
            return commas + 1
        }
        return 1
    }
}

/// The query level each key of one loader was asked for at, in a dry run (the deepest, when
/// fields of several levels ask for one key). Thread-safe.
package final class KeyLevels<Key: Hashable & Sendable>: Sendable {
    package init() {}
    private let levels = Mutex<[Key: Int]>([:])

    package func note(_ key: Key, path: [PathComponent]) {
        let depth = path.reduce(0) { if case .key = $1 { $0 + 1 } else { $0 } }
        levels.withLock { $0[key] = max($0[key] ?? 0, depth) }
    }

    package func level(_ key: Key) -> Int? { levels.withLock { $0[key] } }

    /// The deepest level of `keys` (a batch's: its call answers them all), 0 when none was noted.
    package func level(of keys: [Key]) -> Int {
        levels.withLock { levels in keys.compactMap { levels[$0] }.max() ?? 0 }
    }
}
