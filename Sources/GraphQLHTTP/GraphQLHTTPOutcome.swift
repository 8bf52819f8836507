import GraphQL
import HTTPTypes

/// What the application's execute closure hands back to the HTTP layer for one request.
///
/// Either the operation ran (`executed`: an `ExecutionResult`, whose `data` may be null and
/// whose `errors` may hold field errors or request errors such as a failed variable coercion),
/// or the application refused it before execution (`rejected`: e.g. a query over the cost
/// limit), which is a GraphQL request error: the response has `errors` and no `data`.
///
/// `extensions` become the response's top-level `extensions` entry (spec §7.1 "Response
/// Format"), e.g. the query's cost or upstream request counts; an empty object adds none.
/// `report` is never sent to the client; it feeds `/metrics` and the request log line.
public struct GraphQLHTTPOutcome: Sendable {
    /// How the request ended.
    public enum Result: Sendable {
        /// Execution ran (or failed with a request error of the executor's own).
        case executed(ExecutionResult)
        /// The application refused the request before executing it. `status` is the HTTP status
        /// used with `application/graphql-response+json` (a 4xx or 5xx, e.g. 400 for a cost limit,
        /// 429 for a rate limit); with legacy `application/json` the status is 200 as the
        /// GraphQL-over-HTTP spec asks for any well-formed request.
        case rejected(errors: [GraphQLError], status: HTTPStatus)
    }

    public var result: Result
    /// The response's top-level `extensions` map (omitted when empty).
    public var extensions: JSONObject
    /// Per-request figures for metrics and logging; never part of the response.
    public var report: RequestReport
    /// The response body of an executed operation when the application has it already (a
    /// result kept with its body): sent as is instead of serializing `result` and
    /// `extensions` again. It must be `result.serialized(extensions: extensions)`.
    public var serializedBody: [UInt8]?
    /// How long, in seconds, the response may be reused by HTTP caches: the least remaining
    /// freshness of the data it was built from (for the gateway, of the upstream answers it
    /// read). 0 (the default) means not at all. Only an executed query without errors is ever
    /// cached (`Cache-Control: max-age=N`); anything else is sent `no-store`.
    public var maxAgeSeconds: Int
    /// The age, in seconds, of the oldest data the response was built from when some of it was
    /// served past its freshness (sent as `Age`); nil when all of it was fresh.
    public var ageSeconds: Int?

    public init(
        result: Result, extensions: JSONObject = JSONObject(), report: RequestReport = RequestReport(),
        serializedBody: [UInt8]? = nil, maxAgeSeconds: Int = 0
    ) {
        self.result = result
        self.extensions = extensions
        self.report = report
        self.serializedBody = serializedBody
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// An executed operation; `serializedBody` and `maxAgeSeconds` as the properties say.
    public static func executed(
        _ result: ExecutionResult, extensions: JSONObject = JSONObject(), report: RequestReport = RequestReport(),
        serializedBody: [UInt8]? = nil, maxAgeSeconds: Int = 0
    ) -> GraphQLHTTPOutcome {
        GraphQLHTTPOutcome(
            result: .executed(result), extensions: extensions, report: report, serializedBody: serializedBody,
            maxAgeSeconds: maxAgeSeconds)
    }

    /// A request the application refused before execution.
    /// - Precondition: `status` is a 4xx or 5xx code and `errors` is not empty (a GraphQL
    ///   response without `data` must carry errors, spec §7.1.2).
    public static func rejected(
        _ errors: [GraphQLError], status: HTTPStatus = .badRequest, extensions: JSONObject = JSONObject(),
        report: RequestReport = RequestReport()
    ) -> GraphQLHTTPOutcome {
        precondition((400...599).contains(status), "a rejection needs a 4xx or 5xx status, got \(status)")
        precondition(!errors.isEmpty, "a rejection needs at least one error")
        return GraphQLHTTPOutcome(
            result: .rejected(errors: errors, status: status), extensions: extensions, report: report)
    }
}

extension GraphQLHTTPOutcome {
    /// The answer is already the response-size limit's own (`data: null`, one
    /// `RESPONSE_TOO_LARGE` error, from the executor or the incremental stream): under a tiny
    /// limit its body can be over the limit itself, and replacing it would only lose its
    /// `path` and say the size of the error message instead of the response's.
    var isStoppedForSize: Bool {
        guard case .executed(let result) = result, result.dataJSON == Array("null".utf8), result.errors.count == 1
        else { return false }
        return result.errors[0].extensions["code"] == .string(GraphQLHTTPError.responseTooLargeCode)
    }
}

extension GraphQLHTTPOutcome {
    /// A GraphQL request error: refused before execution, or an execution that ended before
    /// it began (no `data` entry at all).
    var isRequestError: Bool {
        switch result {
        case .rejected: true
        case .executed(let result): result.isRequestError
        }
    }
}

/// What `GraphQLHTTPHandler.ExecuteStart` made of an operation on the polling thread.
public enum GraphQLHTTPStart: Sendable {
    /// Answered without waiting.
    case finished(GraphQLHTTPOutcome)
    /// The rest of the work, awaited in the request's task.
    case later(@Sendable () async -> GraphQLHTTPOutcome)
}
