/// One upstream's daily quota: units used today and the day's limit.
public struct QuotaUsage: Sendable, Equatable {
    public var service: UpstreamService
    public var used: Int
    public var limit: Int

    public init(service: UpstreamService, used: Int, limit: Int) {
        self.service = service
        self.used = used
        self.limit = limit
    }
}
