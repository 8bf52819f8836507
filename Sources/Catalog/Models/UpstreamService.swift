/// The five upstream APIs MusicGraph reads. The raw value is what appears as
/// `extensions.service` in a GraphQL error and as `service` in DemoUpstream's request log.
public enum UpstreamService: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// iTunes Search API (keyless): `/search`, `/lookup`.
    case iTunes = "itunes"
    /// Apple Music API (developer token): `/v1/catalog/{storefront}/…`.
    case appleMusic = "applemusic"
    /// Rakuten Books CD Search API (applicationId).
    case rakuten
    /// YouTube Data API v3 (key).
    case youTube = "youtube"
    /// TMDB API v3 (api_key).
    case tmdb

    public var description: String { rawValue }
}
