/// An upstream API, by the name the economy keys it by: quota counters, cache and store keys,
/// metrics, and `extensions.service` in a GraphQL error (`service` in DemoUpstream's request
/// log). The five built-in APIs have constants; a schema's `@upstream(name:)` declares more
/// (`UpstreamService(declared:)`), so a name is a value, not a closed set.
public struct UpstreamService: RawRepresentable, Sendable, Hashable, Comparable, CaseIterable,
    CustomStringConvertible
{
    public let rawValue: String

    /// A built-in API by its name; nil for any other name (declared upstreams are made with
    /// `init(declared:)`, from the schema that declares them).
    public init?(rawValue: String) {
        guard let known = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    private init(name: String) { rawValue = name }

    /// An upstream a schema declares (`@upstream(name:)`).
    public init(declared name: String) { rawValue = name }

    /// iTunes Search API (keyless): `/search`, `/lookup`.
    public static let iTunes = UpstreamService(name: "itunes")
    /// Apple Music API (developer token): `/v1/catalog/{storefront}/…`.
    public static let appleMusic = UpstreamService(name: "applemusic")
    /// Rakuten Books CD Search API (applicationId).
    public static let rakuten = UpstreamService(name: "rakuten")
    /// YouTube Data API v3 (key).
    public static let youTube = UpstreamService(name: "youtube")
    /// TMDB API v3 (api_key).
    public static let tmdb = UpstreamService(name: "tmdb")

    /// The five built-in APIs, in the order reports list them.
    public static let allCases: [UpstreamService] = [.iTunes, .appleMusic, .rakuten, .youTube, .tmdb]

    /// Whether this is one of the five built-in APIs.
    public var isBuiltIn: Bool { Self.allCases.contains(self) }

    public var description: String { rawValue }

    /// Built-in APIs first, in `allCases` order, then declared ones by name.
    public static func < (lhs: UpstreamService, rhs: UpstreamService) -> Bool {
        let l = allCases.firstIndex(of: lhs) ?? allCases.count
        let r = allCases.firstIndex(of: rhs) ?? allCases.count
        return (l, lhs.rawValue) < (r, rhs.rawValue)
    }
}
