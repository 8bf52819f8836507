import DataLoader
import Foundation
import GraphQL
import HTTPClient
import HTTPTypes
import SharedState
import UpstreamEconomy

/// The MusicGraph gateway: `schema.graphql` bound to resolvers over the Swift providers and the
/// schema's connectors, with cost protection (an estimate from the schema's cost directives
/// before execution, a hard budget per request and a daily quota per provider during it), a
/// cross-request upstream response cache, and one send for every upstream request wanted while
/// it is in flight.
///
/// One per process. Each `execute` builds the request's own loaders, counters and budget; the
/// HTTP client, the cache, the in-flight table and the quota ledger are shared.
public final class Gateway: Sendable {
    public let schema: Schema
    public let configuration: GatewayConfiguration
    /// The cross-request upstream cache; nil when `cacheMaxBytes` is 0.
    public let cache: UpstreamCache?
    /// The daily quota per provider (`configuration.dailyQuota`).
    public let ledger: QuotaLedger
    /// What the schema's `@cost`/`@listSize` directives say.
    public let costModel: CostModel
    /// Estimates already made for the documents requests repeat.
    let costEstimates = CostEstimateCache()
    let exchange: UpstreamExchange
    /// The loaders' answers kept in front of the cache (in its byte bound); nil without it.
    let memos: AnswerMemos?
    /// The catalog's resolvers, or the mocks of `--mock`.
    let resolvers: any ExecutionResolvers
    /// The upstreams and connector fields the schema declares (`@upstream`, `@http`, `@from`).
    let connectors: ConnectorSchema

    /// A gateway serving `schema` (the embedded `schema.graphql` by default).
    ///
    /// - Parameters:
    ///   - transport: carries upstream GETs; by default a libcurl `HTTPClient` with the
    ///     configuration's timeouts, retries and per-host cap.
    ///   - resolvers: resolvers to run instead of the catalog's (`MockResolvers` for `--mock`:
    ///     answers from the schema alone, no upstream call; cost checks and extensions stay).
    ///   - store: where the quota ledger's counters live and, under the in-process cache, the
    ///     upstream responses (shared with other processes using the same store, and kept across
    ///     restarts by a file or Redis store); in this process's memory by default, which holds
    ///     counters only (the in-process cache already holds the responses).
    ///   - schemaSource: the text `schema` was built from, for the locations of declaration
    ///     problems (`FILE:LINE:COLUMN`); without it they name the field's coordinate.
    /// - Throws: `GatewayStartError.declarations` listing every field that has neither a
    ///   resolver, a model property nor a connector (the gateway refuses to start rather than
    ///   answer null) and every problem of the schema's `@upstream`/`@http`/`@from`
    ///   declarations; `.invalidSchema` for cost directives that cannot be used (a negative
    ///   weight, an unknown slicing argument).
    public init(
        configuration: GatewayConfiguration, schema: Schema? = nil, schemaSource: Source? = nil,
        transport: (any UpstreamTransport)? = nil, resolvers: (any ExecutionResolvers)? = nil,
        store: (any SharedStore)? = nil
    ) throws(GatewayStartError) {
        let schema = try { () throws(GatewayStartError) -> Schema in
            if let schema { return schema }
            return try GatewaySchema.embedded()
        }()
        let connectors = try GatewaySchema.declarations(
            of: schema, source: schemaSource, environment: configuration.connectorEnvironment,
            configuredBaseURLs: configuration.configuredBuiltInBaseURLs, mocked: resolvers != nil)
        self.connectors = connectors
        let catalog: any ExecutionResolvers = resolvers ?? CatalogResolvers()
        self.resolvers =
            connectors.connectors.isEmpty && connectors.fromPaths.isEmpty || resolvers != nil
            ? catalog : ConnectorResolvers(base: catalog, connectors: connectors)
        self.schema = ConnectorDirectives.apiSchema(schema)
        var configuration = configuration
        configuration.declaredSecrets = connectors.secrets
        for (_, upstream) in connectors.upstreams {
            configuration.baseURLs[upstream.service] = upstream.baseURL
            // A built-in API's configured quota (`--daily-quota`) wins over a declared one.
            let configured =
                UpstreamService.builtIn.contains(upstream.service) && configuration.dailyQuota[upstream.service] != nil
            if let units = upstream.dailyUnits, units > 0, !configured {
                configuration.dailyQuota[upstream.service] = units
            }
        }
        self.configuration = configuration
        self.costModel = try CostModel(schema: schema, connectors: connectors)
        let cache =
            configuration.cacheMaxBytes > 0
            ? UpstreamCache(
                maxBytes: configuration.cacheMaxBytes, staleIfErrorSeconds: configuration.staleIfErrorSeconds) : nil
        self.cache = cache
        var traits = UpstreamTraits.builtIn
        for (_, upstream) in connectors.upstreams {
            // A built-in API declared in the schema keeps its own traits (quota day, prices).
            var declared = traits.traits[upstream.service] ?? UpstreamTraits()
            declared.unitsPerCall = upstream.unitsPerCall
            declared.pathWords.formUnion(connectors.pathWords(of: upstream.service))
            traits.traits[upstream.service] = declared
        }
        let ledger = QuotaLedger(
            limits: configuration.dailyQuota, shares: configuration.quotaShares, store: store ?? MemoryStore(),
            traits: traits)
        // A send takes at most its tries' timeouts; a crashed sender's claim ends after that.
        let claimTTLMs = configuration.upstreamTimeoutMs * max(1, configuration.upstreamMaxTries) + 1_000
        let shared = store.flatMap {
            $0 is MemoryStore
                ? nil
                : SharedResponses(
                    store: $0, clock: .system, claimTTLMs: claimTTLMs, baseURLs: configuration.resolvedBaseURLs,
                    scope: configuration.sharedKeyScope, secrets: configuration.secrets,
                    keySecrets: connectors.secrets)
        }
        self.ledger = ledger
        // The libcurl client only when something may be sent (a replay sends nothing).
        let network: () -> any UpstreamTransport = {
            transport
                ?? HTTPClientTransport(
                    client: HTTPClient(
                        configuration: HTTPClient.Configuration(
                            connectTimeoutMs: configuration.upstreamConnectTimeoutMs,
                            timeoutMs: configuration.upstreamTimeoutMs,
                            maxConcurrentRequestsPerHost: configuration.maxConcurrentRequestsPerHost,
                            maxIdleConnections: configuration.maxConcurrentRequestsPerHost,
                            retry: RetryPolicy(maxTries: max(1, configuration.upstreamMaxTries)),
                            secretQueryParameters: HTTPClientTransport.secretQueryParameters)))
        }
        // Recording and replay sit right above the network, below cache, dedup and budget.
        let bases = Array(configuration.resolvedBaseURLs.values)
        let base: any UpstreamTransport
        do throws(RecordingError) {
            if let directory = configuration.replayDirectory {
                base = try ReplayTransport(directory: directory, baseURLs: bases, secrets: configuration.secrets)
            } else if let directory = configuration.recordDirectory {
                base = try RecordingTransport(
                    base: network(), directory: directory, baseURLs: bases, secrets: configuration.secrets)
            } else {
                base = network()
            }
        } catch {
            throw .recordings(error)
        }
        self.exchange = UpstreamExchange(base: base, cache: cache, shared: shared, ledger: ledger, traits: traits)
        self.memos = cache.map(AnswerMemos.init)
    }

    /// What `--record` could not write, as `path: reason` lines (empty when all went well).
    public var recordingFailures: [String] { (exchange.base as? RecordingTransport)?.writeFailures ?? [] }

    /// Parses and validates `text` against the gateway's schema (server token limits), then
    /// checks `limits` (`checkOperationLimits`; none by default, `serve`'s defaults are
    /// `OperationLimits()`): a document over one is `.overLimits`, with the limit's code.
    public func prepare(_ text: String, name: String = "request", limits: OperationLimits = .none)
        -> Result<PreparedDocument, DocumentRejection>
    {
        prepare(bytes: Array(text.utf8), name: name, limits: limits)
    }

    /// `prepare(_:name:limits:)` for the document's bytes as read (a file, stdin): text that
    /// is not UTF-8 is a syntax error naming the byte's offset, never read as U+FFFD.
    public func prepare(bytes: [UInt8], name: String = "request", limits: OperationLimits = .none)
        -> Result<PreparedDocument, DocumentRejection>
    {
        prepareDocument(
            Source(bytes: bytes, name: name), schema: schema,
            parseOptions: ParseOptions(maxTokens: ParseOptions.serverMaxTokens), limits: limits)
    }

    /// Runs one validated operation: estimates its cost from the schema's cost directives and
    /// (in the `enforce` `queryCostMode`) refuses it over `configuration.maxQueryCost` (a request
    /// error with code `QUERY_COST_EXCEEDED`, no execution, no upstream request), else executes it with fresh
    /// per-request loaders under a hard budget of the same size: a try that would take the
    /// request's actual spend over it is not sent, and its fields get `QUERY_BUDGET_EXCEEDED`
    /// errors at their paths; a try that would take a provider over its daily quota gets
    /// `UPSTREAM_QUOTA_EXCEEDED`. The rest of the response resolves as usual.
    ///
    /// With `configuration.cacheResults`, an error-free result read only from cacheable
    /// upstream responses is kept in the cache until the first of them expires, and a repeat of
    /// the same document, operation name and variables is answered from it without executing:
    /// what a repeat would compute from the same cached responses, reported as `requests: 0`,
    /// `cacheHits:` the reads it stands for.
    ///
    /// - Returns: the result and the response `extensions`: `cost {estimated, actual}` (quota
    ///   units; actual counts the tries sent, not cache hits or deduplicated reads),
    ///   `upstream {requests, cacheHits, deduplicated}` and `quota {<service>: {used, limit}}`.
    public func execute(prepared: PreparedDocument, operationName: String?, variables: JSONObject) async
        -> GatewayResponse
    {
        await start(prepared: prepared, operationName: operationName, variables: variables).response
    }

    /// `execute` up to its first wait, on the caller's thread: `.finished` when the response
    /// needed no waiting (a kept result, a refusal, an operation no field of which reads an
    /// upstream, such as `{ __typename }`), else `.pending` with the rest to await. Lets a
    /// server answer the first kind without a task. Same responses as `execute`.
    public func start(prepared: PreparedDocument, operationName: String?, variables: JSONObject) -> GatewayStart {
        // A new process reports what the store says was spent today, not 0 until it sends.
        guard ledger.knowsStoredCounts() else {
            return .pending {
                await self.ledger.loadStoredCounts()
                return await self.startCounted(prepared: prepared, operationName: operationName, variables: variables)
                    .response
            }
        }
        return startCounted(prepared: prepared, operationName: operationName, variables: variables)
    }

    /// `start` once the ledger has today's stored counts.
    private func startCounted(prepared: PreparedDocument, operationName: String?, variables: JSONObject)
        -> GatewayStart
    {
        if RequestMode.dryRun {
            return .pending {
                await self.dryRun(prepared: prepared, operationName: operationName, variables: variables)
            }
        }
        let resultKey = resultKey(prepared: prepared, operationName: operationName, variables: variables)
        if let resultKey, let hit = cachedResponse(resultKey: resultKey) { return .finished(hit) }
        let estimate = estimatedCost(prepared: prepared, operationName: operationName, variables: variables)
        if let refusal = costRefusal(estimate) { return .finished(refusal) }
        let scope = requestScope(budgetLimit: configuration.maxQueryCost)
        let started = GraphQL.startExecution(
            schema: schema, document: prepared.document, source: prepared.source, variableValues: variables,
            operationName: operationName, resolvers: resolvers, context: scope.request, activity: scope.scheduler,
            planCache: prepared.plans, maxResponseBytes: configuration.maxResponseBytes)
        switch started {
        case .finished(let result):
            return .finished(response(result, estimate: estimate, scope: scope, resultKey: resultKey))
        case .pending(let pending):
            return .pending {
                let result = await scope.cancellation.whileRunning { await pending.finish() }
                await scope.settle()
                return self.response(result, estimate: estimate, scope: scope, resultKey: resultKey)
            }
        }
    }

    /// The response of an executed operation, its result kept for repeats when it may be.
    private func response(
        _ result: ExecutionResult, estimate: QueryCost.Estimate, scope: RequestScope, resultKey: ExactStringKey?
    ) -> GatewayResponse {
        let freshness = scope.freshness
        // A cancelled execution may have stopped completing values without an error.
        if let cache, let resultKey, result.errors.isEmpty, !result.isRequestError, !Task.isCancelled,
            let reusable = freshness.reusableUntil
        {
            cache.storeResult(
                CachedResult(result: result, estimatedCost: estimate.cost, upstreamReads: reusable.reads),
                for: resultKey,
                expires: reusable.expires)
        }
        var response = GatewayResponse(
            result: result, estimatedCost: estimate.cost, counts: scope.counters.snapshot, quota: ledger.usage(),
            refused: false)
        response.stale = scope.request.loaders.stale.all
        if result.errors.isEmpty, !result.isRequestError { response.freshUntil = freshness.reusableUntil?.expires }
        return response
    }

    /// The query's estimate from the schema's cost directives, computed once per prepared
    /// document, operation name and variables (`CostEstimateCache`).
    func estimatedCost(prepared: PreparedDocument, operationName: String?, variables: JSONObject)
        -> QueryCost.Estimate
    {
        costEstimates.estimate(prepared: prepared, operationName: operationName, variables: variables) {
            QueryCost.analyze(
                document: prepared.document, source: prepared.source, operationName: operationName,
                variables: variables, schema: schema, model: costModel)
        }
    }

    /// In the `enforce` mode, the refusal of a query whose estimate is over
    /// `configuration.maxQueryCost` or that breaks a `@listSize(requireOneSlicingArgument:)`; nil
    /// when it may run.
    func costRefusal(_ estimate: QueryCost.Estimate) -> GatewayResponse? {
        guard configuration.queryCostMode == .enforce else { return nil }
        if let problem = estimate.problems.first { return refusal(badInput(problem), estimated: estimate.cost) }
        guard configuration.maxQueryCost > 0, estimate.cost > configuration.maxQueryCost else { return nil }
        let error = GraphQLError(
            "Query refused: its estimated upstream cost is \(estimate.cost), over the limit of \(configuration.maxQueryCost) "
                + "(the schema's @cost weights: a YouTube search 100, other calls 1; lower `first` arguments or "
                + "select fewer nested lists).",
            extensions: JSONObject([
                ("code", .string("QUERY_COST_EXCEEDED")), ("estimatedCost", .int(estimate.cost)),
                ("maxQueryCost", .int(configuration.maxQueryCost)),
            ]))
        return refusal(error, estimated: estimate.cost)
    }

    private func refusal(_ error: GraphQLError, estimated: Int) -> GatewayResponse {
        GatewayResponse(
            result: ExecutionResult(data: nil, errors: [error]), estimatedCost: estimated,
            counts: UpstreamCounters.Counts(), quota: ledger.usage(), refused: true)
    }

    /// The `extensions` of a request refused before the gateway saw it (a syntax or
    /// validation error): nothing estimated, nothing sent, and the quota as it stands.
    public func notExecutedExtensions() -> JSONObject {
        GatewayResponse.extensions(estimatedCost: 0, counts: UpstreamCounters.Counts(), quota: ledger.usage())
    }

    /// Upstream requests being sent now (each shared by everyone who needs it).
    public var inFlightCount: Int { exchange.inFlight.count }

    /// Prometheus text for `/metrics`: the upstream requests in flight
    /// (`musicgraph_upstream_in_flight`, a gauge), the quota left per limited provider
    /// (`musicgraph_upstream_quota_remaining{service}`, a gauge) and the calls refused before
    /// sending (`musicgraph_upstream_refused_total{service,reason}`, `reason` `budget` or
    /// `daily_quota`); with a shared store, its health (`musicgraph_store_up{kind}`, a gauge, and
    /// `musicgraph_store_errors_total{kind}`, a counter).
    public func metricsText() -> String {
        var out = "# HELP musicgraph_upstream_in_flight Upstream requests being sent now, each shared by its waiters.\n"
        out += "# TYPE musicgraph_upstream_in_flight gauge\n"
        out += "musicgraph_upstream_in_flight \(inFlightCount)\n"
        out += "# HELP musicgraph_upstream_quota_remaining Quota units left today, by provider with a daily quota.\n"
        out += "# TYPE musicgraph_upstream_quota_remaining gauge\n"
        for usage in ledger.usage() {
            out +=
                "musicgraph_upstream_quota_remaining{service=\"\(usage.service.rawValue)\"} \(max(0, usage.limit - usage.used))\n"
        }
        out +=
            "# HELP musicgraph_upstream_refused_total Upstream calls not sent: over the request's budget or the day's quota.\n"
        out += "# TYPE musicgraph_upstream_refused_total counter\n"
        for (key, count) in exchange.refusals.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            out += "musicgraph_upstream_refused_total{service=\"\(key.service)\",reason=\"\(key.reason)\"} \(count)\n"
        }
        out += storeMetricsText()
        return out
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
        guard let (found, expires) = cache?.lookUpResultWithExpiry(resultKey), let kept = found as? CachedResult else {
            return nil
        }
        var response = kept.hit(quota: ledger.usage())
        response.freshUntil = expires
        return response
    }

    /// The Swift providers of one request, each over a transport that counts into `counters`,
    /// notes cacheability in `freshness`, pays from `budget`, goes through the shared cache
    /// and in-flight table, and sends nothing once `cancellation` says the request is over.
    func providers(
        counters: UpstreamCounters, freshness: ResultFreshness, budget: RequestBudget,
        cancellation: RequestCancellation, client: RequestClient?, plan: DryRunPlan? = nil
    ) -> Providers {
        func seam(_ service: UpstreamService) -> RequestTransport {
            RequestTransport(
                service: service, exchange: exchange, ttlSeconds: configuration.cacheTTLSeconds[service] ?? 0,
                counters: counters, freshness: freshness, budget: budget, cancellation: cancellation, client: client,
                plan: plan)
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
                transport: seam(.youTube)))
    }
}

/// Why a gateway refused to start.
public enum GatewayStartError: Error, Sendable, CustomStringConvertible {
    /// The schema text does not build (`SchemaBuildError`'s text).
    case invalidSchema(String)
    /// Fields nothing answers and problems of the schema's connector declarations, each with
    /// its location, all of them at once.
    case declarations([DeclarationProblem])
    /// The recording directory cannot be used (`--record`, `--replay`).
    case recordings(RecordingError)

    public var description: String {
        switch self {
        case .invalidSchema(let reason):
            "the schema does not build: \(reason)"
        case .declarations(let problems):
            "the schema's declarations have \(problems.count) problem\(problems.count == 1 ? "" : "s"):\n"
                + problems.map(\.description).joined(separator: "\n")
        case .recordings(let error):
            "recordings: \(error)"
        }
    }
}
