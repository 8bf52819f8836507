/// A response status code (RFC 9110 §15): three digits, 100–599 on the wire.
///
/// Integer literals convert (`status == 200`, `HTTPResponse(status: 404, …)`); `code` is the
/// number for arithmetic, logs and metric labels.
public struct HTTPStatus: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code, e.g. 200.
    public var code: Int

    public init(code: Int) {
        self.code = code
    }

    public init(integerLiteral value: Int) {
        self.code = value
    }

    public var description: String { String(code) }

    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }

    /// The class of the code (RFC 9110 §15): 1 informational, 2 successful, 3 redirection,
    /// 4 client error, 5 server error.
    public var codeClass: Int { code / 100 }

    /// 2xx (RFC 9110 §15.3).
    public var isSuccess: Bool { codeClass == 2 }

    /// The RFC 9110 reason phrase of the code ("Not Found"), or "" for a code it does not name.
    public var reasonPhrase: String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 294: "Partial Success"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }

    public static let ok: HTTPStatus = 200
    /// GraphQL over HTTP's "partial success": a response with both `data` and `errors`.
    public static let partialSuccess: HTTPStatus = 294
    public static let noContent: HTTPStatus = 204
    public static let badRequest: HTTPStatus = 400
    public static let unauthorized: HTTPStatus = 401
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let methodNotAllowed: HTTPStatus = 405
    public static let notAcceptable: HTTPStatus = 406
    public static let contentTooLarge: HTTPStatus = 413
    public static let unsupportedMediaType: HTTPStatus = 415
    public static let unprocessableContent: HTTPStatus = 422
    public static let tooManyRequests: HTTPStatus = 429
    public static let internalServerError: HTTPStatus = 500
    public static let badGateway: HTTPStatus = 502
    public static let serviceUnavailable: HTTPStatus = 503
    public static let gatewayTimeout: HTTPStatus = 504
}
