/// One logged upstream request, as `GET /__demo/requests` shows it. Secrets are `***`.
struct RequestLogEntry: Sendable {
    var method: String
    var path: String
    /// The raw query as received (still percent-encoded, so tests can check encoding byte
    /// for byte). Shown only as `query`.
    var rawQuery: String
    /// `rawQuery` with the values of secret parameters replaced by `***`: redacted when the log
    /// is read, not for every request (it was a twentieth of DemoUpstream's CPU per request).
    var query: String { Self.redact(rawQuery: rawQuery) }
    var service: DemoService
    /// Status of the answer: 0 while one being made is still open (a hang fault, a first answer
    /// made after the latency); a kept answer's, known at once, is logged with its status while
    /// it waits out the latency.
    var status: Int
    /// Whether an `Authorization` header was sent (its value is never kept).
    var authorization: Bool
    /// The W3C `traceparent` header as sent (no secret: ids and flags), nil without one.
    var traceparent: String?

    init(_ request: DemoRequest, service: DemoService, status: Int) {
        method = request.method
        path = request.path
        rawQuery = request.rawQuery
        self.service = service
        self.status = status
        authorization = request.headers["authorization"] != nil
        traceparent = request.headers["traceparent"]
    }

    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("method", .string(method)), ("path", .string(path)), ("query", .string(query)),
            ("service", .string(service.rawValue)), ("status", .int(status)),
        ]
        if authorization { members.append(("authorization", .string("***"))) }
        if let traceparent { members.append(("traceparent", .string(traceparent))) }
        return .object(members)
    }

    /// Query parameter names whose values are secrets on some upstream.
    static let secretParameters: Set<String> = [
        "key", "api_key", "applicationId", "accessKey", "access_token", "token",
    ]

    /// `rawQuery` with the value of every secret parameter replaced by `***`; everything
    /// else byte for byte as received.
    static func redact(rawQuery: String) -> String {
        rawQuery.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let eq = pair.firstIndex(of: "=") else { return String(pair) }
            let name = QueryDecoding.decode(pair[..<eq])
            return secretParameters.contains(name) ? "\(pair[..<eq])=***" : String(pair)
        }.joined(separator: "&")
    }
}
