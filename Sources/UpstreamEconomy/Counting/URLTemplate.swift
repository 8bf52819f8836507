/// An upstream URL as a trace may show it (OpenTelemetry `url.template`): scheme, host, port and
/// path, with every path segment that is not one of its upstream's fixed words
/// (`UpstreamTraits.pathWords`) replaced by `{id}`, and no query or fragment. Query values carry API keys and users' search terms, and
/// path segments ids a client chose (an id), so neither is ever kept.
public enum URLTemplate {

    /// The template of `url`, and the host and port it names (nil port when the URL gives none).
    public static func of(_ url: String, fixed fixedSegments: Set<Substring>) -> (
        template: String, host: String, port: Int?
    ) {
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
