import CCurl
import HTTPTypes
import Synchronization

/// An async HTTP client on libcurl's multi interface, for calling upstream web APIs.
///
/// The transfers of one client are spread over `Configuration.transferThreads` libcurl multi
/// handles, each driven by a dedicated thread, so connections are kept alive and reused. Each
/// call may be retried (see `RetryPolicy`), is bounded by an optional absolute deadline,
/// honours task cancellation, and never renders a secret (`Configuration.secretQueryParameters`,
/// `secretHeaders`) into an error or description.
/// TLS peer and host verification are always on.
public final class HTTPClient: Sendable {
    public let configuration: Configuration
    /// The transfer threads' loops (internal for tests).
    let loops: [CurlMultiLoop]
    private let nextLoop = Atomic<Int>(0)
    private let limiter: HostLimiter
    private let redactor: SecretRedactor

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let threads = max(1, configuration.transferThreads)
        loops = (0..<threads).map { _ in
            CurlMultiLoop(maxConnections: max(1, configuration.maxIdleConnections / threads))
        }
        limiter = HostLimiter(limit: configuration.maxConcurrentRequestsPerHost)
        redactor = SecretRedactor(
            secretQueryParameters: configuration.secretQueryParameters, secretHeaders: configuration.secretHeaders)
    }

    deinit {
        for loop in loops { loop.stop() }
    }

    /// `url` with the values of secret query parameters and any userinfo password replaced by
    /// `***`; the form every error, description and log line of ours uses.
    public func redactedURL(_ url: String) -> String {
        redactor.redact(url: url)
    }

    /// `GET url`. See `execute(_:deadline:)`.
    public func get(
        _ url: String, headers: HTTPHeaders = [:], deadline: ContinuousClock.Instant? = nil
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        try await execute(HTTPClientRequest(method: "GET", url: url, headers: headers), deadline: deadline)
    }

    /// `POST url` with `body` (not retried unless `execute` is given an idempotent request).
    public func post(
        _ url: String, headers: HTTPHeaders = [:], body: [UInt8], deadline: ContinuousClock.Instant? = nil
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        try await execute(HTTPClientRequest(method: "POST", url: url, headers: headers, body: body), deadline: deadline)
    }

    /// Sends `request`, retrying per `configuration.retry`, and returns the last response of any
    /// status. At most `configuration.maxConcurrentRequestsPerHost` calls per host are in flight;
    /// the others wait in line.
    ///
    /// - Parameter deadline: an absolute time bounding everything: waiting in line, every try
    ///   and the waits between tries. No retry starts a wait that would end after it; if one was
    ///   due, the last response is returned, or `.deadlineExceeded` thrown after a failure.
    /// - Returns: the response, with `tries` = how many times it was sent.
    /// - Throws: `HTTPClientError`: `.connectFailed` / `.timedOut` when the last try failed so,
    ///   `.deadlineExceeded`, `.responseTooLarge`, `.cancelled` (task cancelled), `.transport`.
    public func execute(
        _ request: HTTPClientRequest, deadline: ContinuousClock.Instant? = nil
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        try await executeCountingTries(request, deadline: deadline).result.get()
    }

    /// `execute(_:deadline:)`, with how many times the request was sent, failures included (a
    /// response carries it as `tries` too): for callers that count upstream requests or quota.
    ///
    /// - Parameter admitRetry: asked before each retry (never before the first try), after the
    ///   policy's wait; `false` ends the call with the last try's outcome, as if the policy allowed
    ///   no more tries. Callers that pay per try (a quota, a budget) reserve the try here.
    public func executeCountingTries(
        _ request: HTTPClientRequest, deadline: ContinuousClock.Instant? = nil,
        admitRetry: (@Sendable () async -> Bool)? = nil
    ) async -> (result: Result<HTTPClientResponse, HTTPClientError>, tries: Int) {
        let clock = ContinuousClock()
        let host = Self.hostKey(of: request.url)
        var tries = 0
        while true {
            guard !Task.isCancelled else { return (.failure(.cancelled(url: redactedURL(request.url))), tries) }
            switch await limiter.acquire(host: host, deadline: deadline) {
            case .acquired: break
            case .cancelled: return (.failure(.cancelled(url: redactedURL(request.url))), tries)
            case .deadlineExceeded: return (.failure(.deadlineExceeded(url: redactedURL(request.url))), tries)
            }
            var timeoutMs = configuration.timeoutMs
            var clippedByDeadline = false
            if let deadline {
                let remainingMs = Self.milliseconds(clock.now.duration(to: deadline))
                guard remainingMs > 0 else {
                    limiter.release(host: host)
                    return (.failure(.deadlineExceeded(url: redactedURL(request.url))), tries)
                }
                if remainingMs < timeoutMs {
                    timeoutMs = remainingMs
                    clippedByDeadline = true
                }
            }
            tries += 1
            let outcome = await transfer(
                request, timeoutMs: timeoutMs, connectTimeoutMs: min(configuration.connectTimeoutMs, timeoutMs))
            limiter.release(host: host)

            let result = classify(outcome, request: request, timeoutMs: timeoutMs, clippedByDeadline: clippedByDeadline)
            let retryOutcome: RetryPolicy.TryOutcome
            switch result {
            case .success(let response):
                retryOutcome = .response(
                    status: response.status.code,
                    retryAfterSeconds: RetryPolicy.retryAfterSeconds(response.headers["Retry-After"]))
            case .failure(.connectFailed): retryOutcome = .connectFailed
            case .failure(.timedOut): retryOutcome = .timedOut
            case .failure: retryOutcome = .final
            }
            guard
                let delayMs = configuration.retry.delayMs(
                    after: retryOutcome, completedTries: tries, isIdempotent: request.isIdempotent,
                    random: Double.random(in: 0..<1))
            else {
                return (Self.stamping(result, tries: tries), tries)
            }
            if let deadline, clock.now.advanced(by: .milliseconds(delayMs)) >= deadline {
                // A retry was due but cannot finish in time: a response is still worth returning,
                // a failure means the deadline cut the call short.
                guard case .success(var response) = result else {
                    return (.failure(.deadlineExceeded(url: redactedURL(request.url))), tries)
                }
                response.tries = tries
                return (.success(response), tries)
            }
            do {
                try await Task.sleep(for: .milliseconds(delayMs))
            } catch {
                return (.failure(.cancelled(url: redactedURL(request.url))), tries)
            }
            if let admitRetry, await !admitRetry() {
                return (Self.stamping(result, tries: tries), tries)
            }
        }
    }

    /// `result` with a response's `tries` set.
    private static func stamping(_ result: Result<HTTPClientResponse, HTTPClientError>, tries: Int)
        -> Result<HTTPClientResponse, HTTPClientError>
    {
        result.map { response in
            var response = response
            response.tries = tries
            return response
        }
    }

    // MARK: - One try

    private func transfer(_ request: HTTPClientRequest, timeoutMs: Int, connectTimeoutMs: Int) async -> TransferOutcome
    {
        guard
            let transfer = CurlTransfer(
                request: request, timeoutMs: timeoutMs, connectTimeoutMs: connectTimeoutMs,
                maxResponseBytes: configuration.maxResponseBytes, userAgent: configuration.userAgent)
        else {
            return .failed(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "curl_easy_init failed")
        }
        // Round robin: a burst of calls (a wave of searches opening their connections) is sent by
        // all the loop threads at once instead of queueing behind one.
        let loop = loops[nextLoop.add(1, ordering: .relaxed).oldValue % loops.count]
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                loop.start(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }

    private func classify(
        _ outcome: TransferOutcome, request: HTTPClientRequest, timeoutMs: Int, clippedByDeadline: Bool
    ) -> Result<HTTPClientResponse, HTTPClientError> {
        if case .completed(let status, let headers, let body) = outcome {
            return .success(HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: body))
        }
        // Only errors name the URL: redacting it for every response cost ~35 us per call.
        let url = redactedURL(request.url)
        switch outcome {
        case .completed(let status, let headers, let body):
            return .success(HTTPClientResponse(status: HTTPStatus(code: status), headers: headers, body: body))
        case .tooLarge:
            return .failure(.responseTooLarge(url: url, limitBytes: configuration.maxResponseBytes))
        case .cancelled:
            return .failure(.cancelled(url: url))
        case .failed(let code, let rawMessage):
            let message = redactor.scrub(rawMessage, secrets: redactor.secretValues(of: request))
            switch CURLcode(rawValue: UInt32(code)) {
            case CURLE_OPERATION_TIMEDOUT:
                return .failure(
                    clippedByDeadline ? .deadlineExceeded(url: url) : .timedOut(url: url, afterMs: timeoutMs))
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                return .failure(.connectFailed(url: url, message: message))
            default:
                return .failure(.transport(url: url, code: code, message: message))
            }
        }
    }

    // MARK: - Helpers

    /// `scheme://host:port` in lower case, the unit of `maxConcurrentRequestsPerHost`.
    static func hostKey(of url: String) -> String {
        // An ASCII URL (every one a provider builds: values are percent-encoded) is cut as bytes;
        // through Foundation's `range(of:)` and Substring indices it was 32,000 instructions a call.
        var url = url
        if let key = url.withUTF8({ asciiHostKey($0) }) { return key }
        guard let schemeEnd = url.range(of: "://") else { return url.lowercased() }
        let rest = url[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        return (url[..<schemeEnd.upperBound] + authority).lowercased()
    }

    /// `hostKey(of:)` of an all-ASCII URL; nil for any other.
    private static func asciiHostKey(_ url: UnsafeBufferPointer<UInt8>) -> String? {
        guard url.allSatisfy({ $0 < 0x80 }) else { return nil }
        func lowercased(_ bytes: some Collection<UInt8>) -> String {
            String(
                decoding: bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 },
                as: UTF8.self)
        }
        guard let separator = url.firstRange(of: "://".utf8) else { return lowercased(url) }
        let authorityStart = separator.upperBound
        let authorityEnd =
            url[authorityStart...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            } ?? url.endIndex
        let host = url[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authorityStart
        return lowercased(Array(url[..<authorityStart]) + Array(url[host..<authorityEnd]))
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
