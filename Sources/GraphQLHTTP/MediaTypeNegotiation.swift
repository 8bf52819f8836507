/// The media types a GraphQL response can be sent in (GraphQL over HTTP draft, "Media Types").
enum GraphQLResponseMediaType: Sendable, Equatable {
    /// `application/graphql-response+json`: the preferred type; request errors get 4xx statuses.
    case graphQLResponseJSON
    /// `application/json`: the legacy type; every well-formed request is answered 200.
    case json

    /// The `Content-Type` header value, always with the UTF-8 charset the draft recommends naming.
    var contentType: String {
        switch self {
        case .graphQLResponseJSON: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }
}

/// A parsed `Accept` header (RFC 9110 §12.5.1) that answers which of our representations the
/// client prefers.
///
/// Each media range gets the quality of its `q` parameter (1 by default); a representation
/// takes the quality of the most specific range matching it (`type/subtype` over `type/*`
/// over `*/*`), so `application/json;q=0, */*` refuses JSON but accepts everything else. A
/// `charset` parameter other than UTF-8 on a range makes it match none of our types.
struct AcceptHeader: Sendable {
    private struct MediaRange {
        var type: Substring
        var subtype: Substring
        var quality: Double
        var position: Int
        var charsetIsUTF8: Bool
        /// `multipart/mixed` ranges: the `incrementalSpec` and `deferSpec` parameters.
        var incrementalSpec: Substring?
        var deferSpec: Substring?
    }

    private let ranges: [MediaRange]

    /// Parses a header value; unparseable ranges are skipped, as if not sent.
    init(_ header: String) {
        var ranges: [MediaRange] = []
        for (position, element) in header.split(separator: ",").enumerated() {
            let parts = element.split(separator: ";").map { $0.trimmingASCIISpaces() }
            guard let range = parts.first, let slash = range.firstIndex(of: "/") else { continue }
            let type = range[..<slash].lowercased()
            let subtype = range[range.index(after: slash)...].lowercased()
            guard !type.isEmpty, !subtype.isEmpty else { continue }
            var quality = 1.0
            var charsetIsUTF8 = true
            var incrementalSpec: Substring?
            var deferSpec: Substring?
            for parameter in parts.dropFirst() {
                guard let equals = parameter.firstIndex(of: "=") else { continue }
                let name = parameter[..<equals].trimmingASCIISpaces().lowercased()
                let value = parameter[parameter.index(after: equals)...].trimmingASCIISpaces()
                switch name {
                case "q": quality = min(1, max(0, Double(value) ?? 0))
                case "charset":
                    let charset = String(value.lowercased().filter { $0 != "\"" })
                    charsetIsUTF8 = charset == "utf-8" || charset == "utf8"
                case "incrementalspec": incrementalSpec = Substring(value.filter { $0 != "\"" })
                case "deferspec": deferSpec = Substring(value.filter { $0 != "\"" })
                default: break
                }
            }
            ranges.append(
                MediaRange(
                    type: Substring(type), subtype: Substring(subtype), quality: quality, position: position,
                    charsetIsUTF8: charsetIsUTF8, incrementalSpec: incrementalSpec, deferSpec: deferSpec))
        }
        self.ranges = ranges
    }

    /// How much the client wants `type/subtype`: quality 0...1 and the position of the range that
    /// decided it (for ties), plus whether that range named the type exactly (no wildcard).
    /// Nil when no range matches.
    func preference(type: String, subtype: String) -> (quality: Double, position: Int, explicit: Bool)? {
        var best: (specificity: Int, range: MediaRange)?
        for range in ranges where range.charsetIsUTF8 {
            let specificity: Int
            if range.type == type && range.subtype == subtype {
                specificity = 2
            } else if range.type == type && range.subtype == "*" {
                specificity = 1
            } else if range.type == "*" && range.subtype == "*" {
                specificity = 0
            } else {
                continue
            }
            if specificity > (best?.specificity ?? -1) {
                best = (specificity, range)
            }
        }
        guard let best else { return nil }
        return (best.range.quality, best.range.position, best.specificity == 2)
    }

    /// The response media type the client prefers, or nil when it accepts neither (406).
    /// Ties go to the range listed first, then to `application/graphql-response+json`.
    func responseMediaType() -> GraphQLResponseMediaType? {
        let modern = preference(type: "application", subtype: "graphql-response+json")
        let legacy = preference(type: "application", subtype: "json")
        let candidates: [(GraphQLResponseMediaType, (quality: Double, position: Int, explicit: Bool))] = [
            modern.map { (.graphQLResponseJSON, $0) }, legacy.map { (.json, $0) },
        ].compactMap { $0 }.filter { $0.1.quality > 0 }
        return candidates.min { lhs, rhs in
            if lhs.1.quality != rhs.1.quality { return lhs.1.quality > rhs.1.quality }
            return lhs.1.position < rhs.1.position
        }?.0
    }

    /// The incremental delivery format the client can read, from its `multipart/mixed` ranges
    /// (named explicitly: `*/*` is no promise to read multipart), or nil: the best quality above
    /// 0, then the range listed first. `incrementalSpec=v0.2` and a range without a spec
    /// parameter (the RFC's plain `multipart/mixed`) give the RFC's current format,
    /// `deferSpec=20220824` Apollo's older one; a spec version we do not serve is skipped.
    func incrementalFormat() -> IncrementalDeliveryFormat? {
        var best: (quality: Double, position: Int, format: IncrementalDeliveryFormat)?
        for range in ranges where range.type == "multipart" && range.subtype == "mixed" && range.quality > 0 {
            let format: IncrementalDeliveryFormat
            switch (range.incrementalSpec, range.deferSpec) {
            case ("v0.2"?, _), (nil, nil): format = .incrementalSpecV02
            case (nil, "20220824"?): format = .deferSpec20220824
            default: continue
            }
            if best.map({ range.quality > $0.quality }) ?? true {
                best = (range.quality, range.position, format)
            }
        }
        return best?.format
    }

    /// Whether the client asks for an HTML page rather than a GraphQL response: `text/html`
    /// named explicitly, with a higher quality than both JSON types, or the same quality and
    /// listed earlier. A bare `*/*` (curl, fetch) never selects HTML.
    func prefersHTML() -> Bool {
        guard let html = preference(type: "text", subtype: "html"), html.explicit, html.quality > 0 else {
            return false
        }
        let jsonPreferences = [
            preference(type: "application", subtype: "graphql-response+json"),
            preference(type: "application", subtype: "json"),
        ].compactMap { $0 }.filter { $0.quality > 0 }
        return jsonPreferences.allSatisfy { json in
            html.quality > json.quality || (html.quality == json.quality && html.position < json.position)
        }
    }
}

extension Substring {
    func trimmingASCIISpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
