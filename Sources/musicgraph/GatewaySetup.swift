import Catalog
import DemoUpstream
import Dispatch
import Foundation
import GraphQL
import GraphQLMocks
import SharedState
import Synchronization
import UpstreamEconomy

/// What `query` and `serve` share: the gateway configuration from environment and flags,
/// and the in-process DemoUpstream of `--demo`.
struct GatewaySetup {
    /// The options both commands accept, besides their own.
    static let options: Set<String> = Set([
        "--demo", "--upstream", "--max-query-cost", "--schema", "--itunes-url", "--apple-music-url", "--rakuten-url",
        "--youtube-url", "--tmdb-url", "--timeout-ms", "--no-result-cache", "--record", "--replay", "--daily-quota",
        "--query-cost-mode", "--upstream-concurrency", "--max-response-bytes", "--stale-if-error",
        "--cache-ttl",
    ]).union(MockOptions.names).union(StoreOptions.names)

    static let optionsHelp = """
          --demo                 start DemoUpstream (the bundled catalog) in-process on a loopback
                                 port and point every provider at it; keys default to "demo"
          --upstream URL         every provider's base URL (env MUSICGRAPH_UPSTREAM_URL)
          --itunes-url URL, --apple-music-url URL, --rakuten-url URL, --youtube-url URL, --tmdb-url URL
                                 one provider's base URL (env MUSICGRAPH_<PROVIDER>_URL); wins over --upstream
          --max-query-cost N     refuse queries whose estimated upstream cost is over N quota units
                                 (the schema's @cost weights: YouTube search 100, other calls 1), and
                                 never send more than N units for one query (a call that would cross
                                 it gets QUERY_BUDGET_EXCEEDED); env MUSICGRAPH_MAX_QUERY_COST;
                                 default 50000; 0 = no limit
          --query-cost-mode M    enforce (default: refuse a query estimated over --max-query-cost) or
                                 measure (only report the estimate; the budget still stops the calls
                                 that would cross it); env MUSICGRAPH_QUERY_COST_MODE
          --daily-quota LIST     quota units per provider per day, e.g. youtube=10000,tmdb=50000
                                 (env MUSICGRAPH_DAILY_QUOTA; YouTube's day ends at midnight Pacific
                                 time, the others' at midnight UTC); a call that would cross it is
                                 not sent (UPSTREAM_QUOTA_EXCEEDED). Default youtube=10000 (none with
                                 --demo); 0 = no limit
          --cache-ttl LIST       seconds an upstream answer stays fresh per provider when it sends no
                                 max-age, e.g. youtube=3600,itunes=900 (defaults: 900 for iTunes,
                                 Apple Music and Rakuten, 3600 for YouTube and TMDB; 0 = not cached)
          --stale-if-error DURATION
                                 how long past its freshness a kept upstream answer may still be
                                 served when its upstream fails, or its quota, the client's share or
                                 the query's budget refuses the call: listed with its path and age
                                 in extensions.stale, sent with Age and Cache-Control: no-store
                                 (e.g. 30m, 12h, 2d; default 1d; 0 = never)
          --max-response-bytes N the most bytes a response's data may take, checked while it is
                                 written: over it the query stops and answers data: null with a
                                 RESPONSE_TOO_LARGE error (default 16777216 = 16 MiB; 0 = no limit)
          --timeout-ms N         per-try upstream timeout (default 10000)
          --upstream-concurrency N
                                 upstream requests in flight per host, and searches one batch sends
                                 at once (default 256: a query's widest level goes out in one wave;
                                 HTTP/2 upstreams multiplex it on one connection); as many idle
                                 connections are kept for the next wave
          --no-result-cache      execute every query, even a repeat whose upstream responses are all
                                 cached (by default its error-free result is kept beside them)
          --schema FILE          the schema to serve (default ./schema.graphql, else the built-in copy)
          --record DIR           write every upstream exchange (method, URL and headers without
                                 secrets, status, body) to DIR, one JSON file per request key
          --replay DIR           answer every upstream call from the recordings in DIR, never from
                                 the network; an unrecorded call is an UPSTREAM_NOT_RECORDED error
                                 (keys are not needed: every provider gets the placeholder "replay")

        keys (environment): YOUTUBE_API_KEY, TMDB_API_KEY, APPLE_MUSIC_TOKEN, RAKUTEN_APP_ID
        (RAKUTEN_ACCESS_KEY); a provider without its key answers UPSTREAM_NOT_CONFIGURED errors.

        """ + StoreOptions.help + MockOptions.help

    let gateway: Gateway
    /// Where the gateway's cache, ledger and persisted documents live (`--store`).
    let store: any SharedStore
    /// What `--store` (or its default) named, for the start-up log line.
    let location: StoreLocation
    /// The in-process DemoUpstream of `--demo`; shut it down when done.
    let demo: DemoUpstreamServer?

    /// Reads the configuration and builds the gateway (starting DemoUpstream first for `--demo`).
    /// - Throws: `CLIError` with a one-line reason.
    static func make(_ args: CommandLineArguments) throws(CLIError) -> GatewaySetup {
        var configuration: GatewayConfiguration
        let upstream = try args.value("--upstream")
        do {
            configuration = try GatewayConfiguration.fromEnvironment(
                ProcessInfo.processInfo.environment, upstream: upstream)
        } catch {
            throw CLIError(error.message)
        }
        let flags: [(String, UpstreamService)] = [
            ("--itunes-url", .iTunes), ("--apple-music-url", .appleMusic), ("--rakuten-url", .rakuten),
            ("--youtube-url", .youTube), ("--tmdb-url", .tmdb),
        ]
        for (flag, service) in flags {
            if let url = try args.value(flag) { configuration.baseURLs[service] = url }
        }
        if let limit = try args.int("--max-query-cost") { configuration.maxQueryCost = limit }
        if let text = try args.value("--query-cost-mode") {
            guard let mode = QueryCostMode(rawValue: text) else {
                throw CLIError("--query-cost-mode expects enforce or measure, got '\(text)'")
            }
            configuration.queryCostMode = mode
        }
        // The demo upstream has no quota to protect: no default limit there, an explicit one applies.
        if args.flag("--demo"), ProcessInfo.processInfo.environment["MUSICGRAPH_DAILY_QUOTA"]?.isEmpty ?? true {
            configuration.dailyQuota = [:]
        }
        if args.lacksValue("--daily-quota") {
            throw CLIError("--daily-quota needs a list of service=units, e.g. youtube=10000")
        }
        if let text = try args.value("--daily-quota") {
            do {
                configuration.dailyQuota = try GatewayConfiguration.dailyQuota(
                    parsing: text, over: configuration.dailyQuota)
            } catch {
                throw CLIError("--daily-quota: \(error.message)")
            }
        }
        configuration.quotaShares = try ClientOptions.quotaShares(args)
        if args.lacksValue("--cache-ttl") { throw CLIError("--cache-ttl needs a list of service=seconds") }
        if let text = try args.value("--cache-ttl") {
            do {
                configuration.cacheTTLSeconds = try GatewayConfiguration.cacheTTL(
                    parsing: text, over: configuration.cacheTTLSeconds)
            } catch {
                throw CLIError("--cache-ttl: \(error.message)")
            }
        }
        if args.lacksValue("--stale-if-error") { throw CLIError("--stale-if-error needs a duration, e.g. 12h") }
        if let text = try args.value("--stale-if-error") {
            guard let seconds = durationSeconds(text) else {
                throw CLIError("--stale-if-error: '\(text.prefix(40))' is not a duration such as 90s, 30m, 12h or 2d")
            }
            configuration.staleIfErrorSeconds = seconds
        }
        if let limit = try args.int("--max-response-bytes") { configuration.maxResponseBytes = limit }
        if args.flag("--no-result-cache") { configuration.cacheResults = false }
        if let limit = try args.int("--upstream-concurrency") {
            guard limit >= 1 else {
                throw CLIError("--upstream-concurrency must be at least 1 (requests in flight per upstream host)")
            }
            configuration.maxConcurrentRequestsPerHost = limit
            configuration.searchConcurrency = limit
        }
        if let timeout = try args.int("--timeout-ms") {
            // 0 would time every upstream call out at once; unlike --request-timeout-ms it cannot mean "no limit".
            guard timeout >= 1 else {
                throw CLIError("--timeout-ms must be at least 1 (milliseconds per upstream try)")
            }
            configuration.upstreamTimeoutMs = timeout
        }
        // A malformed base URL would only surface later as every query failing upstream.
        for (service, url) in configuration.baseURLs.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
            else { throw CLIError("the \(service.rawValue) base URL '\(url)' is not an http(s) URL") }
        }

        let schema: Schema
        let schemaSource: Source
        do {
            schemaSource = try GatewaySchema.source(path: try args.value("--schema"))
            schema = try GatewaySchema.build(schemaSource)
        } catch {
            throw CLIError("cannot start the gateway: \(error)")
        }
        for flag in ["--record", "--replay"] where args.lacksValue(flag) {
            throw CLIError("\(flag) needs a directory")
        }
        configuration.recordDirectory = try args.value("--record")
        configuration.replayDirectory = try args.value("--replay")
        if configuration.recordDirectory != nil, configuration.replayDirectory != nil {
            throw CLIError("--record and --replay cannot be combined")
        }
        if configuration.replayDirectory != nil {
            guard !args.flag("--demo") else { throw CLIError("--replay answers from recordings; drop --demo") }
            // Nothing is sent: keys only have to be there for the providers to make their calls.
            configuration.youTubeAPIKey = "replay"
            configuration.tmdbAPIKey = "replay"
            configuration.appleMusicToken = "replay"
            configuration.rakutenApplicationId = "replay"
            configuration.rakutenAccessKey = nil
        }
        let mock = try MockOptions.engine(args, schema: schema)
        if mock != nil {
            guard !args.flag("--demo") else { throw CLIError("--mock answers without upstreams; drop --demo") }
            guard configuration.recordDirectory == nil, configuration.replayDirectory == nil else {
                throw CLIError("--mock calls no upstream: nothing to record or replay")
            }
        }
        let location = try StoreOptions.location(
            args, environment: ProcessInfo.processInfo.environment,
            throwaway: args.flag("--demo") || mock != nil || configuration.replayDirectory != nil)
        let store = try StoreOptions.open(location, reset: args.flag("--store-reset"))
        if let engine = mock {
            do {
                let gateway = try Gateway(
                    configuration: configuration, schema: schema, schemaSource: schemaSource,
                    resolvers: MockResolvers(engine: engine), store: store)
                return GatewaySetup(gateway: gateway, store: store, location: location, demo: nil)
            } catch {
                throw CLIError("cannot start the gateway: \(error)")
            }
        }

        var demo: DemoUpstreamServer?
        if args.flag("--demo") {
            do {
                let server = try DemoUpstreamServer(demo: try DemoUpstream())
                demo = server
            } catch {
                throw CLIError("cannot start the demo upstream: \(error)")
            }
            for service in UpstreamService.builtIn { configuration.baseURLs[service] = demo?.baseURL }
            // Its port changes each run: its stored responses are scoped `demo` in place of its
            // origin, so each run finds the last one's, and never the real APIs'.
            configuration.sharedKeyScope = "demo"
            // DemoUpstream accepts any key; real keys from the environment are never sent to it.
            configuration.youTubeAPIKey = "demo"
            configuration.tmdbAPIKey = "demo"
            configuration.appleMusicToken = "demo"
            configuration.rakutenApplicationId = "demo"
            configuration.rakutenAccessKey = nil
        }
        do {
            let gateway = try Gateway(
                configuration: configuration, schema: schema, schemaSource: schemaSource, store: store)
            return GatewaySetup(gateway: gateway, store: store, location: location, demo: demo)
        } catch {
            throw CLIError("cannot start the gateway: \(error)")
        }
    }
}

/// Runs `body` on the concurrency pool and blocks the calling (main) thread until it ends.
func runGatewayBlocking(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
    let done = DispatchSemaphore(value: 0)
    let status = Atomic<Int32>(0)
    Task {
        status.store(await body(), ordering: .relaxed)
        done.signal()
    }
    done.wait()
    return status.load(ordering: .relaxed)
}

/// `N` followed by `s`, `m`, `h` or `d` (or nothing for seconds), in seconds; nil for anything
/// else, or a count past a year.
func durationSeconds(_ text: String) -> Int? {
    let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
    let unit = text.last.flatMap { units[$0] }
    let digits = unit == nil ? Substring(text) : text.dropLast()
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int(digits), count >= 0 else { return nil }
    let (seconds, overflow) = count.multipliedReportingOverflow(by: unit ?? 1)
    return overflow || seconds > 366 * 86_400 ? nil : seconds
}
