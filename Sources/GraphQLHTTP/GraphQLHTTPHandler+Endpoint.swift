import GraphQL
import HTTPServer
import HTTPTypes
import Tracing

extension GraphQLHTTPHandler {
    /// The methods the GraphQL path answers.
    static let graphQLMethods = "GET, HEAD, POST, OPTIONS"

    /// A request to the GraphQL path after every check that needs no execution.
    enum Admission {
        /// Answered without waiting (a refusal, a preflight, the GraphiQL page, a batch of kept
        /// results, whose report counts the reads they stand for).
        case answered(HTTPResponse, report: RequestReport = RequestReport())
        /// One operation to execute.
        case execute(ReadyOperation, GraphQLResponseMediaType)
        /// One operation whose document the persisted-document store must be asked for first.
        case lookUp(PendingOperation, GraphQLResponseMediaType)
        /// A batch (a JSON array of requests) with at least one operation to execute or look up.
        case batch([BatchSlot], GraphQLResponseMediaType)
    }

    /// A valid query or mutation, ready to run.
    struct ReadyOperation {
        let request: ExecutableRequest
        /// Whether GetOperation finds the operation (else execution answers why it does not).
        let operationResolved: Bool
        /// A query: its response may be cached when it has no errors.
        let cacheable: Bool
    }

    /// An operation named by an APQ hash or document id this process does not hold.
    struct PendingOperation {
        let parameters: GraphQLRequestParameters
        let hash: String
        let notFound: GraphQLHTTPError
        let isGET: Bool
    }

    /// One request's way to a response: answered already, ready, or to be looked up.
    enum OperationAdmission {
        case answered(GraphQLAnswer)
        case ready(ReadyOperation)
        case lookUp(PendingOperation)
    }

    /// The GraphQL endpoint's checks (GraphQL over HTTP draft, "Request" and "Response"), in
    /// order: CORS preflight; method (405); GraphiQL for browsers; `Accept` (406); a body the
    /// server dropped as over its limit (413); `Content-Type` (415) and body size (413) for
    /// POST; a batch's shape; request parameters (400); the document (persisted documents,
    /// parse and validation); GET may only run queries (405). Never waits; execution under the
    /// deadline (504) is `executeUnderDeadline`.
    /// `refusal`: the client checks' refusal (401, 429), answered once the media type is known,
    /// before the body is read.
    func admitGraphQL(_ request: HTTPRequest, refusal: GraphQLHTTPError? = nil) -> Admission {
        if request.method == "OPTIONS" {
            if request.headers["Access-Control-Request-Method"] != nil {
                return .answered(
                    configuration.cors.preflightResponse(
                        origin: request.headers["Origin"],
                        requestedHeaders: request.headers.values(for: "Access-Control-Request-Headers").joined(
                            separator: ","), allowedMethods: Self.graphQLMethods))
            }
            return .answered(HTTPResponse(status: 204, headers: ["Allow": Self.graphQLMethods]))
        }
        // HEAD is GET without the body (RFC 9110 §9.3.2); libmicrohttpd drops the body.
        let isGET = request.method == "GET" || request.method == "HEAD"
        guard isGET || request.method == "POST" else {
            var response = GraphQLResponseWriter.failure(
                .badRequest(
                    "The \(configuration.path) endpoint accepts GET, HEAD and POST requests, not \(request.method.rawValue.prefix(16)).",
                    status: 405), media: .json)
            response.headers.add(name: "Allow", value: Self.graphQLMethods)
            return .answered(response)
        }

        let acceptValues = request.headers.values(for: "Accept")
        let acceptValue = acceptValues.count == 1 ? acceptValues[0] : acceptValues.joined(separator: ", ")
        let negotiated = acceptValue.isEmpty ? nil : negotiations.decision(for: acceptValue)
        if isGET, configuration.graphiQL, negotiated?.prefersHTML == true {
            return .answered(
                HTTPResponse(
                    status: 200,
                    headers: ["Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache"],
                    body: graphiQLPage))
        }
        // Without an Accept header the draft (after its 2025 watershed) says to answer as if the
        // client had asked for application/graphql-response+json.
        let media: GraphQLResponseMediaType
        if let negotiated {
            // A client that reads only multipart still gets its refusals (and answers with nothing
            // deferred) as ordinary GraphQL responses.
            guard let chosen = negotiated.media ?? (negotiated.incremental != nil ? .graphQLResponseJSON : nil) else {
                return .answered(
                    GraphQLResponseWriter.failure(
                        .badRequest(
                            "The Accept header allows no media type this endpoint produces; accept "
                                + "application/graphql-response+json or application/json.", status: 406), media: .json))
            }
            media = chosen
        } else {
            media = .graphQLResponseJSON
        }
        if let refusal { return .answered(GraphQLResponseWriter.failure(refusal, media: media)) }
        // The server dropped a body over the limit (HTTPServer's handlerAnswersOversizedBodies).
        if request.bodyExceededLimit { return .answered(tooLarge(media)) }

        let admission: OperationAdmission
        if request.method == "POST" {
            if let refusal = refusePOSTBody(request, media: media) { return .answered(refusal) }
            if Self.isBatch(request.body) { return admitBatch(request.body, media: media) }
            admission = admitPOSTBody(request.body, media: media)
        } else {
            let parameters = Result(catching: { () throws(GraphQLRequestParameters.Malformed) in
                try GraphQLRequestParameters.checkUTF8(rawQuery: request.rawQuery)
                return try GraphQLRequestParameters.fromQueryItems(request.queryItems)
            })
            admission = admitOperation(parameters, isGET: true, media: media)
        }
        switch admission {
        case .answered(let answer): return .answered(response(answer, media: media), report: answer.report)
        case .ready(let operation): return .execute(operation, media)
        case .lookUp(let pending): return .lookUp(pending, media)
        }
    }

    /// The request parameters `parameters` gives, with their document found, parsed and
    /// validated, and the operation checked against the method.
    func admitOperation(
        _ parameters: Result<GraphQLRequestParameters, GraphQLRequestParameters.Malformed>, isGET: Bool,
        media: GraphQLResponseMediaType
    ) -> OperationAdmission {
        switch prepareRequest(parameters) {
        case .failure(let refusal): .answered(refusal.answer(media: media, handler: self))
        case .success(.ready(let ready)): admit(ready, isGET: isGET, media: media)
        case .success(.lookUp(let parameters, let hash, let notFound)):
            .lookUp(PendingOperation(parameters: parameters, hash: hash, notFound: notFound, isGET: isGET))
        }
    }

    /// A pending operation once the store answered.
    func admitLookedUp(_ pending: PendingOperation, media: GraphQLResponseMediaType) async -> OperationAdmission {
        switch await lookUpDocument(hash: pending.hash, notFound: pending.notFound) {
        case .failure(let refusal):
            return .answered(refusal.answer(media: media, handler: self))
        case .success(let prepared):
            return admit(
                PreparedRequest(parameters: pending.parameters, prepared: prepared), isGET: pending.isGET,
                media: media)
        }
    }

    /// The checks of a prepared request that depend on its operation: GET may only run
    /// queries (405), subscriptions are not served over HTTP (400).
    private func admit(_ ready: PreparedRequest, isGET: Bool, media: GraphQLResponseMediaType) -> OperationAdmission {
        let (parameters, prepared) = (ready.parameters, ready.prepared)
        let operationType = prepared.operationType(named: parameters.operationName)
        switch operationType {
        case .mutation? where isGET, .subscription? where isGET:
            var answer = GraphQLResponseWriter.answer(
                for: .badRequest(
                    "GET requests can only run query operations; send this operation with POST.", status: 405),
                media: media)
            answer.headers.add(name: "Allow", value: "POST")
            return .answered(answer)
        case .subscription?:
            return .answered(
                GraphQLResponseWriter.answer(
                    for: .badRequest("Subscription operations are not supported over HTTP by this server."),
                    extensions: configuration.refusedDocumentExtensions(), media: media))
        default:
            return .ready(
                ReadyOperation(
                    request: ExecutableRequest(
                        document: prepared, operationName: parameters.operationName, variables: parameters.variables),
                    operationResolved: operationType != nil, cacheable: operationType == .query))
        }
    }

    /// The HTTP response of one GraphQL answer.
    func response(_ answer: GraphQLAnswer, media: GraphQLResponseMediaType) -> HTTPResponse {
        GraphQLResponseWriter.response(answer, media: media, cacheScope: configuration.cacheScope)
    }

    /// Runs an admitted operation under the request deadline: 504 when it passes, with the report
    /// the cancelled execution returns after the answer (`AnswerReport.late`), so the 504's log
    /// line counts the upstream requests it sent; 503 when the server cancels the request
    /// (shutdown past its grace), logged at once with what is known, before the log is flushed.
    /// When the client hangs up (`abandonment` says so) the execution is cancelled and its report
    /// waited for (past the deadline, late), so that the 499's log line counts them too.
    /// `rest`: the operation's remaining work when it was started already (`ExecuteStart`);
    /// by default it runs through `Execute`.
    func executeUnderDeadline(
        _ operation: ReadyOperation, media: GraphQLResponseMediaType, abandonment: RequestAbandonment,
        _ rest: (@Sendable () async -> GraphQLHTTPOutcome)? = nil
    ) async -> (HTTPResponse, AnswerReport) {
        let request = operation.request
        let execute = self.execute
        let late = LateReport()
        let work: @Sendable () async -> GraphQLHTTPOutcome
        if let rest {
            work = rest
        } else if let spans = OperationSpans.start(request) {
            work = {
                let outcome = await spans.run {
                    await execute(request.document, request.operationName, request.variables)
                }
                spans.end(outcome)
                return outcome
            }
        } else {
            work = { await execute(request.document, request.operationName, request.variables) }
        }
        let metrics = self.metrics
        let outcome = await withDeadline(
            timeoutMs: configuration.requestTimeoutMs, scheduler: deadlines,
            abandoned: { outcome in late.deliver(outcome.report) },
            waitsWhenCancelled: { abandonment.reason == .clientClosed }, work)
        // Cancelled by the server: it stopped past its shutdown grace and answered the client
        // 503 itself (the task is cancelled for nothing else); the log and metrics say the same,
        // whether the execution gave up at once or returned a result nobody will read.
        if Task.isCancelled {
            // A client that hung up reads nothing: its 499 line can wait for what its cancelled
            // execution sent, however long past the deadline that takes.
            if outcome == nil, abandonment.reason == .clientClosed {
                return (GraphQLResponseWriter.failure(.clientClosedRequest, media: media), .late(late))
            }
            let report =
                outcome?.report ?? late.decline(sendingLateTo: { metrics.recordLateUpstream($0) }) ?? RequestReport()
            return (GraphQLResponseWriter.failure(.shutDown, media: media), .now(report))
        }
        guard let outcome else {
            return (
                GraphQLResponseWriter.failure(.requestTimeout(ms: configuration.requestTimeoutMs), media: media),
                .late(late)
            )
        }
        let answer = answer(for: outcome, of: operation, media: media)
        return (response(answer, media: media), .now(answer.report))
    }

    /// The answer of an operation's outcome.
    func answer(for outcome: GraphQLHTTPOutcome, of operation: ReadyOperation, media: GraphQLResponseMediaType)
        -> GraphQLAnswer
    {
        let answer = GraphQLResponseWriter.answer(
            for: outcome, media: media, operationResolved: operation.operationResolved, cacheable: operation.cacheable)
        let limit = configuration.maxResponseBytes
        // A request error (a refusal, a variable that does not coerce) is never rewritten: it
        // has no data to cut, and its status says what the client must change.
        guard limit > 0, answer.body.count > limit, !outcome.isStoppedForSize, !outcome.isRequestError else {
            return answer
        }
        return GraphQLResponseWriter.tooLarge(
            answer, maxResponseBytes: limit,
            locations: operation.request.document.operationLocations(named: operation.request.operationName),
            extensions: outcome.extensions, media: media)
    }

    /// 415 for a body that is not `application/json` in UTF-8 (the only request encoding we read;
    /// the draft asks servers to reject POSTs without a Content-Type), 413 for one over the limit.
    private func refusePOSTBody(_ request: HTTPRequest, media: GraphQLResponseMediaType) -> HTTPResponse? {
        guard let contentType = request.headers["Content-Type"] else {
            return GraphQLResponseWriter.failure(
                .badRequest(
                    "A POST request needs a Content-Type header; send the request as application/json.", status: 415),
                media: media)
        }
        if contentType == "application/json" || contentType == "application/json; charset=utf-8" {
            return request.body.count <= configuration.maxBodyBytes ? nil : tooLarge(media)
        }
        let parts = contentType.split(separator: ";").map { $0.trimmingASCIISpaces().lowercased() }
        let charset = parts.dropFirst().first { $0.hasPrefix("charset=") }.map {
            String($0.dropFirst("charset=".count).filter { $0 != "\"" })
        }
        guard parts.first == "application/json", charset == nil || charset == "utf-8" || charset == "utf8" else {
            return GraphQLResponseWriter.failure(
                .badRequest(
                    "Unsupported Content-Type \"\(contentType.prefix(100))\"; send the request as application/json "
                        + "(UTF-8).", status: 415), media: media)
        }
        return request.body.count <= configuration.maxBodyBytes ? nil : tooLarge(media)
    }

    private func tooLarge(_ media: GraphQLResponseMediaType) -> HTTPResponse {
        GraphQLResponseWriter.failure(.payloadTooLarge(maxBodyBytes: configuration.maxBodyBytes), media: media)
    }

    /// Why a request could not be prepared for execution.
    enum PreparationRefusal: Error {
        /// Refused by the HTTP layer (not well-formed, persisted documents).
        case http(GraphQLHTTPError)
        /// The document did not parse or validate.
        case document(DocumentRejection)

        func answer(media: GraphQLResponseMediaType, handler: GraphQLHTTPHandler) -> GraphQLAnswer {
            switch self {
            case .http(let error):
                GraphQLResponseWriter.answer(for: error, media: media)
            case .document(let rejection):
                GraphQLResponseWriter.answer(
                    for: rejection, extensions: handler.configuration.refusedDocumentExtensions(), media: media)
            }
        }
    }

    /// What preparing a request's parameters gives when nothing refused it.
    enum Prepared {
        case ready(PreparedRequest)
        /// The document is to be found in the store first.
        case lookUp(GraphQLRequestParameters, hash: String, notFound: GraphQLHTTPError)
    }

    /// A POST body's parameters and document, through the body cache: a body seen before skips
    /// reading its JSON, parsing and validating.
    private func admitPOSTBody(_ body: [UInt8], media: GraphQLResponseMediaType) -> OperationAdmission {
        let key = body.count <= BodyCache.maxBodyBytes ? ExactStringKey(utf8: body) : nil
        if let key, let known = bodyCache.value(for: key) { return admit(known, isGET: false, media: media) }
        let parameters = Result(catching: { () throws(GraphQLRequestParameters.Malformed) in
            try GraphQLRequestParameters.fromJSONBody(body)
        })
        let preparation = prepareRequest(parameters)
        if let key, case .success(.ready(let ready)) = preparation, !ready.registers {
            bodyCache.insert(ready, for: key)
        }
        switch preparation {
        case .failure(let refusal): return .answered(refusal.answer(media: media, handler: self))
        case .success(.ready(let ready)): return admit(ready, isGET: false, media: media)
        case .success(.lookUp(let parameters, let hash, let notFound)):
            return .lookUp(PendingOperation(parameters: parameters, hash: hash, notFound: notFound, isGET: false))
        }
    }

    /// The request's document, found (`documentSource`), parsed and validated.
    private func prepareRequest(_ read: Result<GraphQLRequestParameters, GraphQLRequestParameters.Malformed>)
        -> Result<Prepared, PreparationRefusal>
    {
        let parameters: GraphQLRequestParameters
        switch read {
        case .success(let read): parameters = read
        case .failure(let malformed): return .failure(.http(.malformed(malformed)))
        }
        switch documentSource(for: parameters) {
        case .refused(let error):
            return .failure(.http(error))
        case .prepared(let prepared):
            return .success(.ready(PreparedRequest(parameters: parameters, prepared: prepared)))
        case .lookUp(let hash, let notFound):
            return .success(.lookUp(parameters, hash: hash, notFound: notFound))
        case .text(let text, let hash):
            return prepare(text).map { prepared in
                if let hash { register(prepared, hash: hash) }
                return .ready(PreparedRequest(parameters: parameters, prepared: prepared, registers: hash != nil))
            }.mapError { .document($0) }
        }
    }

    /// Parse, validate and check the operation limits, through the document cache.
    func prepare(_ query: String) -> Result<PreparedDocument, DocumentRejection> {
        if let cached = documentCache.document(for: query) { return .success(cached) }
        let phases = Span.current.map(DocumentPhaseSpans.init(parent:))
        let result = prepareDocument(
            Source(query), schema: schema, parseOptions: configuration.parseOptions,
            maxErrors: configuration.maxValidationErrors, limits: configuration.operationLimits,
            phases: phases.map { phases in { phases.mark($0) } })
        if case .success(let document) = result {
            documentCache.insert(document, for: query)
        }
        return result
    }
}
