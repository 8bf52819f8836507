import DemoUpstream
import Testing

@testable import Catalog

extension LoopbackTests {
    @Suite struct UpstreamConfigurationTests {
        @Test func defaultsWithoutEnvironment() {
            let config = UpstreamConfiguration(environment: [:])
            #expect(config.iTunesBaseURL == "https://itunes.apple.com")
            #expect(config.appleMusicBaseURL == "https://api.music.apple.com")
            #expect(config.rakutenBaseURL == "https://app.rakuten.co.jp")
            #expect(config.youTubeBaseURL == "https://www.googleapis.com")
            #expect(config.tmdbBaseURL == "https://api.themoviedb.org")
            #expect(config.secrets.isEmpty)
            #expect(config.country == "US")
        }

        @Test func environmentOverrides() {
            let config = UpstreamConfiguration(environment: [
                "UPSTREAM_BASE_URL": "http://127.0.0.1:8089", "TMDB_BASE_URL": "http://tmdb.local",
                "YOUTUBE_API_KEY": "yk",
                "TMDB_API_KEY": "", "APPLE_MUSIC_TOKEN": "jwt", "RAKUTEN_APP_ID": "rk", "MUSICGRAPH_COUNTRY": "JP",
            ])
            #expect(config.iTunesBaseURL == "http://127.0.0.1:8089")
            #expect(config.tmdbBaseURL == "http://tmdb.local")
            #expect(config.youTubeKey == "yk")
            #expect(config.tmdbKey == nil)  // empty = unset
            #expect(config.secrets == ["yk", "jwt", "rk"])
            let providers = UpstreamProviders(configuration: config, transport: CannedTransport(status: 200))
            #expect(providers.appleMusic.storefront == "jp")
            #expect(
                providers.iTunes.searchURL(term: "x", entity: .album, limit: 1)
                    == "http://127.0.0.1:8089/search?term=x&media=music&entity=album&limit=1&country=JP")
        }

        @Test func demoConfigurationReachesTheDemoWithAnyKey() async throws {
            let demo = try await DemoUpstream.make()
            let providers = UpstreamProviders(
                configuration: .demo(baseURL: "http://demo"), transport: DemoTransport(demo: demo))
            #expect(try await providers.youTube.search(query: "Jungle", maxResults: 1).items.count == 1)
            #expect(try await providers.tmdb.searchMovies(query: "AC/DC").items.count == 1)
            #expect(try await providers.appleMusic.searchAlbums(term: "Let There Be Rock").items.first?.id == "200004")
            #expect(try await providers.rakuten.search(artistName: "Queen").items.count == 3)
            #expect(try await providers.iTunes.searchArtists(term: "Queen").count == 1)
        }
    }
}
