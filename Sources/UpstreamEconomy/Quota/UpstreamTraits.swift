import Foundation

/// What the economy knows of one upstream besides its name, declared at start-up: the time
/// zone its quota days are counted in, the price of its calls, and how it says its day is spent.
/// The built-in APIs' traits are their domain's; a declared
/// upstream's come from its `@upstream`.
public struct UpstreamTraits: Sendable {
    /// The time zone whose midnight ends the upstream's quota day.
    public var timeZone: TimeZone
    /// What a call costs in quota units, unless `pricedPaths` names its path.
    public var unitsPerCall: Int
    /// Endpoints priced apart, by the start of their path (a search endpoint priced at 100).
    public var pricedPaths: [(path: String, units: Int)]
    /// Whether an answer says the upstream's quota for the day is spent (so that the ledger
    /// stops sending until the day ends); nil: the upstream never says so.
    public var saysDailyQuotaIsSpent: (@Sendable (_ status: Int, _ body: [UInt8]) -> Bool)?
    /// The fixed words of its endpoints' paths: what a trace's `url.template` keeps of a path
    /// (any other segment, an id or a user's string, shows as `{id}`).
    public var pathWords: Set<Substring>

    public init(
        timeZone: TimeZone = UpstreamTraits.utc, unitsPerCall: Int = 1, pricedPaths: [(path: String, units: Int)] = [],
        saysDailyQuotaIsSpent: (@Sendable (_ status: Int, _ body: [UInt8]) -> Bool)? = nil,
        pathWords: Set<Substring> = []
    ) {
        self.pathWords = pathWords
        self.timeZone = timeZone
        self.unitsPerCall = unitsPerCall
        self.pricedPaths = pricedPaths
        self.saysDailyQuotaIsSpent = saysDailyQuotaIsSpent
    }

    public static let utc = TimeZone(identifier: "UTC")!

    /// The quota units a GET of `url` costs.
    public func units(ofURL url: String) -> Int {
        for (path, units) in pricedPaths where url.utf8.firstRange(of: path.utf8) != nil { return units }
        return unitsPerCall
    }
}

/// The traits of every upstream a gateway knows, by name; one not listed has the defaults
/// (UTC days, 1 unit a call).
public struct UpstreamTraitsTable: Sendable {
    public var traits: [UpstreamService: UpstreamTraits]

    public init(_ traits: [UpstreamService: UpstreamTraits] = [:]) { self.traits = traits }

    public subscript(service: UpstreamService) -> UpstreamTraits { traits[service] ?? Self.defaults }

    package static let defaults = UpstreamTraits()
}
