import HTTPTypes

/// A response a handler returns: status code, header fields and body bytes.
///
/// The server adds `Content-Length` and `Date` itself; a `Content-Length` given here is ignored.
/// With a `bodyStream`, `body` is ignored and the body is sent chunked, as the stream is written.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code (RFC 9110 §15), e.g. 200.
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// A body written while it is sent (`Transfer-Encoding: chunked`), instead of `body`.
    public var bodyStream: HTTPBodyStream?

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], bodyStream: HTTPBodyStream? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyStream = bodyStream
    }

    /// Equal status, headers and body, and the same stream (or none).
    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.status == rhs.status && lhs.headers == rhs.headers && lhs.body == rhs.body
            && lhs.bodyStream === rhs.bodyStream
    }

    /// A response whose body is `text` in UTF-8, labelled with `contentType`.
    public init(status: HTTPStatus, contentType: String, body text: String) {
        self.init(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }
}

extension HTTPResponse {
    /// 413: the request body was longer than `Configuration.maxBodyBytes`.
    static func payloadTooLarge(limitBytes: Int) -> HTTPResponse {
        HTTPResponse(
            status: 413, contentType: "text/plain; charset=utf-8",
            body: "request body larger than \(limitBytes) bytes\n")
    }

    /// 503: the handler did not answer within `Configuration.requestTimeoutMs`.
    static func deadlineExceeded(timeoutMs: Int) -> HTTPResponse {
        HTTPResponse(
            status: 503, contentType: "text/plain; charset=utf-8",
            body: "request not answered within \(timeoutMs) ms\n")
    }

    /// 499 (nginx's "client closed request"): the client closed its connection before the
    /// handler answered. Never reaches the client; it lets libmicrohttpd finish the request.
    static let clientClosedRequest = HTTPResponse(
        status: 499, contentType: "text/plain; charset=utf-8", body: "client closed request\n")

    /// 503: the server stopped before the handler answered (`Configuration.shutdownResponse`'s
    /// default).
    public static let shuttingDown = HTTPResponse(
        status: 503, contentType: "text/plain; charset=utf-8", body: "server shutting down\n")
}
