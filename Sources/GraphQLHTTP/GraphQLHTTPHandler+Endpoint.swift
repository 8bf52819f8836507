import GraphQL
import HTTPServer

extension GraphQLHTTPHandler {
    /// The methods the GraphQL path answers.
    static let graphQLMethods = "GET, HEAD, POST, OPTIONS"

    /// A request to the GraphQL path after every check that needs no execution.
    enum Admission {
        /// Answered without executing (a refusal, a preflight, the GraphiQL page).
        case answered(HTTPResponse)
        /// A well-formed request for a valid query or mutation: execute it.
        case execute(AdmittedRequest)
    }

    struct AdmittedRequest {
        let prepared: PreparedDocument
        let operationName: String?
        let variables: JSONObject
        let media: GraphQLResponseMediaType
    }

    /// The GraphQL endpoint's checks (GraphQL over HTTP draft, "Request" and "Response"), in
    /// order: CORS preflight; method (405); GraphiQL for browsers; `Accept` (406); a body the
    /// server dropped as over its limit (413); `Content-Type` (415) and body size (413) for
    /// POST; request parameters (400); parse and validation; GET may only run queries (405).
    /// Never waits; execution under the deadline (504) is `executeUnderDeadline`.
    func admitGraphQL(_ request: HTTPRequest) -> Admission {
        if request.method == "OPTIONS" {
            if request.headers["Access-Control-Request-Method"] != nil {
                return .answered(
                    configuration.cors.preflightResponse(
                        origin: request.headers["Origin"], allowedMethods: Self.graphQLMethods))
            }
            return .answered(HTTPResponse(status: 204, headers: ["Allow": Self.graphQLMethods]))
        }
        // HEAD is GET without the body (RFC 9110 §9.3.2); libmicrohttpd drops the body.
        let isGET = request.method == "GET" || request.method == "HEAD"
        guard isGET || request.method == "POST" else {
            var response = GraphQLResponseWriter.failure(
                "The \(configuration.path) endpoint accepts GET, HEAD and POST requests, not \(request.method.rawValue.prefix(16)).",
                status: 405, media: .json)
            response.headers.add(name: "Allow", value: Self.graphQLMethods)
            return .answered(response)
        }

        let acceptValues = request.headers.values(for: "Accept")
        let acceptValue = acceptValues.count == 1 ? acceptValues[0] : acceptValues.joined(separator: ", ")
        let negotiated = acceptValue.isEmpty ? nil : negotiations.decision(for: acceptValue)
        if isGET, configuration.graphiQL, negotiated?.prefersHTML == true {
            return .answered(
                HTTPResponse(
                    status: 200, contentType: "text/html; charset=utf-8",
                    body: GraphiQLPage.html(endpointPath: configuration.path)))
        }
        // Without an Accept header the draft (after its 2025 watershed) says to answer as if the
        // client had asked for application/graphql-response+json.
        let media: GraphQLResponseMediaType
        if let negotiated {
            guard let chosen = negotiated.media else {
                return .answered(
                    GraphQLResponseWriter.failure(
                        "The Accept header allows no media type this endpoint produces; accept "
                            + "application/graphql-response+json or application/json.", status: 406, media: .json))
            }
            media = chosen
        } else {
            media = .graphQLResponseJSON
        }
        // The server dropped a body over the limit (HTTPServer's handlerAnswersOversizedBodies).
        if request.bodyExceededLimit { return .answered(tooLarge(media)) }

        let preparation: Result<PreparedRequest, PreparationRefusal>
        if request.method == "POST" {
            if let refusal = refusePOSTBody(request, media: media) { return .answered(refusal) }
            preparation = preparePOSTBody(request.body)
        } else {
            preparation = prepare { () throws(GraphQLRequestParameters.Malformed) in
                try GraphQLRequestParameters.fromQueryItems(request.queryItems)
            }
        }
        let parameters: GraphQLRequestParameters
        let prepared: PreparedDocument
        switch preparation {
        case .success(let ready): (parameters, prepared) = (ready.parameters, ready.prepared)
        case .failure(let refusal): return .answered(refusal.response(media: media, handler: self))
        }
        switch prepared.operationType(named: parameters.operationName) {
        case .mutation? where isGET, .subscription? where isGET:
            var response = GraphQLResponseWriter.failure(
                "GET requests can only run query operations; send this operation with POST.", status: 405, media: media)
            response.headers.add(name: "Allow", value: "POST")
            return .answered(response)
        case .subscription?:
            return .answered(
                GraphQLResponseWriter.requestErrors(
                    [GraphQLError("Subscription operations are not supported over HTTP by this server.")],
                    extensions: configuration.refusedDocumentExtensions, status: 400, media: media))
        default:
            break
        }

        return .execute(
            AdmittedRequest(
                prepared: prepared, operationName: parameters.operationName, variables: parameters.variables,
                media: media))
    }

    /// Runs an admitted request under the request deadline: 504 when it passes, 503 when the
    /// server cancels the request (shutdown past its grace).
    func executeUnderDeadline(_ admitted: AdmittedRequest) async -> (HTTPResponse, RequestReport) {
        let none = RequestReport()
        let media = admitted.media
        let (prepared, operationName, variables) = (admitted.prepared, admitted.operationName, admitted.variables)
        let execute = self.execute
        let metrics = self.metrics
        let outcome = await withDeadline(
            timeoutMs: configuration.requestTimeoutMs, scheduler: deadlines,
            abandoned: { outcome in metrics.recordLateUpstream(outcome.report) },
            { await execute(prepared, operationName, variables) })
        // Cancelled by the server: it stopped past its shutdown grace and answered the client
        // 503 itself (the task is cancelled for nothing else); the log and metrics say the same,
        // whether the execution gave up at once or returned a result nobody will read.
        if Task.isCancelled {
            return (
                GraphQLResponseWriter.failure(
                    "The server shut down before the request finished.", status: 503, media: media),
                outcome?.report ?? none
            )
        }
        guard let outcome else {
            return (
                GraphQLResponseWriter.requestErrors(
                    [
                        GraphQLError(
                            "The request did not finish within \(configuration.requestTimeoutMs) ms and was cancelled.",
                            extensions: JSONObject([("code", .string("REQUEST_TIMEOUT"))]))
                    ], extensions: JSONObject(), status: 504, media: media),
                none
            )
        }
        return (GraphQLResponseWriter.response(for: outcome, media: media), outcome.report)
    }

    /// 415 for a body that is not `application/json` in UTF-8 (the only request encoding we read;
    /// the draft asks servers to reject POSTs without a Content-Type), 413 for one over the limit.
    private func refusePOSTBody(_ request: HTTPRequest, media: GraphQLResponseMediaType) -> HTTPResponse? {
        guard let contentType = request.headers["Content-Type"] else {
            return GraphQLResponseWriter.failure(
                "A POST request needs a Content-Type header; send the request as application/json.", status: 415,
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
                "Unsupported Content-Type \"\(contentType.prefix(100))\"; send the request as application/json "
                    + "(UTF-8).", status: 415, media: media)
        }
        return request.body.count <= configuration.maxBodyBytes ? nil : tooLarge(media)
    }

    private func tooLarge(_ media: GraphQLResponseMediaType) -> HTTPResponse {
        GraphQLResponseWriter.failure(
            "The request body is larger than \(configuration.maxBodyBytes) bytes.", status: 413, media: media)
    }

    /// Why a request could not be prepared for execution.
    enum PreparationRefusal: Error {
        /// Not a well-formed request (400 for both media types).
        case malformed(GraphQLRequestParameters.Malformed)
        /// The document did not parse or validate.
        case document(DocumentRejection)

        func response(media: GraphQLResponseMediaType, handler: GraphQLHTTPHandler) -> HTTPResponse {
            switch self {
            case .malformed(let error):
                GraphQLResponseWriter.failure(error.message, status: 400, media: media)
            case .document(let rejection):
                GraphQLResponseWriter.requestErrors(
                    rejection.errors, extensions: handler.configuration.refusedDocumentExtensions, status: 400,
                    media: media)
            }
        }
    }

    /// A POST body's parameters and document, through the body cache: a body seen before skips
    /// reading its JSON, parsing and validating.
    private func preparePOSTBody(_ body: [UInt8]) -> Result<PreparedRequest, PreparationRefusal> {
        let key = body.count <= BodyCache.maxBodyBytes ? ExactStringKey(utf8: body) : nil
        if let key, let known = bodyCache.value(for: key) { return .success(known) }
        let preparation = prepare { () throws(GraphQLRequestParameters.Malformed) in
            try GraphQLRequestParameters.fromJSONBody(body)
        }
        if let key, case .success(let ready) = preparation { bodyCache.insert(ready, for: key) }
        return preparation
    }

    /// The request parameters `read` gives, with their document parsed and validated.
    private func prepare(
        reading read: () throws(GraphQLRequestParameters.Malformed) -> GraphQLRequestParameters
    ) -> Result<PreparedRequest, PreparationRefusal> {
        let parameters: GraphQLRequestParameters
        do {
            parameters = try read()
        } catch {
            return .failure(.malformed(error))
        }
        return prepare(parameters.query).map { PreparedRequest(parameters: parameters, prepared: $0) }
            .mapError { .document($0) }
    }

    /// Parse and validate, through the document cache.
    private func prepare(_ query: String) -> Result<PreparedDocument, DocumentRejection> {
        if let cached = documentCache.document(for: query) { return .success(cached) }
        let result = prepareDocument(
            Source(query), schema: schema, parseOptions: configuration.parseOptions,
            maxErrors: configuration.maxValidationErrors)
        if case .success(let document) = result {
            documentCache.insert(document, for: query)
        }
        return result
    }
}
