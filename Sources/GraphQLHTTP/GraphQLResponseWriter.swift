import GraphQL
import HTTPServer
import HTTPTypes

/// One GraphQL response (spec §7.1) as the HTTP layer sends it: the JSON body, the status it
/// is answered with on its own, how long HTTP caches may keep it, and what it cost behind the
/// gateway. A batch sends several in one array.
struct GraphQLAnswer: Sendable {
    var status: HTTPStatus
    var body: [UInt8]
    /// Seconds an HTTP cache may reuse the response; 0 for none (`Cache-Control: no-store`).
    var maxAgeSeconds: Int = 0
    var report = RequestReport()
    /// Headers the response needs besides the media type and caching (`Allow` of a 405).
    var headers: HTTPHeaders = [:]
}

/// Turns GraphQL results into HTTP responses with the status codes of the GraphQL-over-HTTP
/// draft ("Status Codes"):
///
/// | situation                                   | graphql-response+json | application/json |
/// |---------------------------------------------|-----------------------|------------------|
/// | `data` and no errors                        | 200                   | 200              |
/// | `data` (null too) and errors                | 294                   | 200              |
/// | no `data`: the document does not parse      | 400                   | 200              |
/// | no `data`: validation, operation selection  | 422                   | 200              |
/// |   or variable coercion failed               |                       |                  |
/// | no `data`: the application rejected it      | its status (4xx/5xx)  | 200              |
/// | not a well-formed request (JSON, params)    | 400 / 422             | 400              |
///
/// 422 and 294 are the current draft's (2026): 422 for a well-formed request the server cannot
/// process as GraphQL, 294 ("partial success") when execution ran and produced errors, so that
/// a client or proxy can tell a clean answer from a partial one by its status. Legacy
/// `application/json` keeps the codes older clients expect. Every request error carries an
/// `extensions.code` (see `GraphQLHTTPError`).
enum GraphQLResponseWriter {
    /// The answer for an outcome of the execute closure.
    /// - Parameters:
    ///   - operationResolved: whether GetOperation found the operation; a request error of an
    ///     execution is then a variable coercion failure (`BAD_USER_INPUT`), otherwise an
    ///     operation resolution failure (`OPERATION_RESOLUTION_FAILURE`).
    ///   - cacheable: whether the response may be cached at all (a query, not a mutation);
    ///     it then may for the outcome's `maxAgeSeconds` when it has no errors.
    static func answer(
        for outcome: GraphQLHTTPOutcome, media: GraphQLResponseMediaType, operationResolved: Bool, cacheable: Bool
    ) -> GraphQLAnswer {
        switch outcome.result {
        case .executed(let result) where result.isRequestError:
            let code =
                operationResolved
                ? GraphQLHTTPError.badUserInputCode : GraphQLHTTPError.operationResolutionFailureCode
            // 422 for what the request got wrong (an operation that is not there, variables
            // that do not coerce); an application's own refusal reported as a request error
            // (a cost limit, with its own code) keeps the 400 it has when rejected outright.
            let ownCode = result.errors.contains { $0.extensions["code"] != nil }
            let errors = result.errors.map { $0.withCode(code) }
            return GraphQLAnswer(
                status: media == .graphQLResponseJSON ? (ownCode ? .badRequest : .unprocessableContent) : .ok,
                body: ExecutionResult(data: nil, errors: errors).serialized(extensions: outcome.extensions),
                report: outcome.report)
        case .executed(let result):
            let reusable = cacheable && result.errors.isEmpty ? max(0, outcome.maxAgeSeconds) : 0
            var answer = GraphQLAnswer(
                status: media == .graphQLResponseJSON && !result.errors.isEmpty ? .partialSuccess : .ok,
                body: outcome.serializedBody ?? result.serialized(extensions: outcome.extensions),
                maxAgeSeconds: reusable, report: outcome.report)
            // Built from data older than its freshness: `Age` says how old (RFC 9111 §5.1).
            if let age = outcome.ageSeconds { answer.headers.add(name: "Age", value: String(max(0, age))) }
            return answer
        case .rejected(let errors, let status):
            // Legacy JSON answers a well-formed request 200, except for what is about HTTP
            // rather than GraphQL (a method, a deadline).
            return GraphQLAnswer(
                status: media == .json && status != 405 && status != 504 ? .ok : status,
                body: ExecutionResult(data: nil, errors: errors).serialized(extensions: outcome.extensions),
                report: outcome.report)
        }
    }

    /// `answer` with its body over `maxResponseBytes` replaced: `data: null` and one error at
    /// `locations` (the operation's, as the executor's own `RESPONSE_TOO_LARGE` has them; no
    /// `path`, as no field crossed the limit: the whole body did), `RESPONSE_TOO_LARGE` with
    /// `maximum` and `actual` bytes, then `extensions`; never cached, the upstream report kept
    /// (its requests were sent). Execution happened and `data` is null: 294 (partial success)
    /// with `application/graphql-response+json`, 200 with legacy `application/json`; 4xx is
    /// for request errors, which have no `data`.
    static func tooLarge(
        _ answer: GraphQLAnswer, maxResponseBytes: Int, locations: [SourceLocation], extensions: JSONObject,
        media: GraphQLResponseMediaType = .json
    ) -> GraphQLAnswer {
        let error = GraphQLError(
            "The response is larger than the limit of \(maxResponseBytes) bytes (\(answer.body.count)); none of its "
                + "data is sent. Select fewer fields or smaller lists.",
            locations: locations,
            extensions: JSONObject([
                ("code", .string(GraphQLHTTPError.responseTooLargeCode)), ("maximum", .int(maxResponseBytes)),
                ("actual", .int(answer.body.count)),
            ]))
        return GraphQLAnswer(
            status: media == .graphQLResponseJSON ? .partialSuccess : .ok,
            body: ExecutionResult(data: .null, errors: [error]).serialized(extensions: extensions),
            report: answer.report)
    }

    /// The answer for a document that did not parse or validate, or broke an operation limit:
    /// `GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED` or the limit's own code (e.g.
    /// `MAX_ALIASES_LIMIT`) on each error, 400 (graphql-response+json) or 200.
    static func answer(
        for rejection: DocumentRejection, extensions: JSONObject, media: GraphQLResponseMediaType
    ) -> GraphQLAnswer {
        let errors: [GraphQLError]
        switch rejection {
        case .syntax(let error): errors = [error.withCode(GraphQLHTTPError.parseFailedCode)]
        case .invalid(let invalid): errors = invalid.map { $0.withCode(GraphQLHTTPError.validationFailedCode) }
        case .overLimits(let over): errors = over
        }
        let status: HTTPStatus =
            if case .syntax = rejection { .badRequest } else { .unprocessableContent }
        return GraphQLAnswer(
            status: media == .graphQLResponseJSON ? status : .ok,
            body: ExecutionResult(data: nil, errors: errors).serialized(extensions: extensions))
    }

    /// The answer for a refusal of the HTTP layer's own, with its code and status.
    static func answer(
        for error: GraphQLHTTPError, extensions: JSONObject = JSONObject(), media: GraphQLResponseMediaType
    ) -> GraphQLAnswer {
        GraphQLAnswer(
            status: error.status(for: media),
            body: ExecutionResult(data: nil, errors: [error.graphQLError]).serialized(extensions: extensions))
    }

    /// The HTTP response of one answer: its status, the media type, and `Cache-Control`.
    /// A cacheable one also varies with `Accept`, which picks its media type.
    static func response(
        _ answer: GraphQLAnswer, media: GraphQLResponseMediaType, cacheScope: CacheScope
    ) -> HTTPResponse {
        let maxAge = answer.status == .ok ? answer.maxAgeSeconds : 0
        var headers = answer.headers
        headers.add(name: "Content-Type", value: media.contentType)
        headers.add(name: "Cache-Control", value: cacheScope.cacheControl(maxAgeSeconds: maxAge))
        if maxAge > 0 { headers.add(name: "Vary", value: "Accept") }
        return HTTPResponse(status: answer.status, headers: headers, body: answer.body)
    }

    /// A failure of the HTTP request itself: the response of `error`'s answer.
    static func failure(_ error: GraphQLHTTPError, media: GraphQLResponseMediaType) -> HTTPResponse {
        response(answer(for: error, media: media), media: media, cacheScope: .private)
    }
}
