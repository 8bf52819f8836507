import Testing

@testable import DemoUpstream

extension DemoUpstreamSuite {
    @Suite struct SearchIndexTests {
        /// Terms covering each way a search can match or not: whole titles, title words, words
        /// split across title and channel, two-byte and one-byte words (no trigram: full scan),
        /// non-ASCII, HTML-special characters, blanks around the term, and no match at all.
        static let terms = [
            "Iron Maiden Aces High", "aces high", "Live", "a", "ac", "AC/DC", "Motörhead", "motorhead", "love",
            "the the",
            "  Jungle  ", "xyzzy", "rock & roll", "Fan's", "Lyric Video", "Guns N' Roses Paradise City", "de", "ção",
            "Led Zeppelin Stairway", "(Live)", "pt. 1", "Cover Nation Yesterday", "o k", "Queen Bohemian",
        ]

        @Test func videoSearchThroughTheIndexEqualsTheFullScan() async throws {
            let catalog = try await Demo.make().catalog
            let entries = catalog.videoIndex.entries
            let short = { (video: DemoVideo) in video.durationSeconds < 240 }
            for term in Self.terms {
                let scanned = SearchRanking.ranked(entries, term: term).map(\.id)
                #expect(catalog.videoIndex.ranked(term: term).map(\.id) == scanned, "term \(term)")
                let scannedShort = SearchRanking.ranked(entries.filter { short($0.item) }, term: term).map(\.id)
                #expect(
                    catalog.videoIndex.ranked(term: term, where: short).map(\.id) == scannedShort, "short, term \(term)"
                )
            }
        }

        @Test func trackSearchThroughTheIndexEqualsTheFullScan() async throws {
            let catalog = try await Demo.make().catalog
            let entries = catalog.trackIndex.entries
            // Every 50th track's own name and its first word, besides the fixed terms.
            let fromCatalog = stride(from: 0, to: entries.count, by: 50).flatMap { i -> [String] in
                let name = catalog.chinook.tracks[i].name
                return [name, String(name.split(separator: " ").first ?? "")]
            }
            for term in Self.terms + fromCatalog {
                #expect(
                    catalog.trackIndex.ranked(term: term).map(\.id)
                        == SearchRanking.ranked(entries, term: term).map(\.id),
                    "term \(term)")
            }
        }

        /// The search the nested Iron Maiden query sends for "Aces High", pinned through the route
        /// (ids and order as the full-scan implementation answered before the index existed).
        @Test func youTubeSearchResultIsPinned() async throws {
            let demo = try await Demo.make()
            let response = await Demo.get(
                demo, "/youtube/v3/search", "part=snippet&type=video&q=Iron+Maiden+Aces+High&maxResults=50&key=k")
            let object = try #require(try Demo.json(response) as? [String: Any])
            let items = try #require(object["items"] as? [[String: Any]])
            let ids = items.compactMap { ($0["id"] as? [String: Any])?["videoId"] as? String }
            #expect(
                ids == [
                    "J3U3_VtvByS", "dN76bo-sPYU", "n4zD3jD654y", "JudP_of1gDY", "WyblJwnNAvp", "FCoZsQ9CygU",
                    "Sfk45DlKMKh",
                ])
            #expect((object["pageInfo"] as? [String: Any])?["totalResults"] as? Int == 7)
            let title = (items.first?["snippet"] as? [String: Any])?["title"] as? String
            #expect(title == "Iron Maiden - Aces High (Official Video)")
            let short = await Demo.get(
                demo, "/youtube/v3/search", "part=snippet&q=Iron+Maiden+Aces+High&videoDuration=short&key=k")
            #expect(((try Demo.json(short) as? [String: Any])?["items"] as? [Any])?.count == 0)
        }

        @Test func everyEscapeIsWrittenAsBefore() {
            let text = "q\"b\\s/n\nr\rt\tb\u{08}f\u{0C}u\u{1F}é東"
            #expect(JSONText.string(text).compact == #""q\"b\\s/n\nr\rt\tb\bf\fu\u001fé東""#)
            #expect(JSONText.string("").compact == #""""#)
            #expect(
                JSONText.array([.string("x"), .int(-3), .bool(false), .number("1.50")]).compact
                    == #"["x",-3,false,1.50]"#)
        }
    }
}
