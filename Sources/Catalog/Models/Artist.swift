import UpstreamEconomy

/// A performing artist as one upstream knows it.
///
/// `id` is the upstream's own id as a string (iTunes/Apple Music numeric ids are written
/// in decimal); ids of different `source`s are unrelated.
public struct Artist: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Primary genre name, e.g. `"Rock"`; nil when the upstream gave none.
    public var genre: String?
    /// The artist's page on the upstream's store or site.
    public var url: String?
    public var source: UpstreamService
    /// The non-null schema fields the upstream record did not carry (e.g. `"name"`): their
    /// placeholders above are never answered; the field is an error at its path instead.
    public var missingFields: Set<String> = []

    public init(id: String, name: String, genre: String? = nil, url: String? = nil, source: UpstreamService) {
        self.id = id
        self.name = name
        self.genre = genre
        self.url = url
        self.source = source
    }
}
