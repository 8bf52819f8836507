import GraphQL
import UpstreamEconomy

/// One gateway answer: the execution result plus what it cost.
public struct GatewayResponse: Sendable {
    public var result: ExecutionResult
    /// The pre-execution cost estimate in quota units.
    public var estimatedCost: Int
    /// Upstream requests, cache hits, deduplicated reads and the actual cost.
    public var counts: UpstreamCounters.Counts
    /// Each limited provider's daily quota as the answer was given (`QuotaLedger.usage()`).
    public var quota: [QuotaUsage]
    /// True when the cost limit refused the query (nothing ran).
    public var refused: Bool
    /// The response as UTF-8 JSON text when it was kept with a cached result (then equal to
    /// `serialized()`); nil otherwise.
    public var serializedBody: [UInt8]?
    /// Until when the response may be reused: the first expiry among the upstream answers it
    /// was built from (all held by the cache). Nil when it must not be: it has errors, or one of
    /// its reads was not cacheable, or it read nothing upstream.
    public var freshUntil: ContinuousClock.Instant?
    /// In a batch, the operations that executed together share `counts` (their upstream reads
    /// were batched together, so a read cannot be told to one of them): true on each of them.
    public var countsSharedWithBatch = false
    /// The values served from upstream answers past their freshness (`extensions.stale`: each
    /// one's path and age), and the oldest one's age (the response's `Age`); empty and nil when
    /// every value was fresh.
    var stale: [(path: [PathComponent], ageSeconds: Int)] = []
    public var staleAgeSeconds: Int? { stale.map(\.ageSeconds).max() }
    /// A dry run's upstream plan (`extensions.plan`); nil for any other response.
    public var plan: JSONValue?

    public init(
        result: ExecutionResult, estimatedCost: Int, counts: UpstreamCounters.Counts, quota: [QuotaUsage] = [],
        refused: Bool, serializedBody: [UInt8]? = nil
    ) {
        self.result = result
        self.estimatedCost = estimatedCost
        self.counts = counts
        self.quota = quota
        self.refused = refused
        self.serializedBody = serializedBody
    }

    /// The response `extensions`: `cost {estimated, actual}`, `upstream {requests, cacheHits,
    /// deduplicated}`, `stale [{path, ageSeconds}]` when a value was stale, `quota {<service>:
    /// {used, limit}}`.
    public var extensions: JSONObject {
        guard !stale.isEmpty || plan != nil else {
            return Self.extensions(estimatedCost: estimatedCost, counts: counts, quota: quota)
        }
        var extensions = Self.headExtensions(estimatedCost: estimatedCost, counts: counts)
        if !stale.isEmpty { extensions["stale"] = StaleValues.json(stale) }
        if let plan { extensions["plan"] = plan }
        extensions["quota"] = Self.quotaJSON(quota)
        return extensions
    }

    static func extensions(estimatedCost: Int, counts: UpstreamCounters.Counts, quota: [QuotaUsage]) -> JSONObject {
        var extensions = headExtensions(estimatedCost: estimatedCost, counts: counts)
        extensions["quota"] = quotaJSON(quota)
        return extensions
    }

    /// `extensions` without `quota`, which always comes last (a kept response is stored without it
    /// and gets the quota of the moment it is served).
    static func headExtensions(estimatedCost: Int, counts: UpstreamCounters.Counts) -> JSONObject {
        JSONObject([
            ("cost", .object(JSONObject([("estimated", .int(estimatedCost)), ("actual", .int(counts.cost))]))),
            (
                "upstream",
                .object(
                    JSONObject([
                        ("requests", .int(counts.totalRequests)), ("cacheHits", .int(counts.cacheHits)),
                        ("deduplicated", .int(counts.deduplicated)),
                    ]))
            ),
        ])
    }

    /// `{"youtube": {"used": 300, "limit": 10000}, …}`.
    static func quotaJSON(_ quota: [QuotaUsage]) -> JSONValue {
        .object(
            JSONObject(
                quota.map { usage in
                    (
                        usage.service.rawValue,
                        .object(JSONObject([("used", .int(usage.used)), ("limit", .int(usage.limit))]))
                    )
                }))
    }

    /// The whole response map (spec §7.1): `errors`, `data`, then `extensions`.
    public var json: JSONValue {
        guard case .object(var response) = result.json else { return result.json }
        response["extensions"] = .object(extensions)
        return .object(response)
    }

    /// `serialized()` from the result's data text, without parsing it back into values.
    func serializedResponse() -> [UInt8] {
        result.serialized(extensions: extensions)
    }

    /// `json` as UTF-8 JSON text.
    public func serialized() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 4096)
        writer.write(json)
        return writer.bytes
    }
}

/// How `Gateway.start` left an operation: answered, or answered once `response` is awaited.
public enum GatewayStart: Sendable {
    case finished(GatewayResponse)
    case pending(@Sendable () async -> GatewayResponse)

    /// The response, awaiting the rest of the work when there is any.
    public var response: GatewayResponse {
        get async {
            switch self {
            case .finished(let response): response
            case .pending(let rest): await rest()
            }
        }
    }
}
