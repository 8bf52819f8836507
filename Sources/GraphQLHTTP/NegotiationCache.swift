import Synchronization

/// Remembers what an `Accept` header value negotiates to. Clients send the same few values
/// over and over (one per client library), and parsing one cost ~10% of the handler's time
/// in bench/http-gateway.sh's in-process profile. Bounded: when full it is emptied, so a
/// client sending endless distinct values costs one parse per request, as without the cache.
final class NegotiationCache: Sendable {
    struct Decision: Sendable, Equatable {
        var media: GraphQLResponseMediaType?
        var prefersHTML: Bool
        /// The `multipart/mixed` format for operations that defer or stream, if the client reads one.
        var incremental: IncrementalDeliveryFormat? = nil
    }

    /// Distinct header values kept; far above the number of client libraries in use.
    static let capacity = 64
    /// Longer values are parsed every time, so the cache stays under 64 × 256 bytes of keys.
    static let maxCachedLength = 256

    /// What client libraries and tools send, decided once at start-up and never changed, so
    /// read without a lock: the shared cache's lock, taken by every polling thread for every
    /// request, made them wait on each other.
    static let wellKnownValues = [
        "application/graphql-response+json", "application/json", "*/*",
        "application/graphql-response+json, application/json",
        "application/graphql-response+json,application/json;q=0.9",
        "application/graphql-response+json, application/json;q=0.9",
        "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed",
        "application/json, multipart/mixed", "application/json, text/plain, */*",
        "multipart/mixed;incrementalSpec=v0.2,application/graphql-response+json,application/json;q=0.9",
        "multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json;q=0.9",
        "multipart/mixed;deferSpec=20220824,application/json",
    ]

    private let wellKnown: [String: Decision]
    private let decisions = Mutex<[String: Decision]>([:])

    init() {
        wellKnown = Dictionary(uniqueKeysWithValues: Self.wellKnownValues.map { ($0, Self.decide($0)) })
    }

    private static func decide(_ header: String) -> Decision {
        let parsed = AcceptHeader(header)
        return Decision(
            media: parsed.responseMediaType(), prefersHTML: parsed.prefersHTML(),
            incremental: parsed.incrementalFormat())
    }

    func decision(for header: String) -> Decision {
        if let known = wellKnown[header] { return known }
        if let known = decisions.withLock({ $0[header] }) { return known }
        let decision = Self.decide(header)
        guard header.utf8.count <= Self.maxCachedLength else { return decision }
        decisions.withLock { decisions in
            if decisions.count >= Self.capacity { decisions.removeAll(keepingCapacity: true) }
            decisions[header] = decision
        }
        return decision
    }
}
