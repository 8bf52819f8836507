/// When and how long to wait before sending a request again.
///
/// Only idempotent requests are retried, and only after a failure that a later try may not
/// repeat: no connection, a try timing out, 429 Too Many Requests, or a 5xx status other than
/// 501 Not Implemented and 505 HTTP Version Not Supported (which will never change). The wait
/// grows exponentially with "equal jitter" (half fixed, half random) so that clients that failed
/// together do not come back together; a `Retry-After` header in seconds (RFC 9110 §10.2.3) on a
/// 429 or 503 replaces it.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries in total, the first included; 1 disables retries.
    public var maxTries: Int
    /// The wait before the second try, in milliseconds; it doubles for every further try.
    public var baseBackoffMs: Int
    /// The longest computed wait, in milliseconds.
    public var maxBackoffMs: Int
    /// The longest `Retry-After` honoured, in milliseconds; a server asking for more gets its
    /// last response returned instead of a retry.
    public var maxRetryAfterMs: Int

    public init(maxTries: Int = 3, baseBackoffMs: Int = 100, maxBackoffMs: Int = 2_000, maxRetryAfterMs: Int = 5_000) {
        self.maxTries = maxTries
        self.baseBackoffMs = baseBackoffMs
        self.maxBackoffMs = maxBackoffMs
        self.maxRetryAfterMs = maxRetryAfterMs
    }

    /// What one try produced, as far as retrying is concerned.
    enum TryOutcome: Sendable, Equatable {
        case response(status: Int, retryAfterSeconds: Int?)
        case connectFailed
        case timedOut
        /// Deadline, cancellation, size cap, other transport errors: retrying would not help.
        case final
    }

    /// The wait in milliseconds before try number `completedTries + 1`, or nil to stop and
    /// return this outcome. `random` is a number in 0..<1 (the jitter), injected for tests.
    func delayMs(after outcome: TryOutcome, completedTries: Int, isIdempotent: Bool, random: Double) -> Int? {
        guard isIdempotent, completedTries < maxTries else { return nil }
        switch outcome {
        case .final:
            return nil
        case .connectFailed, .timedOut:
            return backoffMs(completedTries: completedTries, random: random)
        case .response(let status, let retryAfterSeconds):
            guard status == 429 || (status >= 500 && status <= 599 && status != 501 && status != 505) else {
                return nil
            }
            if let retryAfterSeconds, status == 429 || status == 503 {
                let (requestedMs, overflow) = max(0, retryAfterSeconds).multipliedReportingOverflow(by: 1_000)
                return overflow || requestedMs > maxRetryAfterMs ? nil : requestedMs
            }
            return backoffMs(completedTries: completedTries, random: random)
        }
    }

    /// base × 2^(tries − 1), capped at `maxBackoffMs`, then scaled into [½, 1) of itself.
    private func backoffMs(completedTries: Int, random: Double) -> Int {
        let exponent = min(max(completedTries - 1, 0), 30)
        let ceiling = min(maxBackoffMs, max(0, baseBackoffMs) << exponent)
        return Int(Double(ceiling) * (0.5 + 0.5 * min(max(random, 0), 1)))
    }

    /// `Retry-After` as delay-seconds; nil for an HTTP-date or anything malformed.
    static func retryAfterSeconds(_ value: String?) -> Int? {
        guard let value else { return nil }
        return Int(value.trimmingPrefix(while: \.isWhitespace).prefix { !$0.isWhitespace })
    }
}
