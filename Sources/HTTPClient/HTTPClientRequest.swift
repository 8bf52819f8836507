import HTTPTypes

/// One request for `HTTPClient.execute`.
public struct HTTPClientRequest: Sendable {
    /// The method, upper case (`GET`, `POST`, `HEAD`, …).
    public var method: HTTPMethod
    /// An absolute `http` or `https` URL. Secret query parameters are allowed: they are redacted
    /// from every error and description (see `HTTPClient.Configuration.secretQueryParameters`).
    public var url: String
    public var headers: HTTPHeaders
    /// The request body, sent as is (set `Content-Type` in `headers`); nil sends none.
    public var body: [UInt8]?
    /// Whether the request may be sent again after a failure or a retryable status (RFC 9110 §9.2.2).
    /// Defaults to true for GET, HEAD, OPTIONS, PUT and DELETE, false otherwise (POST).
    public var isIdempotent: Bool

    public init(
        method: HTTPMethod = .get, url: String, headers: HTTPHeaders = [:], body: [UInt8]? = nil,
        isIdempotent: Bool? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isIdempotent = isIdempotent ?? method.isIdempotent
    }
}
