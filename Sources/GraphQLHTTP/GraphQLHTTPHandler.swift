import GraphQL
import HTTPServer
import HTTPTypes
import LRU
import Tracing

/// Serves a GraphQL schema over HTTP (GraphQL over HTTP, current draft) plus the operational
/// endpoints: `configuration.path` (GraphQL and the GraphiQL page), `/healthz`, `/readyz` and
/// `/metrics`.
///
/// The handler is transport-independent: `handle(_:)` maps an `HTTPRequest` to an
/// `HTTPResponse`, and `GraphQLHTTPServer` plugs it into libmicrohttpd. What the schema's
/// fields do is the application's business: the `execute` closure receives a parsed and
/// validated document, the operation name and the raw variables, and returns a
/// `GraphQLHTTPOutcome` (the execution result, response extensions, a report for metrics, or a
/// rejection before execution). Every request is counted in `metrics` and logged as one JSON
/// line to `configuration.logSink`.
///
/// Immutable, and a class so that the closures of every request capture it with one retain
/// (as a struct, its twenty-odd stored properties were copied into each, a retain apiece).
public final class GraphQLHTTPHandler: Sendable {
    /// Runs one validated operation. Cancelled (task cancellation) when the request deadline
    /// passes; the client has then already been answered 504.
    public typealias Execute =
        @Sendable (_ document: PreparedDocument, _ operationName: String?, _ variables: JSONObject) async ->
        GraphQLHTTPOutcome

    /// `Execute` for the answers that need no waiting (a cached result, execution over static
    /// data): nil leaves the request to `Execute`. Lets `respond(to:)` answer without a task.
    public typealias ExecuteNow =
        @Sendable (_ document: PreparedDocument, _ operationName: String?, _ variables: JSONObject) ->
        GraphQLHTTPOutcome?

    /// Begins one validated operation on the polling thread: `.finished` when it needed no
    /// waiting, else `.later` with the rest (run under the request deadline, as `Execute`).
    /// When given, single operations go through it rather than `ExecuteNow` and `Execute`, so a
    /// request that waits for nothing (`{ __typename }`) is answered without a task, and one
    /// that waits keeps what its synchronous start did. Batches still use `ExecuteNow`.
    public typealias ExecuteStart =
        @Sendable (_ document: PreparedDocument, _ operationName: String?, _ variables: JSONObject) ->
        GraphQLHTTPStart

    /// Runs one validated operation with incremental delivery (`@defer`, `@stream`): hands each
    /// payload to `deliver` as soon as it exists (`.complete` alone, or `.initial` then
    /// `.subsequent` ones until `hasNext == false`), each with the request's cost so far.
    /// `deliver` returns false once nobody reads the answer (client gone, deadline, shutdown):
    /// stop then, and stop the work behind it. The calling task is cancelled in those cases too.
    /// Returns what the whole request cost once the work has stopped: a stream that ended early
    /// is logged and counted with it (upstream requests sent after its last part included).
    public typealias ExecuteIncrementally =
        @Sendable (
            _ document: PreparedDocument, _ operationName: String?, _ variables: JSONObject,
            _ deliver: (GraphQLHTTPIncrementalPart) async -> Bool
        ) async -> RequestReport

    public let schema: Schema
    public let configuration: Configuration
    /// The counters behind `/metrics`.
    public let metrics: GraphQLHTTPMetrics
    let execute: Execute
    let executeNow: ExecuteNow?
    let executeStart: ExecuteStart?
    let executeIncrementally: ExecuteIncrementally?
    let executeBatch: ExecuteBatch
    let documentCache: DocumentCache
    let bodyCache: BodyCache
    /// APQ documents by hash, parsed and validated, in front of the persisted-document store.
    let persistedDocuments: LRUCache<String, PreparedDocument>
    /// The GraphiQL page, written once.
    let graphiQLPage: [UInt8]
    let requestIDs = RequestIDGenerator()
    let deadlines = DeadlineScheduler()
    let negotiations = NegotiationCache()
    let timestamps = TimestampFormatter()
    /// Each client's request rate (`configuration.clientPolicy`), in this process.
    let rateLimiter = ClientRateLimiter()
    /// How far a shutdown has got (`GraphQLHTTPServer.shutdown`): `/readyz` and new requests read it.
    let shutdownPhase = ShutdownPhase()

    /// - Parameters:
    ///   - executeBatch: runs the operations of a batch together; by default each runs through
    ///     `execute`, concurrently.
    ///   - executeIncrementally: runs operations that use `@defer` or `@stream` for clients that
    ///     accept `multipart/mixed` (see `IncrementalDeliveryFormat`); nil, or any other request,
    ///     runs them through `execute`, in one response (the spec allows ignoring deferral).
    public init(
        schema: Schema, configuration: Configuration = Configuration(),
        metrics: GraphQLHTTPMetrics = GraphQLHTTPMetrics(),
        executeNow: ExecuteNow? = nil, executeStart: ExecuteStart? = nil, executeBatch: ExecuteBatch? = nil,
        executeIncrementally: ExecuteIncrementally? = nil, execute: @escaping Execute
    ) {
        self.schema = schema
        self.configuration = configuration
        self.metrics = metrics
        self.executeNow = executeNow
        self.executeStart = executeStart
        self.executeIncrementally = executeIncrementally
        self.execute = execute
        self.executeBatch = executeBatch ?? Self.concurrently(execute)
        self.documentCache = DocumentCache(capacity: configuration.documentCacheSize)
        self.bodyCache = BodyCache(capacity: configuration.documentCacheSize)
        self.persistedDocuments = LRUCache(
            capacity: configuration.persistedQueries.inProcessCapacity, maxBytes: 16 << 20)
        self.graphiQLPage = Array(
            GraphiQLPage.html(
                endpointPath: configuration.path, assetsPath: configuration.graphiQLAssets.map { _ in "graphiql/" },
                defaultQuery: configuration.graphiQLDefaultQuery
            ).utf8)
    }

    /// Where the GraphiQL files are served: `graphiql/` beside the endpoint (`/graphiql/` for
    /// `/graphql`), the page's relative `graphiql/…` URLs.
    var graphiQLAssetsPrefix: String {
        let path = configuration.path
        guard let slash = path.lastIndex(of: "/") else { return "/graphiql/" }
        return String(path[...slash]) + "graphiql/"
    }

    /// Answers one HTTP request; never fails (every problem is a response).
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        await Self.response(respond(to: request))
    }

    /// Answers `request` now when no waiting is needed (every refusal, `/healthz`, `/metrics`,
    /// and operations that `executeStart` or `executeNow` finish at once), else later: the execution under the request
    /// deadline. Runs the checks once either way; an HTTP server calls it on its polling thread
    /// (`HTTPServer.Responder`), so a `.now` answer needs no task.
    public func respond(to request: HTTPRequest) -> HTTPAnswer {
        let start = RequestStart(timestamps: timestamps)
        // Counted in flight before any answer is built (so /metrics sees itself).
        metrics.requestStarted()
        guard request.path == configuration.path else {
            let (response, report) = routeOther(request)
            return .now(finish(request, response: response, report: report, start: start))
        }
        // Past the pre-stop delay of a shutdown: refused at once, without running, while the
        // requests in flight keep their grace.
        if shutdownPhase.current == .refusing {
            metrics.shutdownRefused()
            return .now(
                finish(
                    request, response: GraphQLResponseWriter.failure(.shutDown, media: .json), report: .init(),
                    start: start))
        }
        // Tracing off: this one check, and no span is made.
        guard let tracer = configuration.tracer else { return respondToEndpoint(request, start: start) }
        let span = RequestTracing.serverSpan(tracer, for: request, route: configuration.path)
        let answer = Span.$current.withValue(span) { respondToEndpoint(request, start: start) }
        return RequestTracing.answer(answer, under: span)
    }

    /// `respond(to:)` for the GraphQL endpoint.
    private func respondToEndpoint(_ request: HTTPRequest, start: RequestStart) -> HTTPAnswer {
        let (client, admission) = admitClient(request)
        // `MusicGraph-Query-Plan: dry-run`: the plan of the request's upstream calls, none sent.
        let dryRun = request.headers["MusicGraph-Query-Plan"].map { $0.lowercased() == "dry-run" } ?? false
        if let client, let rate = admission.sharedRate, let shared = configuration.sharedRateLimiter {
            return .later { [self] in
                let admission = await admitShared(client, rate, shared)
                let answer = Self.runNow(for: client, dryRun: dryRun) {
                    respondToGraphQL(request, start: start, refusal: admission.refusal)
                }
                return await Self.response(
                    Self.answer(answer, for: client, dryRun: dryRun, adding: admission.headers))
            }
        }
        let answer = Self.runNow(for: client, dryRun: dryRun) {
            respondToGraphQL(request, start: start, refusal: admission.refusal)
        }
        return Self.answer(answer, for: client, dryRun: dryRun, adding: admission.headers)
    }

    /// `body`, for `client` (`RequestClient.current`) and as a dry run when asked
    /// (`RequestMode.dryRun`).
    private static func runNow<T>(for client: RequestClient?, dryRun: Bool, _ body: () -> T) -> T {
        RequestClient.$current.withValue(client) {
            dryRun ? RequestMode.$dryRun.withValue(true, operation: body) : body()
        }
    }

    /// `runNow` for async work.
    private static func run<T: Sendable>(
        for client: RequestClient?, dryRun: Bool, _ body: @Sendable () async -> T
    ) async -> T {
        await RequestClient.$current.withValue(client) {
            dryRun ? await RequestMode.$dryRun.withValue(true) { await body() } : await body()
        }
    }

    /// The response `answer` gives, waited for.
    private static func response(_ answer: HTTPAnswer) async -> HTTPResponse {
        switch answer {
        case .now(let response): return response
        case .later(let work): return await work()
        case .delayed(let response, let delay):
            try? await Task.sleep(for: delay)
            return response
        }
    }

    /// `answer` with `headers` added to its response, its work run for `client`
    /// (`RequestClient.current`), as a dry run when asked.
    private static func answer(
        _ answer: HTTPAnswer, for client: RequestClient?, dryRun: Bool, adding headers: [(name: String, value: String)]
    ) -> HTTPAnswer {
        @Sendable func adding(_ response: HTTPResponse) -> HTTPResponse {
            guard !headers.isEmpty else { return response }
            var response = response
            for (name, value) in headers { response.headers.replaceOrAdd(name: name, value: value) }
            return response
        }
        switch answer {
        case .now(let response): return .now(adding(response))
        case .delayed(let response, let delay): return .delayed(adding(response), by: delay)
        case .later(let work):
            return .later { adding(await run(for: client, dryRun: dryRun) { await work() }) }
        }
    }

    /// A request to the GraphQL path, for the client worked out already (`refusal`: why it may
    /// not run, answered once the media type is known).
    private func respondToGraphQL(_ request: HTTPRequest, start: RequestStart, refusal: GraphQLHTTPError?)
        -> HTTPAnswer
    {
        switch admitGraphQL(request, refusal: refusal) {
        case .answered(let response, let report):
            return .now(finish(request, response: response, report: report, start: start))
        case .execute(let operation, let media):
            let executable = operation.request
            if let format = incrementalFormat(for: request, operation: operation) {
                return .later { [self] in
                    await executeIncrementallyUnderDeadline(operation, media: media, format: format, request, start)
                }
            }
            let spans = OperationSpans.start(executable)
            switch spans.map({ spans in spans.run { begin(executable) } }) ?? begin(executable) {
            case .finished(let outcome):
                spans?.end(outcome)
                let answer = answer(for: outcome, of: operation, media: media)
                return .now(
                    finish(request, response: response(answer, media: media), report: answer.report, start: start))
            case .later(let rest):
                let traced: @Sendable () async -> GraphQLHTTPOutcome =
                    if let spans {
                        {
                            let outcome = await spans.run { await rest() }
                            spans.end(outcome)
                            return outcome
                        }
                    } else {
                        rest
                    }
                return .later { [self] in
                    let (response, report) = await executeUnderDeadline(
                        operation, media: media, abandonment: request.abandonment, traced)
                    return finish(
                        request, response: given(request, response, media: media), answerReport: report, start: start)
                }
            }
        case .lookUp(let pending, let media):
            return .later { [self] in
                let (response, report): (HTTPResponse, AnswerReport)
                switch await admitLookedUp(pending, media: media) {
                case .answered(let answer):
                    (response, report) = (self.response(answer, media: media), .now(answer.report))
                case .ready(let operation):
                    if let format = incrementalFormat(for: request, operation: operation) {
                        return await executeIncrementallyUnderDeadline(
                            operation, media: media, format: format, request, start)
                    }
                    (response, report) = await executeUnderDeadline(
                        operation, media: media, abandonment: request.abandonment)
                case .lookUp:
                    let answer = GraphQLResponseWriter.answer(for: pending.notFound, media: media)
                    (response, report) = (self.response(answer, media: media), .now(answer.report))
                }
                return finish(
                    request, response: given(request, response, media: media), answerReport: report, start: start)
            }
        case .batch(let slots, let media):
            return .later { [self] in
                let (response, report) = await executeBatchUnderDeadline(
                    slots, media: media, abandonment: request.abandonment)
                return finish(request, response: given(request, response, media: media), report: report, start: start)
            }
        }
    }

    /// One operation begun through the hooks: `executeStart` when given, else a kept answer
    /// from `executeNow`, else all of it later through `execute`.
    private func begin(_ executable: ExecutableRequest) -> GraphQLHTTPStart {
        let (document, operationName, variables) = (
            executable.document, executable.operationName, executable.variables
        )
        if let executeStart { return executeStart(document, operationName, variables) }
        if let outcome = executeNow?(document, operationName, variables) { return .finished(outcome) }
        let execute = self.execute
        return .later { await execute(document, operationName, variables) }
    }

    /// What the client was given: `response`, unless the HTTP server answered in the handler's
    /// place (and cancelled it), so that the log line and the metrics say what really happened:
    /// the 503 of a shutdown, or 499 for a client that closed its connection (nobody reads it).
    func given(_ request: HTTPRequest, _ response: HTTPResponse, media: GraphQLResponseMediaType)
        -> HTTPResponse
    {
        switch request.abandonment.reason {
        case nil: return response
        case .clientClosed: return GraphQLResponseWriter.failure(.clientClosedRequest, media: media)
        case .shutdown, .deadline: return GraphQLResponseWriter.failure(.shutDown, media: media)
        }
    }

    /// Logs and counts an answer the HTTP server gave without calling this handler (the 503 of a
    /// request that arrived after a shutdown answered those in flight), like any other.
    func recordServerAnswer(_ request: HTTPRequest, response: HTTPResponse) {
        let start = RequestStart(timestamps: timestamps)
        metrics.requestStarted()
        if response.status.code == GraphQLHTTPError.shutDown.status.code { metrics.shutdownRefused() }
        _ = finish(request, response: response, report: RequestReport(), start: start)
    }

    /// `text`'s first `limit` characters; counted in bytes first, since nearly every method and
    /// path is short and ASCII and `prefix` walks characters.
    private static func clipped(_ text: String, to limit: Int) -> String {
        text.utf8.count <= limit ? text : String(text.prefix(limit))
    }

    /// When and at what time of day a request arrived.
    struct RequestStart {
        let clock = ContinuousClock()
        let instant: ContinuousClock.Instant
        let time: String

        init(timestamps: TimestampFormatter) {
            instant = clock.now
            time = timestamps.now()
        }
    }

    /// Headers every answer gets, then the metrics and the log line.
    func finish(
        _ request: HTTPRequest, response: HTTPResponse, report: RequestReport, start: RequestStart,
        requestID: String? = nil
    ) -> HTTPResponse {
        let requestID = requestID ?? requestIDs.next(incoming: request.headers["X-Request-Id"])
        let response = decorate(response, for: request, requestID: requestID)
        record(request, status: response.status.code, report: report, start: start, requestID: requestID)
        return response
    }

    /// `finish`, for an answer whose report may come after it (`AnswerReport.late`): the headers
    /// now, the metrics and the log line (with the answer's own duration) once the report is in.
    func finish(_ request: HTTPRequest, response: HTTPResponse, answerReport: AnswerReport, start: RequestStart)
        -> HTTPResponse
    {
        switch answerReport {
        case .now(let report):
            return finish(request, response: response, report: report, start: start)
        case .late(let late):
            let requestID = requestIDs.next(incoming: request.headers["X-Request-Id"])
            let response = decorate(response, for: request, requestID: requestID)
            let status = response.status.code
            // A 499 was never answered: its duration runs until its line, as when it is not late.
            let answered = status == 499 ? nil : start.clock.now
            let client = RequestClient.current
            let span = Span.current
            late.whenDelivered { [self] report in
                record(
                    request, status: status, report: report, start: start, requestID: requestID, answeredAt: answered,
                    client: client, span: span)
            }
            return response
        }
    }

    /// The headers every answer gets: CORS and `X-Request-Id`.
    func decorate(_ response: HTTPResponse, for request: HTTPRequest, requestID: String) -> HTTPResponse {
        var response = response
        configuration.cors.decorate(&response.headers, requestOrigin: request.headers["Origin"])
        response.headers.replaceOrAdd(name: "X-Request-Id", value: requestID)
        return response
    }

    /// The metrics and the log line of an answer with `status`, once it is over (for a streamed
    /// answer, when its last part is written or it is abandoned).
    /// `answeredAt`: when the answer went out, for one recorded later (by default, now).
    /// `client`: who sent it (by default the task's `RequestClient.current`); `span`: the
    /// request's server span, ended here (by default `Span.current`, when it is one).
    func record(
        _ request: HTTPRequest, status: Int, report: RequestReport, start: RequestStart, requestID: String,
        answeredAt: ContinuousClock.Instant? = nil, client: RequestClient? = RequestClient.current,
        span: Span? = Span.current
    ) {
        if let span, span.initialKind == .server { RequestTracing.end(span, status: status) }
        let duration = start.instant.duration(to: answeredAt ?? start.clock.now)
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let label = client?.label
        if status != GraphQLHTTPError.shutDown.status.code, request.path == configuration.path,
            shutdownPhase.current == .refusing
        {
            metrics.shutdownFinished()
        }
        metrics.requestFinished(
            pathLabel: pathLabel(request.path), status: status, durationSeconds: seconds, report: report,
            client: label)
        let log = RequestLog(
            time: start.time, requestID: requestID, method: Self.clipped(request.method.rawValue, to: 16),
            path: Self.clipped(request.path, to: 200), status: status, durationMs: seconds * 1000,
            upstreamRequests: report.totalUpstreamRequests, cacheHits: report.cacheHits, client: label)
        configuration.logSink(log)
    }

    // MARK: - Routing

    /// Every path but the GraphQL one.
    private func routeOther(_ request: HTTPRequest) -> (HTTPResponse, RequestReport) {
        if request.bodyExceededLimit {
            return (
                HTTPResponse(
                    status: 413, contentType: "text/plain; charset=utf-8",
                    body: "request body larger than \(configuration.maxBodyBytes) bytes\n"),
                RequestReport()
            )
        }
        if let assets = configuration.graphiQLAssets, request.path.hasPrefix(graphiQLAssetsPrefix),
            let response = assets.response(
                for: request.path.dropFirst(graphiQLAssetsPrefix.count), ifNoneMatch: request.headers["If-None-Match"])
        {
            guard request.method == "GET" || request.method == "HEAD" else {
                return (Self.methodNotAllowed(allow: "GET, HEAD"), RequestReport())
            }
            return (response, RequestReport())
        }
        switch request.path {
        case "/healthz":
            guard request.method == "GET" || request.method == "HEAD" else {
                return (Self.methodNotAllowed(allow: "GET, HEAD"), RequestReport())
            }
            // Never cached: a cache in between would answer "ok" for a server that is gone.
            return (
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"],
                    body: Array("ok".utf8)),
                RequestReport()
            )
        case "/readyz":
            guard request.method == "GET" || request.method == "HEAD" else {
                return (Self.methodNotAllowed(allow: "GET, HEAD"), RequestReport())
            }
            // A shutdown has begun: not ready, so that a load balancer stops sending at once.
            if shutdownPhase.current != .serving {
                return (
                    HTTPResponse(
                        status: 503, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                        body: Array(#"{"status":"shutting down"}"#.utf8)),
                    RequestReport()
                )
            }
            return (
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                    body: Array(configuration.readinessJSON().utf8)),
                RequestReport()
            )
        case "/metrics":
            guard request.method == "GET" || request.method == "HEAD" else {
                return (Self.methodNotAllowed(allow: "GET, HEAD"), RequestReport())
            }
            return (
                HTTPResponse(
                    status: 200,
                    headers: ["Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store"],
                    body: Array(metrics.render(application: configuration.applicationMetrics()).utf8)),
                RequestReport()
            )
        default:
            return (
                HTTPResponse(
                    status: 404, contentType: "text/plain; charset=utf-8",
                    body: "not found; GraphQL is served at \(configuration.path)\n"),
                RequestReport()
            )
        }
    }

    /// Answers a request to the admin port: `/healthz`, `/readyz` and `/metrics` as on the main
    /// port, 404 for anything else (GraphQL and GraphiQL are not served there).
    public func respondToAdmin(_ request: HTTPRequest) -> HTTPAnswer {
        let start = RequestStart(timestamps: timestamps)
        metrics.requestStarted()
        switch request.path {
        case "/healthz", "/readyz", "/metrics":
            let (response, report) = routeOther(request)
            return .now(finish(request, response: response, report: report, start: start))
        default:
            let response = HTTPResponse(
                status: 404, contentType: "text/plain; charset=utf-8",
                body: "not found; the admin port serves /healthz, /readyz and /metrics\n")
            return .now(finish(request, response: response, report: RequestReport(), start: start))
        }
    }

    /// The metrics label of a path: one of a fixed set, so clients cannot create series.
    private func pathLabel(_ path: String) -> String {
        switch path {
        case configuration.path, "/healthz", "/readyz", "/metrics": path
        default: path.hasPrefix(graphiQLAssetsPrefix) && configuration.graphiQLAssets != nil ? "graphiql" : "other"
        }
    }

    private static func methodNotAllowed(allow: String) -> HTTPResponse {
        HTTPResponse(
            status: 405, headers: ["Content-Type": "text/plain; charset=utf-8", "Allow": allow],
            body: Array("method not allowed; use \(allow)\n".utf8))
    }
}
