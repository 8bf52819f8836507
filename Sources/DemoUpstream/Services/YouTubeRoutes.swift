import Foundation

/// YouTube Data API v3 emulation: `search.list` (`/youtube/v3/search`, HTML-escaped
/// snippet text, page tokens, `videoDuration`) and `videos.list` (`/youtube/v3/videos`,
/// up to 50 ids, unknown ids absent, plain snippet text, the parts asked for).
struct YouTubeRoutes: Sendable {
    let catalog: DemoCatalog

    static let maxResults = 50
    static let maxIds = 50
    static let contentType = "application/json; charset=UTF-8"

    func handle(_ request: DemoRequest) -> DemoResponse {
        guard let key = request.query("key"), !key.isEmpty else {
            return Self.error(
                403, "The request is missing a valid API key.", reason: "forbidden", domain: "global",
                status: "PERMISSION_DENIED")
        }
        switch request.path {
        case "/youtube/v3/search": return search(request)
        case "/youtube/v3/videos": return videos(request)
        default: return Self.error(404, "Not Found", reason: "notFound", domain: "global", status: "NOT_FOUND")
        }
    }

    // MARK: - search.list

    private func search(_ request: DemoRequest) -> DemoResponse {
        guard request.query("part")?.split(separator: ",").contains("snippet") == true else {
            return Self.error(400, "Required parameter: part", reason: "required", domain: "global")
        }
        var maxResults = 5
        switch request.intQuery("maxResults") {
        case .absent: break
        case .value(let n) where (0...Self.maxResults).contains(n): maxResults = n
        default:
            return Self.error(
                400, "Invalid value for parameter maxResults. Values must be within the range: [0, 50]",
                reason: "invalidParameter", domain: "youtube.parameter")
        }
        var offset = 0
        if let token = request.query("pageToken"), !token.isEmpty {
            guard let decoded = Self.offset(fromPageToken: token) else {
                return Self.error(
                    400, "The request specifies an invalid page token.", reason: "invalidPageToken",
                    domain: "youtube.parameter")
            }
            offset = decoded
        }
        let durationFilter: ClosedRange<Int>?
        switch request.query("videoDuration") ?? "any" {
        case "any": durationFilter = nil
        case "short": durationFilter = 0...239
        case "medium": durationFilter = 240...1200
        case "long": durationFilter = 1201...Int.max
        default:
            return Self.error(
                400, "Invalid value for parameter videoDuration", reason: "invalidParameter",
                domain: "youtube.parameter")
        }
        let q = request.query("q") ?? ""
        let inRange = { (video: DemoVideo) in durationFilter?.contains(video.durationSeconds) ?? true }
        let found = q.isEmpty ? catalog.videos.filter(inRange) : catalog.videoIndex.ranked(term: q, where: inRange)
        let items = found.dropFirst(offset).prefix(maxResults).map(searchItem)
        var members: [(String, JSONText)] = [
            ("kind", .string("youtube#searchListResponse")),
            ("etag", .string(Self.etag("search" + request.rawQuery))),
        ]
        if offset + maxResults < found.count {
            members.append(("nextPageToken", .string(Self.pageToken(offset: offset + maxResults))))
        }
        if offset > 0 {
            members.append(("prevPageToken", .string(Self.pageToken(offset: max(offset - maxResults, 0)))))
        }
        members += [
            ("regionCode", .string(request.query("regionCode") ?? "US")),
            ("pageInfo", .object([("totalResults", .int(found.count)), ("resultsPerPage", .int(maxResults))])),
            ("items", .array(Array(items))),
        ]
        return DemoResponse.json(
            200, JSONText.object(members).prettyBytes(indent: 2) + [0x0A], contentType: Self.contentType)
    }

    private func searchItem(_ video: DemoVideo) -> JSONText {
        .object([
            ("kind", .string("youtube#searchResult")), ("etag", .string(Self.etag("item" + video.id))),
            ("id", .object([("kind", .string("youtube#video")), ("videoId", .string(video.id))])),
            (
                "snippet",
                .object([
                    ("publishedAt", .string(video.publishedAt)), ("channelId", .string(video.channelId)),
                    ("title", .string(Self.htmlEscape(video.title))),
                    ("description", .string(Self.htmlEscape(video.description))),
                    ("thumbnails", thumbnails(video.id, sizes: 3)),
                    ("channelTitle", .string(Self.htmlEscape(video.channelTitle))),
                    ("liveBroadcastContent", .string("none")), ("publishTime", .string(video.publishedAt)),
                ])
            ),
        ])
    }

    // MARK: - videos.list

    private func videos(_ request: DemoRequest) -> DemoResponse {
        guard let partText = request.query("part"), !partText.isEmpty else {
            return Self.error(400, "Required parameter: part", reason: "required", domain: "global")
        }
        let parts = Set(partText.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let ids = (request.query("id") ?? "").split(separator: ",").map(String.init)
        guard ids.count <= Self.maxIds else {
            return Self.error(
                400, "The request specifies an invalid filter parameter.", reason: "invalidFilters",
                domain: "youtube.parameter"
            )
        }
        let items = ids.compactMap { catalog.videoIndexById[$0].map { catalog.videos[$0] } }.map { video -> JSONText in
            var members: [(String, JSONText)] = [
                ("kind", .string("youtube#video")), ("etag", .string(Self.etag("video" + video.id))),
                ("id", .string(video.id)),
            ]
            if parts.contains("snippet") {
                members.append(
                    (
                        "snippet",
                        .object([
                            ("publishedAt", .string(video.publishedAt)), ("channelId", .string(video.channelId)),
                            ("title", .string(video.title)), ("description", .string(video.description)),
                            ("thumbnails", thumbnails(video.id, sizes: 5)),
                            ("channelTitle", .string(video.channelTitle)),
                            ("categoryId", .string("10")), ("liveBroadcastContent", .string("none")),
                            (
                                "localized",
                                .object([("title", .string(video.title)), ("description", .string(video.description))])
                            ),
                        ])
                    ))
            }
            if parts.contains("contentDetails") {
                members.append(
                    (
                        "contentDetails",
                        .object([
                            ("duration", .string(Self.isoDuration(seconds: video.durationSeconds))),
                            ("dimension", .string("2d")),
                            ("definition", .string("hd")), ("caption", .string("false")),
                            ("licensedContent", .bool(true)),
                            ("contentRating", .object([])), ("projection", .string("rectangular")),
                        ])
                    ))
            }
            if parts.contains("statistics") {
                members.append(
                    (
                        "statistics",
                        .object([
                            ("viewCount", .string(String(video.viewCount))),
                            ("likeCount", .string(String(video.likeCount))),
                            ("favoriteCount", .string("0")), ("commentCount", .string(String(video.commentCount))),
                        ])
                    ))
            }
            return .object(members)
        }
        let body = JSONText.object([
            ("kind", .string("youtube#videoListResponse")), ("etag", .string(Self.etag("videos" + request.rawQuery))),
            ("items", .array(items)),
            ("pageInfo", .object([("totalResults", .int(items.count)), ("resultsPerPage", .int(items.count))])),
        ])
        return DemoResponse.json(200, body.prettyBytes(indent: 2) + [0x0A], contentType: Self.contentType)
    }

    // MARK: - Helpers

    private func thumbnails(_ id: String, sizes: Int) -> JSONText {
        let all: [(String, String, Int, Int)] = [
            ("default", "default", 120, 90), ("medium", "mqdefault", 320, 180), ("high", "hqdefault", 480, 360),
            ("standard", "sddefault", 640, 480), ("maxres", "maxresdefault", 1280, 720),
        ]
        return .object(
            all.prefix(sizes).map { name, file, w, h in
                (
                    name,
                    .object([
                        ("url", .string("https://i.demo.invalid/vi/\(id)/\(file).jpg")), ("width", .int(w)),
                        ("height", .int(h)),
                    ])
                )
            })
    }

    /// `&`, `<`, `>`, `"` and `'` as search.list sends them (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`).
    static func htmlEscape(_ text: String) -> String {
        // Most titles have nothing to escape: one byte scan instead of rebuilding them.
        let needsEscape = text.utf8.contains { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\"")
                || byte == UInt8(ascii: "'")
        }
        guard needsEscape else { return text }
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// `PT#H#M#S` with zero parts left out (`PT5M46S`, `PT1H2M`, `PT0S`).
    static func isoDuration(seconds: Int) -> String {
        let h = seconds / 3600
        let m = seconds / 60 % 60
        let s = seconds % 60
        var out = "PT"
        if h > 0 { out += "\(h)H" }
        if m > 0 { out += "\(m)M" }
        if s > 0 || (h == 0 && m == 0) { out += "\(s)S" }
        return out
    }

    /// Opaque-looking page tokens (`CAUQAA` style) that carry the offset.
    static func pageToken(offset: Int) -> String { "CA" + String(offset, radix: 36).uppercased() + "QAA" }

    static func offset(fromPageToken token: String) -> Int? {
        guard token.hasPrefix("CA"), token.hasSuffix("QAA"), token.count > 5 else { return nil }
        return Int(token.dropFirst(2).dropLast(3), radix: 36)
    }

    static func etag(_ seed: String) -> String {
        DemoIDs.videoId(seed.hashValueStable) + DemoIDs.videoId(seed.hashValueStable >> 1) + "_8Qk"
    }

    /// The Google error envelope: `{"error":{"code","message","errors":[…],"status"?}}`.
    static func errorBody(_ code: Int, _ message: String, reason: String, domain: String, status: String? = nil)
        -> String
    {
        var members: [(String, JSONText)] = [
            ("code", .int(code)), ("message", .string(message)),
            (
                "errors",
                .array([
                    .object([("message", .string(message)), ("domain", .string(domain)), ("reason", .string(reason))])
                ])
            ),
        ]
        if let status { members.append(("status", .string(status))) }
        return JSONText.object([("error", .object(members))]).pretty(indent: 2) + "\n"
    }

    static func error(_ code: Int, _ message: String, reason: String, domain: String, status: String? = nil)
        -> DemoResponse
    {
        DemoResponse.json(
            code, errorBody(code, message, reason: reason, domain: domain, status: status), contentType: contentType)
    }
}
