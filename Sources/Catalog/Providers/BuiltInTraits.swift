import Foundation

extension UpstreamTraits {
    /// The five built-in APIs' traits: YouTube counts its days at midnight Pacific Time
    /// (America/Los_Angeles, daylight saving included) and charges 100 units for `search.list`
    /// (Google's price), 1 for the rest; the others count UTC days, 1 unit a call.
    public static let builtIn = UpstreamTraitsTable([
        .youTube: UpstreamTraits(
            timeZone: TimeZone(identifier: "America/Los_Angeles") ?? TimeZone(secondsFromGMT: -8 * 3_600)!,
            pricedPaths: [(path: "/youtube/v3/search", units: 100)],
            saysDailyQuotaIsSpent: { status, body in YouTubeProvider.saysDailyQuotaIsSpent(status: status, body: body) }
        )
    ])
}
