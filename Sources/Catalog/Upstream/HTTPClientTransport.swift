import HTTPClient

/// `UpstreamTransport` over the libcurl `HTTPClient`: retries, timeouts, the per-host cap
/// and redaction are the client's (see `HTTPClient.Configuration`); this only maps its
/// failures onto `TransportFailure`.
public struct HTTPClientTransport: UpstreamTransport {
  public let client: HTTPClient
  /// Bounds a whole call (every try and back-off) in milliseconds; nil leaves only the
  /// client's per-try timeout.
  public var deadlineMs: Int?

  public init(client: HTTPClient, deadlineMs: Int? = nil) {
    self.client = client
    self.deadlineMs = deadlineMs
  }

  /// The secret query parameters of the five providers, for `HTTPClient.Configuration`:
  /// YouTube `key`, TMDB `api_key`, Rakuten `applicationId` and `accessKey`.
  public static let secretQueryParameters: Set<String> = [
    "key", "api_key", "apikey", "applicationId", "accessKey", "access_token", "token",
  ]

  public func get(url: String, headers: [(name: String, value: String)]) async throws -> UpstreamResponse {
    let deadline = deadlineMs.map { ContinuousClock.now.advanced(by: .milliseconds($0)) }
    do {
      let response = try await client.get(
        url, headers: HTTPClientHeaders(headers.map { ($0.name, $0.value) }), deadline: deadline)
      var fields: [String: String] = [:]
      for field in response.headers { fields[field.name.lowercased()] = field.value }
      return UpstreamResponse(status: response.status, headers: fields, body: response.body)
    } catch {
      switch error {
      case .timedOut, .deadlineExceeded: throw TransportFailure.timedOut
      case .connectFailed(_, let message): throw TransportFailure.connectFailed(reason: message)
      case .responseTooLarge(_, let limit): throw TransportFailure.failed(reason: "response larger than \(limit) bytes")
      case .cancelled: throw CancellationError()
      case .transport(_, let code, let message): throw TransportFailure.failed(reason: "curl \(code): \(message)")
      }
    }
  }
}
