import Synchronization

/// Remembers what an `Accept` header value negotiates to. Clients send the same few values
/// over and over (one per client library), and parsing one cost ~10% of the handler's time
/// in bench/http-gateway.sh's in-process profile. Bounded: when full it is emptied, so a
/// client sending endless distinct values costs one parse per request, as without the cache.
final class NegotiationCache: Sendable {
    struct Decision: Sendable, Equatable {
        var media: GraphQLResponseMediaType?
        var prefersHTML: Bool
    }

    /// Distinct header values kept; far above the number of client libraries in use.
    static let capacity = 64
    /// Longer values are parsed every time, so the cache stays under 64 × 256 bytes of keys.
    static let maxCachedLength = 256

    private let decisions = Mutex<[String: Decision]>([:])

    func decision(for header: String) -> Decision {
        if let known = decisions.withLock({ $0[header] }) { return known }
        let parsed = AcceptHeader(header)
        let decision = Decision(media: parsed.responseMediaType(), prefersHTML: parsed.prefersHTML())
        guard header.utf8.count <= Self.maxCachedLength else { return decision }
        decisions.withLock { decisions in
            if decisions.count >= Self.capacity { decisions.removeAll(keepingCapacity: true) }
            decisions[header] = decision
        }
        return decision
    }
}
