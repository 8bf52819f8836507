import DataLoader
import Foundation
import GraphQL
import HTTPClient

/// The MusicGraph gateway: `schema.graphql` bound to resolvers over the five providers,
/// with cost protection and a cross-request upstream response cache.
///
/// One per process. Each `execute` builds the request's own loaders and counters; the
/// HTTP client and the cache are shared.
public final class Gateway: Sendable {
    public let schema: Schema
    public let configuration: GatewayConfiguration
    /// The cross-request upstream cache; nil when `cacheMaxBytes` is 0.
    public let cache: UpstreamCache?
    private let transport: any UpstreamTransport
    /// The catalog's resolvers, or the mocks of `--mock`.
    let resolvers: any ExecutionResolvers

    /// A gateway serving `schema` (the embedded `schema.graphql` by default).
    ///
    /// - Parameters:
    ///   - transport: carries upstream GETs; by default a libcurl `HTTPClient` with the
    ///     configuration's timeouts, retries and per-host cap.
    ///   - resolvers: resolvers to run instead of the catalog's (`MockResolvers` for `--mock`:
    ///     answers from the schema alone, no upstream call; cost checks and extensions stay).
    /// - Throws: `GatewayStartError.unboundFields` naming every schema field that has neither
    ///   a resolver nor a model property (the gateway refuses to start rather than answer null).
    public init(
        configuration: GatewayConfiguration, schema: Schema? = nil, transport: (any UpstreamTransport)? = nil,
        resolvers: (any ExecutionResolvers)? = nil
    ) throws(GatewayStartError) {
        let schema = try { () throws(GatewayStartError) -> Schema in
            if let schema { return schema }
            return try GatewaySchema.embedded()
        }()
        if resolvers == nil {
            let missing = CatalogResolvers.unboundFields(in: schema)
            guard missing.isEmpty else { throw .unboundFields(missing) }
        }
        self.resolvers = resolvers ?? CatalogResolvers()
        self.schema = schema
        self.configuration = configuration
        self.cache = configuration.cacheMaxBytes > 0 ? UpstreamCache(maxBytes: configuration.cacheMaxBytes) : nil
        // The libcurl client only when something may be sent (a replay sends nothing).
        let network: () -> any UpstreamTransport = {
            transport
                ?? HTTPClientTransport(
                    client: HTTPClient(
                        configuration: HTTPClient.Configuration(
                            connectTimeoutMs: configuration.upstreamConnectTimeoutMs,
                            timeoutMs: configuration.upstreamTimeoutMs,
                            maxConcurrentRequestsPerHost: configuration.maxConcurrentRequestsPerHost,
                            retry: RetryPolicy(maxTries: max(1, configuration.upstreamMaxTries)),
                            secretQueryParameters: HTTPClientTransport.secretQueryParameters)))
        }
        // Recording and replay sit right above the network, below cache, dedup and budget.
        let bases = Array(configuration.resolvedBaseURLs.values)
        do throws(RecordingError) {
            if let directory = configuration.replayDirectory {
                self.transport = try ReplayTransport(
                    directory: directory, baseURLs: bases, secrets: configuration.secrets)
            } else if let directory = configuration.recordDirectory {
                self.transport = try RecordingTransport(
                    base: network(), directory: directory, baseURLs: bases, secrets: configuration.secrets)
            } else {
                self.transport = network()
            }
        } catch {
            throw .recordings(error)
        }
    }

    /// What `--record` could not write, as `path: reason` lines (empty when all went well).
    public var recordingFailures: [String] { (transport as? RecordingTransport)?.writeFailures ?? [] }

    /// Parses and validates `text` against the gateway's schema (server token limits).
    public func prepare(_ text: String, name: String = "request") -> Result<PreparedDocument, DocumentRejection> {
        prepareDocument(
            Source(bytes: Array(text.utf8), name: name), schema: schema,
            parseOptions: ParseOptions(maxTokens: ParseOptions.serverMaxTokens))
    }

    /// Runs one validated operation: estimates its cost and refuses it over
    /// `configuration.maxQueryCost` (a request error with code `QUERY_COST_EXCEEDED`, no
    /// execution, no upstream request), else executes it with fresh per-request loaders.
    ///
    /// With `configuration.cacheResults`, an error-free result read only from cacheable
    /// upstream responses is kept in the cache until the first of them expires, and a repeat of
    /// the same document, operation name and variables is answered from it without executing:
    /// what a repeat would compute from the same cached responses, reported as `requests: 0`,
    /// `cacheHits:` the reads it stands for.
    ///
    /// - Returns: the result and the response `extensions`: `cost {estimated, actual}` (quota
    ///   units: YouTube search 100, other calls 1; actual counts only requests sent, not cache
    ///   hits) and `upstream {requests, cacheHits}`.
    public func execute(prepared: PreparedDocument, operationName: String?, variables: JSONObject) async
        -> GatewayResponse
    {
        let resultKey = resultKey(prepared: prepared, operationName: operationName, variables: variables)
        if let resultKey, let hit = cachedResponse(resultKey: resultKey) { return hit }
        let estimated = estimatedCost(prepared: prepared, operationName: operationName, variables: variables)
        let counters = UpstreamCounters()
        if let refusal = costRefusal(estimated: estimated) { return refusal }
        let scheduler = BatchScheduler()
        let freshness = ResultFreshness()
        let request = GatewayRequest(
            loaders: RequestLoaders(
                providers: providers(counters: counters, freshness: freshness), scheduler: scheduler,
                searchConcurrency: max(1, configuration.searchConcurrency)))
        let result = await GraphQL.execute(
            schema: schema, document: prepared.document, source: prepared.source, variableValues: variables,
            operationName: operationName, resolvers: resolvers, context: request, activity: scheduler,
            planCache: prepared.plans)
        // A cancelled execution may have stopped completing values without an error.
        if let cache, let resultKey, result.errors.isEmpty, !result.isRequestError, !Task.isCancelled,
            let reusable = freshness.reusableUntil
        {
            cache.storeResult(
                CachedResult(result: result, estimatedCost: estimated, upstreamReads: reusable.reads), for: resultKey,
                expires: reusable.expires)
        }
        var response = GatewayResponse(
            result: result, estimatedCost: estimated, counts: counters.snapshot, refused: false)
        if result.errors.isEmpty, !result.isRequestError { response.freshUntil = freshness.reusableUntil?.expires }
        return response
    }

    /// The query's estimated upstream cost in quota units.
    func estimatedCost(prepared: PreparedDocument, operationName: String?, variables: JSONObject) -> Int {
        QueryCost.estimate(
            document: prepared.document, source: prepared.source, operationName: operationName, variables: variables,
            schema: schema)
    }

    /// The refusal of a query whose estimate is over `configuration.maxQueryCost`, or nil.
    func costRefusal(estimated: Int) -> GatewayResponse? {
        guard configuration.maxQueryCost > 0, estimated > configuration.maxQueryCost else { return nil }
        let error = GraphQLError(
            "Query refused: its estimated upstream cost is \(estimated), over the limit of \(configuration.maxQueryCost) "
                + "(each upstream call costs 1, a YouTube search 100; lower `first` arguments or select fewer nested lists).",
            extensions: JSONObject([
                ("code", .string("QUERY_COST_EXCEEDED")), ("estimatedCost", .int(estimated)),
                ("maxQueryCost", .int(configuration.maxQueryCost)),
            ]))
        return GatewayResponse(
            result: ExecutionResult(data: nil, errors: [error]), estimatedCost: estimated,
            counts: UpstreamCounters.Counts(), refused: true)
    }

    /// The answer `execute` would give from a kept result, without waiting; nil when there is
    /// none (then `execute` must run). For servers that answer cached results on the spot.
    public func cachedResponse(prepared: PreparedDocument, operationName: String?, variables: JSONObject)
        -> GatewayResponse?
    {
        resultKey(prepared: prepared, operationName: operationName, variables: variables).flatMap {
            cachedResponse(resultKey: $0)
        }
    }

    func resultKey(prepared: PreparedDocument, operationName: String?, variables: JSONObject)
        -> ExactStringKey?
    {
        guard configuration.cacheResults, cache != nil else { return nil }
        return UpstreamCache.resultKeyBytes(
            document: prepared.source, operationName: operationName, variables: variables)
    }

    func cachedResponse(resultKey: ExactStringKey) -> GatewayResponse? {
        guard let (kept, expires) = cache?.lookUpResultWithExpiry(resultKey) else { return nil }
        var response = kept.hit()
        response.freshUntil = expires
        return response
    }

    /// The five providers of one request, each over a transport that counts into `counters`,
    /// notes cacheability in `freshness`, and reads and fills the shared cache.
    func providers(counters: UpstreamCounters, freshness: ResultFreshness) -> Providers {
        func seam(_ service: UpstreamService) -> RequestTransport {
            RequestTransport(
                service: service, base: transport, cache: cache,
                ttlSeconds: configuration.cacheTTLSeconds[service] ?? 0,
                counters: counters, freshness: freshness)
        }
        let c = configuration
        return Providers(
            itunes: ITunesProvider(
                baseURL: c.baseURL(.iTunes, default: ITunesProvider.defaultBaseURL), country: c.country,
                transport: seam(.iTunes)),
            appleMusic: AppleMusicProvider(
                baseURL: c.baseURL(.appleMusic, default: AppleMusicProvider.defaultBaseURL), token: c.appleMusicToken,
                storefront: c.country.lowercased(), transport: seam(.appleMusic)),
            rakuten: RakutenProvider(
                baseURL: c.baseURL(.rakuten, default: RakutenProvider.defaultBaseURL),
                applicationId: c.rakutenApplicationId,
                accessKey: c.rakutenAccessKey, transport: seam(.rakuten)),
            youTube: YouTubeProvider(
                baseURL: c.baseURL(.youTube, default: YouTubeProvider.defaultBaseURL), key: c.youTubeAPIKey,
                transport: seam(.youTube)),
            tmdb: TMDBProvider(
                baseURL: c.baseURL(.tmdb, default: TMDBProvider.defaultBaseURL), apiKey: c.tmdbAPIKey,
                transport: seam(.tmdb)))
    }
}

/// One gateway answer: the execution result plus what it cost.
public struct GatewayResponse: Sendable {
    public var result: ExecutionResult
    /// The pre-execution cost estimate in quota units.
    public var estimatedCost: Int
    /// Upstream requests, cache hits and the actual cost.
    public var counts: UpstreamCounters.Counts
    /// True when the cost limit refused the query (nothing ran).
    public var refused: Bool
    /// The response as UTF-8 JSON text when it was kept with a cached result (then equal to
    /// `serialized()`); nil otherwise.
    public var serializedBody: [UInt8]?
    /// Until when the response may be reused: the first expiry among the upstream answers it
    /// was built from (all held by the cache). Nil when it must not be: it has errors, or one of
    /// its reads was not cacheable, or it read nothing upstream.
    public var freshUntil: ContinuousClock.Instant?
    /// In a batch, the operations that executed together share `counts` (their upstream reads
    /// were batched together, so a read cannot be told to one of them): true on each of them.
    public var countsSharedWithBatch = false

    /// The response `extensions`: `cost {estimated, actual}`, `upstream {requests, cacheHits}`.
    public var extensions: JSONObject { Self.extensions(estimatedCost: estimatedCost, counts: counts) }

    /// The `extensions` of a request refused before the gateway saw it (a syntax or
    /// validation error): nothing estimated, nothing sent.
    public static var notExecutedExtensions: JSONObject {
        extensions(estimatedCost: 0, counts: UpstreamCounters.Counts())
    }

    private static func extensions(estimatedCost: Int, counts: UpstreamCounters.Counts) -> JSONObject {
        JSONObject([
            ("cost", .object(JSONObject([("estimated", .int(estimatedCost)), ("actual", .int(counts.cost))]))),
            (
                "upstream",
                .object(JSONObject([("requests", .int(counts.totalRequests)), ("cacheHits", .int(counts.cacheHits))]))
            ),
        ])
    }

    /// The whole response map (spec §7.1): `errors`, `data`, then `extensions`.
    public var json: JSONValue {
        guard case .object(var response) = result.json else { return result.json }
        response["extensions"] = .object(extensions)
        return .object(response)
    }

    /// `serialized()` from the result's data text, without parsing it back into values.
    func serializedResponse() -> [UInt8] {
        result.serialized(extensions: extensions)
    }

    /// `json` as UTF-8 JSON text.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.write(json)
        return writer.bytes
    }
}

/// Why a gateway refused to start.
public enum GatewayStartError: Error, Sendable, CustomStringConvertible {
    /// Schema fields with neither a resolver nor a model property, as `Type.field`.
    case unboundFields([String])
    /// The schema text does not build (`SchemaBuildError`'s text).
    case invalidSchema(String)
    /// The recording directory cannot be used (`--record`, `--replay`).
    case recordings(RecordingError)

    public var description: String {
        switch self {
        case .unboundFields(let fields):
            "schema fields without a resolver: \(fields.joined(separator: ", "))"
        case .invalidSchema(let reason):
            "the schema does not build: \(reason)"
        case .recordings(let error):
            "recordings: \(error)"
        }
    }
}
