/// An upstream API, by the name the economy keys it by: quota counters, cache and store keys,
/// metrics, and `extensions.service` in a GraphQL error. Names are values declared at start-up
/// (the domain's built-in APIs, a schema's `@upstream`s), not a closed set. Equal names are
/// one upstream; `rank` orders reports (lower first, then by name).
public struct UpstreamService: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String
    /// Where reports list it: the domain's own APIs by their order, declared ones after them.
    public let rank: Int

    /// An upstream a schema declares (`@upstream(name:)`): listed after the ranked ones.
    public init(rawValue: String) { self.init(name: rawValue, rank: Self.declaredRank) }

    /// An upstream listed at `rank` in reports.
    public init(name: String, rank: Int) {
        rawValue = name
        self.rank = rank
    }

    /// The rank of upstreams declared without one.
    public static let declaredRank = 1_000

    public var description: String { rawValue }

    public static func == (lhs: UpstreamService, rhs: UpstreamService) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public static func < (lhs: UpstreamService, rhs: UpstreamService) -> Bool {
        (lhs.rank, lhs.rawValue) < (rhs.rank, rhs.rawValue)
    }
}
