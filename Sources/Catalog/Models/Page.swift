/// One page of a paged upstream listing.
///
/// `nextPageToken` is whatever the upstream needs for the next page: YouTube's
/// `nextPageToken`, Apple Music's `next` path, TMDB/Rakuten's next page number in decimal.
/// nil means this was the last page. `totalResults` is the upstream's own count, which
/// YouTube only approximates: never compute page counts from it.
public struct Page<Item: Sendable & Hashable>: Sendable, Hashable {
    public var items: [Item]
    public var nextPageToken: String?
    public var totalResults: Int?

    public init(items: [Item], nextPageToken: String? = nil, totalResults: Int? = nil) {
        self.items = items
        self.nextPageToken = nextPageToken
        self.totalResults = totalResults
    }
}
