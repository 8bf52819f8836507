import HTTPTypes

/// One HTTP request as the server hands it to a handler: the whole body already read.
public struct HTTPRequest: Sendable {
    /// The request method as sent (`GET`, `POST`, …).
    public var method: HTTPMethod
    /// The request path, percent-decoded, without the query (`/search`).
    public var path: String
    /// The query exactly as sent, without the `?` (empty when there is none), still encoded.
    public var rawQuery: String
    /// The query decoded into `name=value` pairs, in order (see `HTTPQueryItem.parse`).
    public var queryItems: [HTTPQueryItem]
    /// The request header fields, looked up case-insensitively.
    public var headers: HTTPHeaders
    /// The request body bytes (empty for a request without one). Never longer than
    /// `HTTPServer.Configuration.maxBodyBytes`: a longer body is answered 413 without a handler
    /// call, or with `handlerAnswersOversizedBodies` reaches the handler empty, with
    /// `bodyExceededLimit` set.
    public var body: [UInt8]
    /// The body was longer than `maxBodyBytes` and dropped (announced by `Content-Length`, or
    /// counted while it arrived): answer 413.
    public var bodyExceededLimit: Bool
    /// Set by the server when it answers in the handler's place (deadline, shutdown, a client
    /// that closed its connection) just before it cancels the handler's task.
    public var abandonment: RequestAbandonment
    /// The address of the connection's peer (a proxy's, behind one); nil when the socket has
    /// none (a Unix socket) or the request was made in-process.
    public var clientAddress: ClientAddress?

    public init(
        method: HTTPMethod, path: String, rawQuery: String = "", headers: HTTPHeaders = [:], body: [UInt8] = [],
        bodyExceededLimit: Bool = false, abandonment: RequestAbandonment = RequestAbandonment(),
        clientAddress: ClientAddress? = nil
    ) {
        self.method = method
        self.path = path
        self.rawQuery = rawQuery
        self.queryItems = HTTPQueryItem.parse(rawQuery: rawQuery[...])
        self.headers = headers
        self.body = body
        self.bodyExceededLimit = bodyExceededLimit
        self.abandonment = abandonment
        self.clientAddress = clientAddress
    }

    /// The value of the first query item named `name` (exact case), or nil.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
