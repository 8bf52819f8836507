import HTTPClient
import HTTPTypes
import Tracing

/// `UpstreamTransport` over the libcurl `HTTPClient`: retries, timeouts, the per-host cap
/// and redaction are the client's (see `HTTPClient.Configuration`); this only maps its
/// failures onto `TransportFailure` and reports how many times each request was sent.
public struct HTTPClientTransport: UpstreamTransport {
    public let client: HTTPClient
    /// Bounds a whole call (every try and back-off) in milliseconds; nil leaves only the
    /// client's per-try timeout.
    public var deadlineMs: Int?

    public init(client: HTTPClient, deadlineMs: Int? = nil) {
        self.client = client
        self.deadlineMs = deadlineMs
    }

    /// The query parameters that carry API keys and tokens, for `HTTPClient.Configuration` and
    /// the cache and store keys, which leave them out.
    public static let secretQueryParameters: Set<String> = [
        "key", "api_key", "apikey", "applicationId", "accessKey", "access_token", "token",
    ]

    public func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
        try await send(url: url, headers: headers, admitRetry: nil)
    }

    public func get(
        url: String, headers: [(name: String, value: String)], admitRetry: @escaping @Sendable () async -> Bool
    ) async throws -> UpstreamResponse {
        try await send(url: url, headers: headers, admitRetry: admitRetry)
    }

    private func send(
        url: String, headers: [(name: String, value: String)], admitRetry: (@Sendable () async -> Bool)?
    ) async throws -> UpstreamResponse {
        let deadline = deadlineMs.map { ContinuousClock.now.advanced(by: .milliseconds($0)) }
        var fields = HTTPHeaders(headers.map { ($0.name, $0.value) })
        // W3C Trace Context: the upstream learns which span sent it (the read's, when traced).
        if let span = Span.current {
            let parent = span.traceParent
            fields.replaceOrAdd(name: "traceparent", value: parent.header)
            if let state = parent.traceState { fields.replaceOrAdd(name: "tracestate", value: state) }
        }
        let (result, tries) = await client.executeCountingTries(
            HTTPClientRequest(method: "GET", url: url, headers: fields),
            deadline: deadline, admitRetry: admitRetry)
        let failure: TransportFailure
        switch result {
        case .success(let response):
            var fields: [String: String] = [:]
            for field in response.headers { fields[field.name.lowercased()] = field.value }
            return UpstreamResponse(status: response.status.code, headers: fields, body: response.body, tries: tries)
        case .failure(.timedOut), .failure(.deadlineExceeded): failure = .timedOut
        case .failure(.connectFailed(_, let message)): failure = .connectFailed(reason: message)
        case .failure(.responseTooLarge(_, let limit)): failure = .responseTooLarge(limitBytes: limit)
        case .failure(.cancelled): throw CancellationError()
        case .failure(.transport(_, let code, let message)): failure = .failed(reason: "curl \(code): \(message)")
        }
        throw tries > 1 ? TransportFailure.afterTries(failure, tries: tries) : failure
    }
}
