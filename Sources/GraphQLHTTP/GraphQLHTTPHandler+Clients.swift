import HTTPServer
import HTTPTypes

extension GraphQLHTTPHandler {
    /// What the client checks decided for a request to the GraphQL path: why it may not run
    /// (nil when it may), and the header fields its answer gets either way (the rate limit's
    /// state, `Retry-After`, `WWW-Authenticate`).
    struct ClientAdmission {
        var refusal: GraphQLHTTPError?
        var headers: [(name: String, value: String)] = []
        /// The client's rate, still to be charged in the fleet's store (`sharedRateLimiter`).
        var sharedRate: RateLimit?

        /// What `decision` says of a request.
        init(_ decision: RateDecision) {
            headers = decision.headers()
            guard !decision.admitted else { return }
            headers.append(("Retry-After", String(decision.retryAfterSeconds)))
            refusal = .rateLimited(retryAfterSeconds: decision.retryAfterSeconds)
        }

        init(
            refusal: GraphQLHTTPError? = nil, headers: [(name: String, value: String)] = [],
            sharedRate: RateLimit? = nil
        ) {
            self.refusal = refusal
            self.headers = headers
            self.sharedRate = sharedRate
        }
    }

    /// Works out who sent `request` (`ClientPolicy.identify`) and charges its rate. A CORS
    /// preflight is nobody's (browsers send it without credentials) and costs nothing.
    func admitClient(_ request: HTTPRequest) -> (RequestClient?, ClientAdmission) {
        guard request.method != "OPTIONS" else { return (nil, ClientAdmission()) }
        let policy = configuration.clientPolicy
        switch policy.identify(request) {
        case .refused(let refusal):
            return (nil, ClientAdmission(refusal: refusal, headers: [("WWW-Authenticate", "Bearer")]))
        case .client(let client, nil):
            return (client, ClientAdmission())
        case .client(let client, let rate?):
            if configuration.sharedRateLimiter != nil { return (client, ClientAdmission(sharedRate: rate)) }
            return (client, ClientAdmission(rateLimiter.admit(client.counterKey, rate, nowUs: rateLimiter.nowUs())))
        }
    }

    /// Charges `client`'s request to `rate` in the fleet's store, or in this process when the
    /// store does not answer (counted in `/metrics`).
    func admitShared(_ client: RequestClient, _ rate: RateLimit, _ shared: any SharedRateLimiting) async
        -> ClientAdmission
    {
        if let decision = await shared.admit(client.counterKey, rate) { return ClientAdmission(decision) }
        metrics.sharedRateLimitFailed()
        return ClientAdmission(rateLimiter.admit(client.counterKey, rate, nowUs: rateLimiter.nowUs()))
    }
}
