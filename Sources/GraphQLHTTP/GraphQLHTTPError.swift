import GraphQL
import HTTPTypes

/// A request the HTTP layer refuses before anything executes: one GraphQL error with a stable
/// `extensions.code` (Apollo's names where Apollo has one) and the HTTP status it is answered
/// with in each response media type.
///
/// | code | when | graphql-response+json | application/json |
/// |---|---|---|---|
/// | `BAD_REQUEST` | the body or a parameter is not JSON; a method, media type or batch shape | 4xx | same |
/// | `BAD_REQUEST` | JSON parameters that are not a GraphQL request (no query, wrong types) | 422 | 400 |
/// | `GRAPHQL_PARSE_FAILED` | the document does not parse | 400 | 200 |
/// | `GRAPHQL_VALIDATION_FAILED` | the document does not validate (or breaks an operation limit) | 422 | 200 |
/// | `OPERATION_RESOLUTION_FAILURE` | no operation of that name, or several and no name | 422 | 200 |
/// | `BAD_USER_INPUT` | the variables do not coerce to their types | 422 | 200 |
/// | `PERSISTED_QUERY_NOT_FOUND` | an APQ hash this server does not know (send the query) | 200 | 200 |
/// | `PERSISTED_QUERY_NOT_FOUND` | a `documentId` this server does not know | 404 | 200 |
/// | `PERSISTED_QUERY_HASH_MISMATCH` | the query's SHA-256 is not the hash sent with it | 400 | 200 |
/// | `PERSISTED_QUERY_NOT_SUPPORTED` | APQ is turned off and the hash is not a trusted document | 400 | 200 |
/// | `PERSISTED_QUERY_NOT_IN_LIST` | trusted documents are required and this one is not listed | 400 | 400 |
/// | `BATCHING_NOT_ENABLED`, `BATCH_LIMIT_EXCEEDED` | a batch when batching is off, or too long | 400 | 400 |
/// | `PAYLOAD_TOO_LARGE` | the body is over the limit | 413 | 413 |
/// | `UNAUTHENTICATED` | a client key that is not in the clients file | 401 | 401 |
/// | `RATE_LIMITED` | the client sent more requests than its rate allows | 429 | 429 |
/// | `REQUEST_TIMEOUT` | execution passed the request deadline | 504 | 504 |
/// | `SERVICE_UNAVAILABLE` | the server shut down before the request finished | 503 | 503 |
///
/// `PERSISTED_QUERY_NOT_FOUND` for an APQ hash is answered 200 on purpose: Apollo's
/// persisted-query link gives up on APQ for good when that answer is a 400 or 500, instead of
/// retrying with the query (Apollo Server answers it 200 as well). A safelist refusal keeps
/// its 400 with either media type, like an authorization failure: it is the server's policy,
/// not a GraphQL error of the request.
public struct GraphQLHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `extensions.code` value.
    public let code: String
    public let message: String
    /// The status with `application/graphql-response+json`.
    public let status: HTTPStatus
    /// The status with legacy `application/json`.
    public let legacyStatus: HTTPStatus

    init(code: String, message: String, status: HTTPStatus, legacyStatus: HTTPStatus? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.legacyStatus = legacyStatus ?? status
    }

    public var description: String { "\(code): \(message)" }

    /// The status for `media`.
    func status(for media: GraphQLResponseMediaType) -> HTTPStatus {
        media == .json ? legacyStatus : status
    }

    /// The GraphQL error of the response's `errors` list.
    var graphQLError: GraphQLError {
        GraphQLError(message, extensions: JSONObject([("code", .string(code))]))
    }

    // MARK: - Codes

    static let badRequestCode = "BAD_REQUEST"
    static let parseFailedCode = "GRAPHQL_PARSE_FAILED"
    static let validationFailedCode = "GRAPHQL_VALIDATION_FAILED"
    static let operationResolutionFailureCode = "OPERATION_RESOLUTION_FAILURE"
    static let badUserInputCode = "BAD_USER_INPUT"
    /// A response over `Configuration.maxResponseBytes` (the executor's own limit uses it too).
    static let responseTooLargeCode = "RESPONSE_TOO_LARGE"

    // MARK: - Refusals

    /// Not a well-formed GraphQL-over-HTTP request (the same status for both media types).
    static func badRequest(_ message: String, status: HTTPStatus = .badRequest) -> GraphQLHTTPError {
        GraphQLHTTPError(code: badRequestCode, message: message, status: status)
    }

    /// Parameters that do not make a GraphQL-over-HTTP request: 400 when their JSON does not
    /// parse, else 422 with `application/graphql-response+json` (the well-formed JSON is not a
    /// request) and 400 with legacy `application/json`.
    static func malformed(_ malformed: GraphQLRequestParameters.Malformed) -> GraphQLHTTPError {
        switch malformed {
        case .bodyNotJSON, .variablesNotJSON, .extensionsNotJSON, .parameterNotUTF8: badRequest(malformed.message)
        default:
            GraphQLHTTPError(
                code: badRequestCode, message: malformed.message, status: .unprocessableContent,
                legacyStatus: .badRequest)
        }
    }

    static func payloadTooLarge(maxBodyBytes: Int) -> GraphQLHTTPError {
        GraphQLHTTPError(
            code: "PAYLOAD_TOO_LARGE", message: "The request body is larger than \(maxBodyBytes) bytes.", status: 413)
    }

    /// An APQ hash without a known document. The message is the one Apollo's links look for.
    static let persistedQueryNotFound = GraphQLHTTPError(
        code: "PERSISTED_QUERY_NOT_FOUND", message: "PersistedQueryNotFound", status: .ok)

    static func documentNotFound(_ documentId: String) -> GraphQLHTTPError {
        GraphQLHTTPError(
            code: "PERSISTED_QUERY_NOT_FOUND",
            message: "No persisted document has the id \"\(documentId.prefix(100))\".", status: 404, legacyStatus: .ok)
    }

    static func unsupportedDocumentId(_ documentId: String) -> GraphQLHTTPError {
        badRequest(
            "\"\(documentId.prefix(100))\" is not a document id this server reads: send sha256:<64 lower-case hex "
                + "digits of the document's SHA-256> or the id of a trusted document (letters, digits, -._~).")
    }

    static func hashMismatch(_ hash: String) -> GraphQLHTTPError {
        GraphQLHTTPError(
            code: "PERSISTED_QUERY_HASH_MISMATCH",
            message: "The query's SHA-256 is not the sha256Hash \"\(hash.prefix(64))\" sent with it.", status: 400,
            legacyStatus: .ok)
    }

    /// APQ is off. The message is the one Apollo's links look for (they then stop hashing).
    static let persistedQueryNotSupported = GraphQLHTTPError(
        code: "PERSISTED_QUERY_NOT_SUPPORTED", message: "PersistedQueryNotSupported", status: 400, legacyStatus: .ok)

    static let notInList = GraphQLHTTPError(
        code: "PERSISTED_QUERY_NOT_IN_LIST",
        message: "This server runs trusted documents only, and this document is not one of them.", status: 400)

    static let batchingNotEnabled = GraphQLHTTPError(
        code: "BATCHING_NOT_ENABLED",
        message: "Batching is turned off on this server: send one GraphQL request (a JSON object) per HTTP request.",
        status: 400)

    static func batchLimitExceeded(count: Int, max: Int) -> GraphQLHTTPError {
        GraphQLHTTPError(
            code: "BATCH_LIMIT_EXCEEDED",
            message: "The batch holds \(count) requests; this server runs at most \(max) per batch.", status: 400)
    }

    static let emptyBatch = badRequest("The batch is empty: send a JSON array of one or more GraphQL requests.")

    static func requestTimeout(ms: Int) -> GraphQLHTTPError {
        GraphQLHTTPError(
            code: "REQUEST_TIMEOUT", message: "The request did not finish within \(ms) ms and was cancelled.",
            status: 504)
    }

    static let unauthenticated = GraphQLHTTPError(
        code: "UNAUTHENTICATED",
        message: "The client key is not one this server knows: send a key from its clients file, or none.",
        status: 401)

    static func rateLimited(retryAfterSeconds: Int) -> GraphQLHTTPError {
        GraphQLHTTPError(
            code: "RATE_LIMITED",
            message: "Too many requests from this client: try again in \(retryAfterSeconds) s.", status: 429)
    }

    static let shutDown = GraphQLHTTPError(
        code: "SERVICE_UNAVAILABLE", message: "The server shut down before the request finished.", status: 503)

    /// Logged and counted only: the client closed its connection before the answer, so nobody
    /// reads it (nginx's 499).
    static let clientClosedRequest = GraphQLHTTPError(
        code: "CLIENT_CLOSED_REQUEST", message: "The client closed its connection before the answer.", status: 499)
}

extension GraphQLError {
    /// This error with `extensions.code` set to `code`, unless it has a code already (an error
    /// of the application's, or of an upstream, keeps its own).
    func withCode(_ code: String) -> GraphQLError {
        guard extensions["code"] == nil else { return self }
        var error = self
        error.extensions["code"] = .string(code)
        return error
    }
}
