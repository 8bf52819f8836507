import UpstreamEconomy

/// The five upstream APIs MusicGraph reads. The name is what appears as `extensions.service`
/// in a GraphQL error and as `service` in DemoUpstream's request log.
extension UpstreamService {
    /// iTunes Search API (keyless): `/search`, `/lookup`.
    public static let iTunes = UpstreamService(name: "itunes", rank: 0)
    /// Apple Music API (developer token): `/v1/catalog/{storefront}/…`.
    public static let appleMusic = UpstreamService(name: "applemusic", rank: 1)
    /// Rakuten Books CD Search API (applicationId).
    public static let rakuten = UpstreamService(name: "rakuten", rank: 2)
    /// YouTube Data API v3 (key).
    public static let youTube = UpstreamService(name: "youtube", rank: 3)
    /// TMDB API v3 (api_key).
    public static let tmdb = UpstreamService(name: "tmdb", rank: 4)

    /// The five built-in APIs, in the order reports list them.
    public static let builtIn: [UpstreamService] = [.iTunes, .appleMusic, .rakuten, .youTube, .tmdb]

    /// The built-in API named `name`; nil for any other name.
    public init?(builtIn name: String) {
        guard let known = Self.builtIn.first(where: { $0.rawValue == name }) else { return nil }
        self = known
    }
}
