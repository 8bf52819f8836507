import Testing

@testable import HTTPClient

/// The retry decisions, without a socket.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy(maxTries: 4, baseBackoffMs: 100, maxBackoffMs: 1_000, maxRetryAfterMs: 5_000)

    @Test func backoffDoublesWithJitterAndACap() {
        #expect(policy.delayMs(after: .connectFailed, completedTries: 1, isIdempotent: true, random: 0) == 50)
        #expect(policy.delayMs(after: .connectFailed, completedTries: 1, isIdempotent: true, random: 0.999) == 99)
        #expect(policy.delayMs(after: .timedOut, completedTries: 2, isIdempotent: true, random: 0) == 100)
        #expect(policy.delayMs(after: .timedOut, completedTries: 3, isIdempotent: true, random: 0.5) == 300)
        let wide = RetryPolicy(maxTries: 10, baseBackoffMs: 100, maxBackoffMs: 1_000)
        #expect(wide.delayMs(after: .timedOut, completedTries: 9, isIdempotent: true, random: 1) == 1_000)
    }

    @Test func stopsAfterMaxTries() {
        #expect(policy.delayMs(after: .connectFailed, completedTries: 4, isIdempotent: true, random: 0) == nil)
    }

    @Test func onlyIdempotentRequestsAreRetried() {
        #expect(policy.delayMs(after: .connectFailed, completedTries: 1, isIdempotent: false, random: 0) == nil)
    }

    @Test func retryableStatuses() {
        for status in [429, 500, 502, 503, 504, 599] {
            #expect(
                policy.delayMs(
                    after: .response(status: status, retryAfterSeconds: nil), completedTries: 1, isIdempotent: true,
                    random: 0)
                    == 50)
        }
        for status in [200, 204, 304, 400, 404, 408, 501, 505] {
            #expect(
                policy.delayMs(
                    after: .response(status: status, retryAfterSeconds: nil), completedTries: 1, isIdempotent: true,
                    random: 0)
                    == nil)
        }
        #expect(policy.delayMs(after: .final, completedTries: 1, isIdempotent: true, random: 0) == nil)
    }

    @Test func retryAfterReplacesTheBackoffOn429And503() {
        #expect(
            policy.delayMs(
                after: .response(status: 429, retryAfterSeconds: 2), completedTries: 1, isIdempotent: true, random: 0)
                == 2_000)
        #expect(
            policy.delayMs(
                after: .response(status: 503, retryAfterSeconds: 0), completedTries: 1, isIdempotent: true, random: 0)
                == 0)
        #expect(
            policy.delayMs(
                after: .response(status: 500, retryAfterSeconds: 2), completedTries: 1, isIdempotent: true, random: 0)
                == 50)
        #expect(
            policy.delayMs(
                after: .response(status: 429, retryAfterSeconds: 6), completedTries: 1, isIdempotent: true, random: 0)
                == nil)
        #expect(
            policy.delayMs(
                after: .response(status: 429, retryAfterSeconds: Int.max), completedTries: 1, isIdempotent: true,
                random: 0)
                == nil)
    }

    @Test func retryAfterParsing() {
        #expect(RetryPolicy.retryAfterSeconds("120") == 120)
        #expect(RetryPolicy.retryAfterSeconds(" 3 ") == 3)
        #expect(RetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(RetryPolicy.retryAfterSeconds(nil) == nil)
    }
}
