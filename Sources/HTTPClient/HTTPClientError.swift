/// Why `HTTPClient.execute` produced no response. Every URL inside is redacted
/// (`HTTPClient.redactedURL(_:)`), and messages have secret values replaced by `***`.
public enum HTTPClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection could be made (refused, unreachable, name not resolved), after every try.
    case connectFailed(url: String, message: String)
    /// A try took longer than its timeout (`Configuration.connectTimeoutMs` or `timeoutMs`),
    /// after every try. `afterMs` is the timeout of the last try.
    case timedOut(url: String, afterMs: Int)
    /// The caller's deadline passed before a response arrived (tries and waits included).
    case deadlineExceeded(url: String)
    /// The response body was longer than `Configuration.maxResponseBytes`; the transfer was aborted.
    case responseTooLarge(url: String, limitBytes: Int)
    /// The calling task was cancelled.
    case cancelled(url: String)
    /// Any other libcurl failure: `code` is the `CURLcode`, `message` libcurl's explanation.
    case transport(url: String, code: Int, message: String)

    /// A stable upper-case label without the details, fit for metrics and `extensions.code` mapping.
    public var code: String {
        switch self {
        case .connectFailed: "CONNECT_FAILED"
        case .timedOut: "TIMED_OUT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .responseTooLarge: "RESPONSE_TOO_LARGE"
        case .cancelled: "CANCELLED"
        case .transport: "TRANSPORT"
        }
    }

    /// The redacted URL of the request that failed.
    public var url: String {
        switch self {
        case .connectFailed(let url, _), .timedOut(let url, _), .deadlineExceeded(let url),
            .responseTooLarge(let url, _), .cancelled(let url), .transport(let url, _, _):
            url
        }
    }

    public var description: String {
        switch self {
        case .connectFailed(let url, let message): "cannot connect for \(url): \(message)"
        case .timedOut(let url, let afterMs): "no response from \(url) within \(afterMs) ms"
        case .deadlineExceeded(let url): "deadline passed before \(url) answered"
        case .responseTooLarge(let url, let limitBytes): "response from \(url) larger than \(limitBytes) bytes"
        case .cancelled(let url): "request to \(url) cancelled"
        case .transport(let url, let code, let message): "request to \(url) failed (curl \(code)): \(message)"
        }
    }
}
