import Foundation
import UpstreamEconomy

extension UpstreamTraits {
    /// The five built-in APIs' traits: YouTube counts its days at midnight Pacific Time
    /// (America/Los_Angeles, daylight saving included) and charges 100 units for `search.list`
    /// (Google's price), 1 for the rest; the others count UTC days, 1 unit a call.
    public static let builtIn = UpstreamTraitsTable([
        .iTunes: UpstreamTraits(pathWords: builtInPathWords),
        .appleMusic: UpstreamTraits(pathWords: builtInPathWords),
        .rakuten: UpstreamTraits(pathWords: builtInPathWords),
        .youTube: UpstreamTraits(
            timeZone: TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3_600)!,
            pricedPaths: [(path: "/youtube/v3/search", units: 100)],
            saysDailyQuotaIsSpent: { status, body in YouTubeProvider.saysDailyQuotaIsSpent(status: status, body: body)
            },
            pathWords: builtInPathWords),
        .tmdb: UpstreamTraits(pathWords: builtInPathWords),
    ])

    /// The fixed path words of the five providers' endpoints (`/search`, `/lookup`,
    /// `/v1/catalog/{storefront}/artists`, `/youtube/v3/videos`, `/3/movie/{id}/videos`,
    /// `/services/api/BooksCD/Search/20170404`, …): what traces show of their paths.
    static let builtInPathWords: Set<Substring> = [
        "search", "lookup", "v1", "catalog", "albums", "artists", "songs", "youtube", "v3", "videos", "3", "movie",
        "services", "api", "BooksCD", "Search", "20170404",
    ]
}
