import Foundation
import UpstreamEconomy

/// Everything a `Gateway` is built from. Every field has a default; `fromEnvironment` reads
/// the documented environment variables.
public struct GatewayConfiguration: Sendable {
    /// Base URL per provider (scheme, host, optional port; no trailing slash). Providers
    /// missing here use their real API hosts.
    public var baseURLs: [UpstreamService: String]
    /// `YOUTUBE_API_KEY`; nil → YouTube fields fail with `UPSTREAM_NOT_CONFIGURED`.
    public var youTubeAPIKey: String?
    /// `TMDB_API_KEY`.
    public var tmdbAPIKey: String?
    /// `APPLE_MUSIC_TOKEN` (a developer JWT).
    public var appleMusicToken: String?
    /// `RAKUTEN_APP_ID`.
    public var rakutenApplicationId: String?
    /// `RAKUTEN_ACCESS_KEY` (the 2026 host needs it).
    public var rakutenAccessKey: String?
    /// iTunes storefront (ISO 3166-1 alpha-2) and Apple Music storefront (lower case).
    public var country: String

    /// Per-try upstream timeout and connect timeout, in milliseconds.
    public var upstreamTimeoutMs: Int
    public var upstreamConnectTimeoutMs: Int
    /// Tries per upstream call (1 = no retry).
    public var upstreamMaxTries: Int
    /// Upstream transfers in flight per host (`--upstream-concurrency`); more wait in line. As
    /// many connections are kept alive between waves, so the next one reuses them.
    public var maxConcurrentRequestsPerHost: Int
    /// Searches one batch sends at once per provider (YouTube searches of a track list, …).
    public var searchConcurrency: Int

    /// The default of both caps above: wide enough that the widest level of a query within the
    /// default cost budget's typical shapes goes out in one wave (the nested Iron Maiden query's
    /// 150 YouTube searches: 4 upstream round trips on its critical path instead of 8 at 32), and
    /// on HTTP/2 upstreams that wave shares one connection per transfer thread.
    public static let defaultUpstreamConcurrency = 256

    /// Queries whose estimated upstream cost exceeds this are refused before execution, and no
    /// request spends more than this during execution (`MUSICGRAPH_MAX_QUERY_COST`); 0 disables both.
    public var maxQueryCost: Int
    /// Whether the estimate refuses queries over `maxQueryCost` before they run (`enforce`, the
    /// default) or is only reported (`measure`: the hard budget alone bounds the spend, and a
    /// query estimated over it answers what fits); `--query-cost-mode`, `MUSICGRAPH_QUERY_COST_MODE`.
    public var queryCostMode: QueryCostMode
    /// Quota units per provider per day (`--daily-quota`, `MUSICGRAPH_DAILY_QUOTA`); a provider
    /// absent or at 0 is not limited. YouTube's default is its free daily quota, 10,000.
    public var dailyQuota: [UpstreamService: Int]
    /// How much of each provider's day one client may spend (see `QuotaShares`).
    public var quotaShares = QuotaShares()
    /// How long an upstream answer past its freshness may still be served, marked stale, when
    /// its upstream fails or a limit refuses the call (`--stale-if-error`); 0 for never. A day
    /// by default: long enough to bridge a spent daily quota until it resets.
    public var staleIfErrorSeconds = 86_400
    /// Upstream response cache size in bytes; 0 disables the cache.
    public var cacheMaxBytes: Int
    /// Seconds a response stays cached when it sends no `Cache-Control: max-age`, per provider.
    public var cacheTTLSeconds: [UpstreamService: Int]
    /// Keep error-free GraphQL results in the cache too, until the first upstream response they
    /// read expires, and answer repeats from them (`--no-result-cache` turns it off).
    public var cacheResults: Bool

    /// The most bytes one response's `data` may take, enforced while it is written
    /// (`--max-response-bytes`): over it, the query stops and answers `data: null` with a
    /// `RESPONSE_TOO_LARGE` error. 16 MiB by default; 0 for no limit.
    public var maxResponseBytes = GatewayConfiguration.defaultMaxResponseBytes
    public static let defaultMaxResponseBytes = 16 << 20

    /// Write every upstream exchange to this directory (`--record DIR`, `RecordingTransport`).
    public var recordDirectory: String? = nil
    /// Answer every upstream call from the recordings in this directory, never from the network
    /// (`--replay DIR`, `ReplayTransport`).
    public var replayDirectory: String? = nil
    /// A label in front of every upstream response key in the shared store, in place of the
    /// origin of the provider's base URL, for an upstream whose origin changes from run to run
    /// (`demo` for the in-process DemoUpstream of `--demo`, on a random port: a store file used
    /// with `--demo` never answers a run against the real APIs). Nil: keys start with the
    /// origin, so one upstream's answers are never served as another's.
    public var sharedKeyScope: String? = nil

    public static let defaultMaxQueryCost = 50_000
    /// The daily quota of a YouTube Data API project (Google's default allotment).
    public static let defaultDailyQuota: [UpstreamService: Int] = [.youTube: 10_000]

    /// Key values the CLI sets where no real key is needed (`--demo`, `--replay`): no secrets,
    /// so recordings do not blank them out of bodies.
    public static let placeholderKeys: Set<String> = ["demo", "replay"]

    /// The key and token values configured, placeholders left out: what must never be written.
    public var secrets: [String] {
        ([youTubeAPIKey, tmdbAPIKey, appleMusicToken, rakutenApplicationId, rakutenAccessKey].compactMap { $0 }
            + declaredSecrets)
            .filter { !Self.placeholderKeys.contains($0) }
    }

    /// The values of the `{$env.NAME}` secrets the schema's `@upstream`s use (set by the
    /// gateway when it reads them from `environment`).
    public var declaredSecrets: [String] = []

    /// The environment `{$env.NAME}` templates read, once, at start-up.
    public var environment: [String: String] = [:]

    /// What `{$env.NAME}` templates read: `environment`, with the keys this configuration holds
    /// for the built-in APIs under their variables' names (`TMDB_API_KEY`, …), which win: a
    /// built-in API the schema declares uses the key the gateway was configured with.
    public var connectorEnvironment: [String: String] {
        var merged = environment
        let keys: [(String, String?)] = [
            ("YOUTUBE_API_KEY", youTubeAPIKey), ("TMDB_API_KEY", tmdbAPIKey), ("APPLE_MUSIC_TOKEN", appleMusicToken),
            ("RAKUTEN_APP_ID", rakutenApplicationId), ("RAKUTEN_ACCESS_KEY", rakutenAccessKey),
        ]
        for case (let name, let value?) in keys { merged[name] = value }
        return merged
    }

    /// How long an answer of a declared upstream stays fresh without a `max-age`: a built-in
    /// API's configured TTL (`--cache-ttl`, where 0 means not cached), else its `maxAgeSeconds`.
    func ttlSeconds(of upstream: DeclaredUpstream) -> Int {
        UpstreamService.builtIn.contains(upstream.service)
            ? cacheTTLSeconds[upstream.service] ?? 0 : upstream.maxAgeSeconds
    }

    /// The base URLs configured for built-in APIs (`--upstream`, `MUSICGRAPH_<NAME>_URL`), by
    /// upstream name: they win over the base URL a schema declares for that API.
    public var configuredBuiltInBaseURLs: [String: String] {
        var byName: [String: String] = [:]
        for service in UpstreamService.builtIn { if let url = baseURLs[service] { byName[service.rawValue] = url } }
        return byName
    }

    /// Every provider's base URL, defaults included, trailing slashes removed.
    public var resolvedBaseURLs: [UpstreamService: String] {
        let defaults: [UpstreamService: String] = [
            .iTunes: ITunesProvider.defaultBaseURL, .appleMusic: AppleMusicProvider.defaultBaseURL,
            .rakuten: RakutenProvider.defaultBaseURL, .youTube: YouTubeProvider.defaultBaseURL,
            .tmdb: TMDBProvider.defaultBaseURL,
        ]
        var resolved = defaults.reduce(into: [:]) { $0[$1.key] = baseURL($1.key, default: $1.value) }
        // Declared upstreams (`@upstream`) have no default: their base URL is in the schema.
        for (service, url) in baseURLs where defaults[service] == nil { resolved[service] = url }
        return resolved
    }

    public init(
        baseURLs: [UpstreamService: String] = [:], youTubeAPIKey: String? = nil, tmdbAPIKey: String? = nil,
        appleMusicToken: String? = nil, rakutenApplicationId: String? = nil, rakutenAccessKey: String? = nil,
        country: String = "US", upstreamTimeoutMs: Int = 10_000, upstreamConnectTimeoutMs: Int = 2_000,
        upstreamMaxTries: Int = 2,
        maxConcurrentRequestsPerHost: Int = GatewayConfiguration.defaultUpstreamConcurrency,
        searchConcurrency: Int = GatewayConfiguration.defaultUpstreamConcurrency,
        maxQueryCost: Int = GatewayConfiguration.defaultMaxQueryCost, queryCostMode: QueryCostMode = .enforce,
        dailyQuota: [UpstreamService: Int] = GatewayConfiguration.defaultDailyQuota, cacheMaxBytes: Int = 64 << 20,
        cacheTTLSeconds: [UpstreamService: Int] = [
            .iTunes: 900, .appleMusic: 900, .rakuten: 900, .youTube: 3_600, .tmdb: 3_600,
        ], cacheResults: Bool = true
    ) {
        self.baseURLs = baseURLs
        self.youTubeAPIKey = youTubeAPIKey
        self.tmdbAPIKey = tmdbAPIKey
        self.appleMusicToken = appleMusicToken
        self.rakutenApplicationId = rakutenApplicationId
        self.rakutenAccessKey = rakutenAccessKey
        self.country = country
        self.upstreamTimeoutMs = upstreamTimeoutMs
        self.upstreamConnectTimeoutMs = upstreamConnectTimeoutMs
        self.upstreamMaxTries = upstreamMaxTries
        self.maxConcurrentRequestsPerHost = maxConcurrentRequestsPerHost
        self.searchConcurrency = searchConcurrency
        self.maxQueryCost = maxQueryCost
        self.queryCostMode = queryCostMode
        self.dailyQuota = dailyQuota
        self.cacheMaxBytes = cacheMaxBytes
        self.cacheTTLSeconds = cacheTTLSeconds
        self.cacheResults = cacheResults
    }

    /// The environment variable naming each provider's base URL override.
    public static let baseURLVariables: [UpstreamService: String] = [
        .iTunes: "MUSICGRAPH_ITUNES_URL", .appleMusic: "MUSICGRAPH_APPLE_MUSIC_URL",
        .rakuten: "MUSICGRAPH_RAKUTEN_URL", .youTube: "MUSICGRAPH_YOUTUBE_URL", .tmdb: "MUSICGRAPH_TMDB_URL",
    ]

    /// A configuration from environment variables: the four keys, `MUSICGRAPH_UPSTREAM_URL`
    /// (every provider's base URL; `upstream` overrides it), the per-provider
    /// `MUSICGRAPH_<PROVIDER>_URL` overrides (which win over both), and
    /// `MUSICGRAPH_MAX_QUERY_COST`, `MUSICGRAPH_QUERY_COST_MODE` and `MUSICGRAPH_DAILY_QUOTA`.
    /// Empty values count as unset.
    /// - Throws: `GatewayConfigurationError` for a non-numeric `MUSICGRAPH_MAX_QUERY_COST` or a
    ///   malformed `MUSICGRAPH_DAILY_QUOTA` (naming the bad entry).
    public static func fromEnvironment(_ environment: [String: String], upstream: String? = nil)
        throws(GatewayConfigurationError) -> GatewayConfiguration
    {
        func value(_ name: String) -> String? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            return text
        }
        var configuration = GatewayConfiguration(
            youTubeAPIKey: value("YOUTUBE_API_KEY"), tmdbAPIKey: value("TMDB_API_KEY"),
            appleMusicToken: value("APPLE_MUSIC_TOKEN"), rakutenApplicationId: value("RAKUTEN_APP_ID"),
            rakutenAccessKey: value("RAKUTEN_ACCESS_KEY"))
        configuration.environment = environment
        if let all = upstream ?? value("MUSICGRAPH_UPSTREAM_URL") {
            for service in UpstreamService.builtIn { configuration.baseURLs[service] = all }
        }
        for (service, name) in baseURLVariables {
            if let url = value(name) { configuration.baseURLs[service] = url }
        }
        if let text = value("MUSICGRAPH_MAX_QUERY_COST") {
            guard let limit = Int(text), limit >= 0 else {
                throw GatewayConfigurationError(
                    "MUSICGRAPH_MAX_QUERY_COST expects a non-negative integer, got '\(text)'")
            }
            configuration.maxQueryCost = limit
        }
        if let text = value("MUSICGRAPH_QUERY_COST_MODE") {
            guard let mode = QueryCostMode(rawValue: text) else {
                throw GatewayConfigurationError("MUSICGRAPH_QUERY_COST_MODE expects enforce or measure, got '\(text)'")
            }
            configuration.queryCostMode = mode
        }
        if let text = value("MUSICGRAPH_DAILY_QUOTA") {
            configuration.dailyQuota = try dailyQuota(parsing: text, over: configuration.dailyQuota)
        }
        return configuration
    }

    /// `limits` with the entries of a `--daily-quota` value applied: comma-separated
    /// `service=units` pairs (`youtube=10000,tmdb=50000`; services by their raw names, units a
    /// non-negative integer, 0 = no limit). A provider not named keeps its limit in `limits`.
    /// - Throws: `GatewayConfigurationError` naming the first entry that is not `service=units`,
    ///   names no provider, repeats one, or whose units are not a non-negative integer.
    public static func dailyQuota(parsing text: String, over limits: [UpstreamService: Int] = [:])
        throws(GatewayConfigurationError) -> [UpstreamService: Int]
    {
        try perService(parsing: text, over: limits, entry: "daily quota", example: "youtube=10000", unit: "units")
    }

    /// Seconds an upstream answer stays fresh per provider (`--cache-ttl itunes=900,youtube=3600`)
    /// on top of `ttls`; an entry of 0 caches nothing of that provider.
    /// - Throws: `GatewayConfigurationError` naming the first bad entry, as `dailyQuota` does.
    public static func cacheTTL(parsing text: String, over ttls: [UpstreamService: Int])
        throws(GatewayConfigurationError) -> [UpstreamService: Int]
    {
        try perService(parsing: text, over: ttls, entry: "cache TTL", example: "youtube=3600", unit: "seconds")
    }

    /// `service=N` entries, comma-separated, over `values`; an entry of 0 removes its provider.
    private static func perService(
        parsing text: String, over values: [UpstreamService: Int], entry what: String, example: String, unit: String
    ) throws(GatewayConfigurationError) -> [UpstreamService: Int] {
        var values = values
        var named: Set<UpstreamService> = []
        let names = UpstreamService.builtIn.map(\.rawValue).joined(separator: ", ")
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = raw.trimmingCharacters(in: .whitespaces)
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw GatewayConfigurationError("\(what) entry '\(entry)' is not service=\(unit) (e.g. \(example))")
            }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            guard let service = UpstreamService(builtIn: name) else {
                throw GatewayConfigurationError(
                    "\(what) entry '\(entry)' names no provider; the providers are \(names)")
            }
            guard named.insert(service).inserted else {
                throw GatewayConfigurationError("\(what) entry '\(entry)' repeats \(name)")
            }
            guard let number = Int(parts[1].trimmingCharacters(in: .whitespaces)), number >= 0 else {
                throw GatewayConfigurationError(
                    "\(what) entry '\(entry)' needs a non-negative integer of \(unit)"
                        + (what == "daily quota" ? " (0 = no limit)" : ""))
            }
            values[service] = number == 0 ? nil : number
        }
        return values
    }

    /// Base URL of `service`, trailing slashes removed.
    func baseURL(_ service: UpstreamService, default defaultURL: String) -> String {
        var url = baseURLs[service] ?? defaultURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}

/// A configuration value that cannot be used; `message` names it.
public struct GatewayConfigurationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the pre-execution cost estimate does with a query over `--max-query-cost` (the names
/// of Apollo Router's and Hive's demand-control modes).
public enum QueryCostMode: String, Sendable, CaseIterable {
    /// Refuse it before it runs (`QUERY_COST_EXCEEDED`).
    case enforce
    /// Run it: the estimate is only reported, the hard budget stops the calls that would cross it.
    case measure
}
