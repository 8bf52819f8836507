/// An upstream URL as a trace may show it (OpenTelemetry `url.template`): scheme, host, port and
/// path, with every path segment that is not one of the providers' fixed words replaced by
/// `{id}`, and no query or fragment. Query values carry API keys and users' search terms, and
/// path segments ids a client chose (an artist or movie id), so neither is ever kept.
public enum URLTemplate {
    /// The fixed path words of the five providers' endpoints (`/search`, `/lookup`,
    /// `/v1/catalog/{storefront}/artists`, `/youtube/v3/videos`, `/3/movie/{id}/videos`,
    /// `/services/api/BooksCD/Search/20170404`, …).
    static let fixedSegments: Set<Substring> = [
        "search", "lookup", "v1", "catalog", "albums", "artists", "songs", "youtube", "v3", "videos", "3", "movie",
        "services", "api", "BooksCD", "Search", "20170404",
    ]

    /// The template of `url`, and the host and port it names (nil port when the URL gives none).
    public static func of(_ url: String) -> (template: String, host: String, port: Int?) {
        let withoutQuery = url.prefix { $0 != "?" && $0 != "#" }
        guard let schemeEnd = withoutQuery.range(of: "://") else { return ("{id}", "", nil) }
        let scheme = withoutQuery[..<schemeEnd.lowerBound]
        let rest = withoutQuery[schemeEnd.upperBound...]
        var authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        // Credentials in the authority (`user:secret@host`) are never kept.
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            host = authority[..<colon]
            port = Int(authority[authority.index(after: colon)...])
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            fixedSegments.contains($0) ? String($0) : "{id}"
        }
        let templatePath = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        return ("\(scheme)://\(authority)\(templatePath)", String(host), port)
    }
}
