import Synchronization

/// Request rates per client, in this process: the generic cell rate algorithm (GCRA), one
/// theoretical arrival time per client. A request is admitted when it arrives no earlier than
/// `burst - 1` emission intervals before its client's theoretical arrival time, which then moves
/// one interval on; so `burst` requests may come at once and then `count` per period.
public final class ClientRateLimiter: Sendable {
    /// Theoretical arrival times in microseconds of the limiter's clock, by client key.
    private let arrivals = Mutex<[String: Int64]>([:])
    /// Clients past this many are forgotten once their allowance is whole again (an arrival time
    /// in the past says nothing), so addresses cannot grow the table without bound.
    static let maxTracked = 100_000

    private let origin = ContinuousClock.now

    public init() {}

    /// Admits or refuses one request of `client` under `limit` at `nowUs` (monotonic microseconds).
    public func admit(_ client: String, _ limit: RateLimit, nowUs: Int64) -> RateDecision {
        let (interval, tolerance) = (limit.emissionIntervalUs, limit.toleranceUs)
        return arrivals.withLock { arrivals in
            let arrival = max(arrivals[client] ?? nowUs, nowUs)
            if arrival - nowUs > tolerance {
                return RateDecision(admitted: false, limit: limit, arrivalInUs: arrival - nowUs)
            }
            let next = arrival + interval
            if arrivals.count >= Self.maxTracked, arrivals[client] == nil {
                arrivals = arrivals.filter { $0.value > nowUs }
            }
            arrivals[client] = next
            return RateDecision(admitted: true, limit: limit, arrivalInUs: next - nowUs)
        }
    }

    /// Microseconds since the limiter was made, on the monotonic clock: `admit`'s `nowUs`.
    public func nowUs() -> Int64 {
        let elapsed = origin.duration(to: .now).components
        return elapsed.seconds * 1_000_000 + elapsed.attoseconds / 1_000_000_000_000
    }
}

/// What a rate limit decided for one request, and the `RateLimit` header fields that say so.
public struct RateDecision: Sendable, Equatable {
    public var admitted: Bool
    public var limit: RateLimit
    /// Requests the client may still send at once.
    public var remaining: Int
    /// Until the client's allowance is whole again.
    public var resetUs: Int64
    /// Until the next request would be admitted (0 when this one was).
    public var retryAfterUs: Int64

    public init(admitted: Bool, limit: RateLimit, remaining: Int, resetUs: Int64, retryAfterUs: Int64) {
        self.admitted = admitted
        self.limit = limit
        self.remaining = remaining
        self.resetUs = resetUs
        self.retryAfterUs = retryAfterUs
    }

    /// Whole seconds, rounded up, for `Retry-After` (at least 1 on a refusal).
    public var retryAfterSeconds: Int { max(admitted ? 0 : 1, Int((retryAfterUs + 999_999) / 1_000_000)) }

    /// `RateLimit-Policy` and `RateLimit` (IETF httpapi draft): the policy, and what is left of
    /// it with the seconds until it is whole again.
    public func headers(policyName: String = "client") -> [(name: String, value: String)] {
        let reset = max(0, Int((resetUs + 999_999) / 1_000_000))
        return [
            ("RateLimit-Policy", limit.policy(name: policyName)),
            ("RateLimit", "\"\(policyName)\";r=\(remaining);t=\(reset)"),
        ]
    }
}

/// Request rates a fleet shares (counted in Redis): one atomic step in the shared store per
/// request, so that a client's rate is one allowance whichever instance it asks.
public protocol SharedRateLimiting: Sendable {
    /// Charges one request of `client` to `limit`; nil when the store did not answer (the
    /// process's own `ClientRateLimiter` decides then, and the store catches up when it is back).
    func admit(_ client: String, _ limit: RateLimit) async -> RateDecision?
}

extension RateDecision {
    /// The decision for a request that found the theoretical arrival time `arrivalInUs` ahead
    /// of now (after itself when `admitted`), under `limit`: GCRA's figures as `admit` gives them.
    public init(admitted: Bool, limit: RateLimit, arrivalInUs: Int64) {
        let (interval, tolerance) = (limit.emissionIntervalUs, limit.toleranceUs)
        self.init(
            admitted: admitted, limit: limit,
            remaining: admitted ? max(0, Int((tolerance + interval - arrivalInUs) / interval)) : 0,
            resetUs: max(0, arrivalInUs), retryAfterUs: admitted ? 0 : max(0, arrivalInUs - tolerance))
    }
}
