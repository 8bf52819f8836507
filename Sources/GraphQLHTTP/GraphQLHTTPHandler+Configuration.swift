import GraphQL
import Tracing

extension GraphQLHTTPHandler {
    /// Endpoint paths, limits and policies of the GraphQL endpoint. Every field has a default.
    public struct Configuration: Sendable {
        /// The GraphQL endpoint's path; the draft recommends ending it in `/graphql`.
        public var path: String
        /// Token and depth limits for documents from clients. 15,000 tokens by default
        /// (`ParseOptions.serverMaxTokens`): parsing runs before validation, on strangers' text.
        public var parseOptions: ParseOptions
        /// Validation stops after this many errors (a DoS guard, as in graphql-js).
        public var maxValidationErrors: Int
        /// Depth, aliases, root fields, directives per field and introspection, checked after
        /// validation (`checkOperationLimits`): a document over one is a 400 with the limit's
        /// `extensions.code`, and nothing runs. The defaults of `OperationLimits()`.
        public var operationLimits = OperationLimits()
        /// The largest request body accepted, in bytes (413 beyond). 1 MiB, two orders of
        /// magnitude above any real document plus variables. `GraphQLHTTPServer` gives the same
        /// limit to the HTTP server, which refuses longer bodies before reading them.
        public var maxBodyBytes: Int
        /// The most bytes one GraphQL response body may take (each response of a batch on its
        /// own). The executor should stop writing at such a limit (`execute(maxResponseBytes:)`);
        /// this checks what it answered, errors and `extensions` included: a body over it is
        /// replaced by `data: null` and one `RESPONSE_TOO_LARGE` error (200, as any response
        /// whose execution started). 16 MiB by default; 0 for no limit.
        public var maxResponseBytes = 16 << 20
        /// How long execution may take, in milliseconds, before the client gets a 504 with a
        /// GraphQL error and the execution task is cancelled. 0 disables the deadline.
        public var requestTimeoutMs: Int
        /// Which browser origins may call the endpoint.
        public var cors: CORSPolicy
        /// Whether GET `path` serves the GraphiQL page to clients that prefer `text/html`.
        public var graphiQL: Bool
        /// Receives one `RequestLog` per request (its `line` is the JSON text). Written to
        /// standard error by default, one `write(2)` each; `LogWriter.sink` batches them.
        public var logSink: @Sendable (RequestLog) -> Void
        /// Prepared documents kept by query text, so a repeated query skips parsing and
        /// validation. 0 disables the cache. 512 documents of a few kB each stay well under a MB.
        public var documentCacheSize: Int
        /// The response `extensions` of a document refused before the application runs
        /// (syntax or validation errors, a subscription), so that every GraphQL response of
        /// an application that always sends extensions has the same keys, e.g. the gateway's
        /// zero cost and upstream counts and its quota as it stands. Asked for each such
        /// response; empty (no `extensions`) by default.
        public var refusedDocumentExtensions: @Sendable () -> JSONObject = { JSONObject() }
        /// Series the application adds to `/metrics` (Prometheus text format, each with its
        /// `# HELP` and `# TYPE` lines), asked for at each scrape. None by default.
        public var applicationMetrics: @Sendable () -> String = { "" }
        /// Traces requests to `path` (a SERVER span each, with parse, validate, operation and
        /// execute spans under it) when set; nil (the default) makes no span at all.
        public var tracer: Tracer? = nil
        /// The JSON body of `GET /readyz` (200 until a shutdown begins, then 503: an application
        /// that can answer at all is ready; the body says how, e.g. the gateway's `degraded` while
        /// its shared store is down). Asked for at each request; `{"status":"ready"}` by default.
        public var readinessJSON: @Sendable () -> String = { #"{"status":"ready"}"# }
        /// How long a shutdown keeps serving new GraphQL requests after `/readyz` turned 503
        /// (Kubernetes' pre-stop delay: the time a load balancer takes to stop sending), before
        /// it refuses them. 0 by default: refused at once.
        public var shutdownDelayMs = 0
        /// APQ and trusted documents (APQ on with an in-memory store by default).
        public var persistedQueries = PersistedQueries()
        /// The most GraphQL requests one batch (a JSON array POSTed) may hold; 0 turns batching
        /// off (`BATCHING_NOT_ENABLED`). 16 by default: what one page of an app sends at once,
        /// while bounding the work one HTTP request can ask for.
        public var maxBatchSize = 16
        /// Who each request comes from (clients file, trusted proxies) and the rates they may
        /// send at; every request anonymous and unlimited by default.
        public var clientPolicy = ClientPolicy()
        /// Where the clients' rates are counted for the whole fleet (Redis); nil to count them in
        /// this process only. When it does not answer, this process counts on its own.
        public var sharedRateLimiter: (any SharedRateLimiting)? = nil
        /// Who may cache successful responses (`Cache-Control: max-age=N, private` by default).
        public var cacheScope = CacheScope.private
        /// GraphiQL and React served from this origin; nil serves the page's plain query box.
        public var graphiQLAssets: GraphiQLAssets?
        /// The document GraphiQL opens on when the URL has no `?query=` and the browser kept
        /// none from an earlier visit: an example of the application's schema (comment lines
        /// included), so a first visit can be run at once. nil keeps GraphiQL's own welcome text.
        public var graphiQLDefaultQuery: String? = nil

        public init(
            path: String = "/graphql",
            parseOptions: ParseOptions = ParseOptions(maxTokens: ParseOptions.serverMaxTokens),
            maxValidationErrors: Int = 100, maxBodyBytes: Int = 1 << 20, requestTimeoutMs: Int = 30_000,
            cors: CORSPolicy = CORSPolicy(), graphiQL: Bool = true,
            logSink: @escaping @Sendable (RequestLog) -> Void = RequestLog.standardError, documentCacheSize: Int = 512
        ) {
            self.path = path
            self.parseOptions = parseOptions
            self.maxValidationErrors = maxValidationErrors
            self.maxBodyBytes = maxBodyBytes
            self.requestTimeoutMs = requestTimeoutMs
            self.cors = cors
            self.graphiQL = graphiQL
            self.logSink = logSink
            self.documentCacheSize = documentCacheSize
        }
    }
}
