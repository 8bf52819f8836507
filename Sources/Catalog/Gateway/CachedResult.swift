import GraphQL
import UpstreamEconomy

/// A GraphQL result kept in the `UpstreamCache`: everything a repeat of its request needs to
/// answer without executing.
public struct CachedResult: KeptResult {
    public var keptBytes: Int { (result.dataJSON?.count ?? 0) + responseHead.count }

    /// The error-free result.
    public var result: ExecutionResult
    /// The query's cost estimate (it depends only on the request, like the result).
    public var estimatedCost: Int
    /// Upstream reads the result was built from (requests sent plus cache hits): a repeat
    /// reports them all as cache hits.
    public var upstreamReads: Int
    /// The response a repeat gets (`GatewayResponse.serialized()` of the hit: the result, then
    /// `extensions` with 0 requests and `upstreamReads` cache hits), written once when the
    /// result is kept so that hits send it without serializing; it ends before the `quota`
    /// entry, which changes as quota is spent and is appended when the hit is served.
    public let responseHead: [UInt8]

    public init(result: ExecutionResult, estimatedCost: Int, upstreamReads: Int) {
        self.result = result
        self.estimatedCost = estimatedCost
        self.upstreamReads = upstreamReads
        var hit = Self.hit(result: result, estimatedCost: estimatedCost, upstreamReads: upstreamReads)
        hit.quota = []
        // `…,"quota":{}}}`: the kept text stops before `,"quota"`.
        let whole = hit.serializedResponse()
        self.responseHead = Array(whole.dropLast(Self.emptyQuotaTail.count))
    }

    private static let emptyQuotaTail = Array(#","quota":{}}}"#.utf8)

    /// The whole response of a hit served while the quota stands at `quota`.
    public func responseBody(quota: [QuotaUsage]) -> [UInt8] {
        var body = responseHead
        body.reserveCapacity(responseHead.count + 16 + 48 * quota.count)
        body.append(contentsOf: #","quota":"#.utf8)
        body.append(contentsOf: JSONWriter.serialize(GatewayResponse.quotaJSON(quota)))
        body.append(contentsOf: "}}".utf8)
        return body
    }

    /// The gateway's answer to a repeat of the request, with the quota of the moment.
    func hit(quota: [QuotaUsage]) -> GatewayResponse {
        var response = Self.hit(result: result, estimatedCost: estimatedCost, upstreamReads: upstreamReads)
        response.quota = quota
        response.serializedBody = responseBody(quota: quota)
        return response
    }

    private static func hit(result: ExecutionResult, estimatedCost: Int, upstreamReads: Int) -> GatewayResponse {
        var counts = UpstreamCounters.Counts()
        counts.cacheHits = upstreamReads
        return GatewayResponse(result: result, estimatedCost: estimatedCost, counts: counts, refused: false)
    }
}
