import GraphQL
import HTTPServer
import HTTPTypes

/// Turns GraphQL results into HTTP responses with the status codes of the GraphQL-over-HTTP
/// draft ("Status Codes"):
///
/// | situation                                   | graphql-response+json | application/json |
/// |---------------------------------------------|-----------------------|------------------|
/// | `data` present and not null                 | 200                   | 200              |
/// | `data: null` (a non-null root field failed) | 200                   | 200              |
/// | no `data`: parse, validation, operation     | 400                   | 200              |
/// |   selection or variable coercion failed     |                       |                  |
/// | no `data`: the application rejected it      | its status (4xx/5xx)  | 200              |
/// | not a well-formed request (JSON, params)    | 400                   | 400              |
///
/// `data: null` is answered 200: the draft says a response with a `data` entry that is null
/// SHOULD get a 2xx and RECOMMENDS 200, because no request error happened; execution started
/// and failed at a field (a "partial response"), and 4xx/5xx there is "not recommended".
enum GraphQLResponseWriter {
    /// The response for an outcome of the execute closure.
    static func response(for outcome: GraphQLHTTPOutcome, media: GraphQLResponseMediaType) -> HTTPResponse {
        switch outcome.result {
        case .executed(let result):
            let status: HTTPStatus = result.isRequestError && media == .graphQLResponseJSON ? .badRequest : .ok
            return HTTPResponse(
                status: status, headers: ["Content-Type": media.contentType],
                body: outcome.serializedBody ?? serialized(result, extensions: outcome.extensions))
        case .rejected(let errors, let status):
            return requestErrors(errors, extensions: outcome.extensions, status: status, media: media)
        }
    }

    /// A response without `data`: request errors. `status` applies to graphql-response+json;
    /// legacy application/json answers 200, except statuses that are about HTTP rather than
    /// GraphQL (405 method, 504 deadline), which both media types keep.
    static func requestErrors(
        _ errors: [GraphQLError], extensions: JSONObject, status: HTTPStatus, media: GraphQLResponseMediaType
    ) -> HTTPResponse {
        let httpStatus = media == .json && !keepsStatusForLegacyJSON(status) ? .ok : status
        return body(errors: errors, data: nil, extensions: extensions, status: httpStatus, media: media)
    }

    /// A failure of the HTTP request itself (not well-formed, wrong method, not acceptable…): the
    /// status holds for both media types, and the body is still a GraphQL response.
    static func failure(_ message: String, status: HTTPStatus, media: GraphQLResponseMediaType) -> HTTPResponse {
        body(errors: [GraphQLError(message)], data: nil, extensions: JSONObject(), status: status, media: media)
    }

    private static func keepsStatusForLegacyJSON(_ status: HTTPStatus) -> Bool {
        status == 405 || status == 504
    }

    private static func body(
        errors: [GraphQLError], data: JSONValue?, extensions: JSONObject, status: HTTPStatus,
        media: GraphQLResponseMediaType
    ) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": media.contentType],
            body: serialized(ExecutionResult(data: data, errors: errors), extensions: extensions))
    }

    /// `{"errors":…,"data":…,"extensions":…}` (each only when present): the result's own JSON
    /// text with `extensions` after it. The data text is copied as the executor wrote it;
    /// parsing it back into values to serialize them again took a third of the handler's time
    /// for a small cached query.
    static func serialized(_ result: ExecutionResult, extensions: JSONObject) -> [UInt8] {
        result.serialized(extensions: extensions)
    }
}
