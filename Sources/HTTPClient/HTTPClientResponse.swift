import HTTPTypes

/// A response the client received: any status code counts as a response, not an error.
public struct HTTPClientResponse: Sendable, Equatable {
    /// The status code of the final response (RFC 9110 §15), e.g. 200.
    public var status: HTTPStatus
    /// The final response's header fields (those of interim 1xx responses are dropped).
    public var headers: HTTPHeaders
    /// The body bytes, already decoded if the server sent them gzip- or deflate-encoded.
    public var body: [UInt8]
    /// How many times the request was sent, 1 when the first try was kept.
    public var tries: Int

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = [], tries: Int = 1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.tries = tries
    }
}
