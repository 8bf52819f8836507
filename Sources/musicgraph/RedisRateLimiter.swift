import GraphQLHTTP
import RedisStore

/// The clients' request rates counted in the fleet's Redis (`--store redis://…`): every
/// instance charges one allowance per client.
struct RedisRateLimiter: SharedRateLimiting {
    let store: RedisStore

    func admit(_ client: String, _ limit: RateLimit) async -> RateDecision? {
        guard
            let (admitted, arrivalInUs) = try? await store.rateLimit(
                "client:" + client, emissionIntervalUs: limit.emissionIntervalUs, toleranceUs: limit.toleranceUs)
        else { return nil }
        return RateDecision(admitted: admitted, limit: limit, arrivalInUs: arrivalInUs)
    }
}
