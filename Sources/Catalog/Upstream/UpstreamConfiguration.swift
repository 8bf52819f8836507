import UpstreamEconomy

/// Keys and base URLs of the five upstreams, from the environment (DESIGN.md
/// "Configuration"); CLI flags override by setting fields afterwards.
///
/// | Variable | Field | Default |
/// |---|---|---|
/// | `YOUTUBE_API_KEY` | `youTubeKey` | nil (YouTube not configured) |
/// | `TMDB_API_KEY` | `tmdbKey` | nil |
/// | `APPLE_MUSIC_TOKEN` | `appleMusicToken` | nil |
/// | `RAKUTEN_APP_ID` | `rakutenApplicationId` | nil |
/// | `RAKUTEN_ACCESS_KEY` | `rakutenAccessKey` | nil (only the 2026 host wants it) |
/// | `ITUNES_BASE_URL`, `APPLE_MUSIC_BASE_URL`, `RAKUTEN_BASE_URL`, `YOUTUBE_BASE_URL`, `TMDB_BASE_URL` | `…BaseURL` | each provider's `defaultBaseURL` |
/// | `UPSTREAM_BASE_URL` | every `…BaseURL` not set individually | — |
///
/// An empty variable counts as unset. A provider without its key throws `notConfigured`
/// (`UPSTREAM_NOT_CONFIGURED`) on use and makes no request.
public struct UpstreamConfiguration: Sendable, Equatable {
    public var iTunesBaseURL: String
    public var appleMusicBaseURL: String
    public var rakutenBaseURL: String
    public var youTubeBaseURL: String
    public var tmdbBaseURL: String
    public var youTubeKey: String?
    public var tmdbKey: String?
    public var appleMusicToken: String?
    public var rakutenApplicationId: String?
    public var rakutenAccessKey: String?
    /// iTunes country / Apple Music storefront (ISO 3166-1 alpha-2).
    public var country: String

    public init(environment: [String: String]) {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let shared = value("UPSTREAM_BASE_URL")
        iTunesBaseURL = value("ITUNES_BASE_URL") ?? shared ?? ITunesProvider.defaultBaseURL
        appleMusicBaseURL = value("APPLE_MUSIC_BASE_URL") ?? shared ?? AppleMusicProvider.defaultBaseURL
        rakutenBaseURL = value("RAKUTEN_BASE_URL") ?? shared ?? RakutenProvider.defaultBaseURL
        youTubeBaseURL = value("YOUTUBE_BASE_URL") ?? shared ?? YouTubeProvider.defaultBaseURL
        tmdbBaseURL = value("TMDB_BASE_URL") ?? shared ?? TMDBProvider.defaultBaseURL
        youTubeKey = value("YOUTUBE_API_KEY")
        tmdbKey = value("TMDB_API_KEY")
        appleMusicToken = value("APPLE_MUSIC_TOKEN")
        rakutenApplicationId = value("RAKUTEN_APP_ID")
        rakutenAccessKey = value("RAKUTEN_ACCESS_KEY")
        country = value("MUSICGRAPH_COUNTRY") ?? "US"
    }

    /// Every provider pointed at a DemoUpstream at `baseURL` (e.g. `http://127.0.0.1:8089`),
    /// with placeholder keys: the demo accepts any.
    public static func demo(baseURL: String) -> UpstreamConfiguration {
        var config = UpstreamConfiguration(environment: ["UPSTREAM_BASE_URL": baseURL])
        config.youTubeKey = "demo-key"
        config.tmdbKey = "demo-key"
        config.appleMusicToken = "demo-token"
        config.rakutenApplicationId = "demo-app"
        return config
    }

    /// Every key and token that is set: the values to redact wherever text leaves the process.
    public var secrets: [String] {
        [youTubeKey, tmdbKey, appleMusicToken, rakutenApplicationId, rakutenAccessKey].compactMap { $0 }
    }
}

/// The five providers built from one configuration over one transport.
public struct UpstreamProviders: Sendable {
    public var iTunes: ITunesProvider
    public var appleMusic: AppleMusicProvider
    public var rakuten: RakutenProvider
    public var youTube: YouTubeProvider
    public var tmdb: TMDBProvider

    public init(configuration c: UpstreamConfiguration, transport: any UpstreamTransport) {
        iTunes = ITunesProvider(baseURL: c.iTunesBaseURL, country: c.country, transport: transport)
        appleMusic = AppleMusicProvider(
            baseURL: c.appleMusicBaseURL, token: c.appleMusicToken, storefront: c.country.lowercased(),
            transport: transport)
        rakuten = RakutenProvider(
            baseURL: c.rakutenBaseURL, applicationId: c.rakutenApplicationId, accessKey: c.rakutenAccessKey,
            transport: transport)
        youTube = YouTubeProvider(baseURL: c.youTubeBaseURL, key: c.youTubeKey, transport: transport)
        tmdb = TMDBProvider(baseURL: c.tmdbBaseURL, apiKey: c.tmdbKey, transport: transport)
    }
}
