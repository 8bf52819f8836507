import Foundation

/// The one place a provider's GET goes through: runs the transport and turns everything
/// that is not a response into an `UpstreamError`, with the provider's secrets redacted.
struct UpstreamCall {
  let service: UpstreamService
  let transport: any UpstreamTransport
  /// Key/token values that must never appear in an error.
  let secrets: [String]

  func get(_ url: String, headers: [(name: String, value: String)] = []) async throws(UpstreamError)
    -> UpstreamResponse
  {
    do {
      return try await transport.get(url: url, headers: headers)
    } catch let failure as TransportFailure {
      switch failure {
      case .timedOut:
        throw UpstreamError(service: service, kind: .timeout)
      case .connectFailed(let reason), .failed(let reason):
        throw UpstreamError(service: service, kind: .unreachable(reason: redact(reason)))
      }
    } catch let error as UpstreamError {
      throw error
    } catch is CancellationError {
      throw UpstreamError(service: service, kind: .unreachable(reason: "cancelled"))
    } catch {
      throw UpstreamError(service: service, kind: .unreachable(reason: redact(String(describing: error))))
    }
  }

  func redact(_ text: String) -> String { Redaction.redact(text, secrets: secrets) }
}

/// The `Retry-After` header in whole seconds (HTTP-date forms are ignored).
func retryAfterSeconds(_ headers: [String: String]) -> Int? {
  headers["retry-after"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
}
