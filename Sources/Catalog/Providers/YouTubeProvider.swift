import UpstreamEconomy

/// The YouTube Data API v3: `search.list` and `videos.list` (`key`; API-FACTS §4).
///
/// Search costs 100 quota units, videos.list 1: search once, then batch details.
public struct YouTubeProvider: Sendable {
    public static let defaultBaseURL = "https://www.googleapis.com"
    /// Ids per `videos.list` call (documented maximum; 51+ → 400 invalid filter).
    public static let maxVideoIds = 50
    /// `maxResults` range of `search.list` (default 5).
    public static let maxResultsRange = 0...50

    /// The `videoDuration` filter of search.list: short < 4 min, medium 4–20 min, long > 20 min.
    public enum VideoDuration: String, Sendable {
        case any, short, medium, long
    }

    public var baseURL: String
    /// API key. Never logged, never in an error.
    public var key: String?
    /// ISO 3166-1 alpha-2 region for search; nil leaves the API default.
    public var regionCode: String?
    public var transport: any UpstreamTransport

    public init(
        baseURL: String = YouTubeProvider.defaultBaseURL, key: String?, regionCode: String? = nil,
        transport: any UpstreamTransport
    ) {
        self.baseURL = baseURL
        self.key = key
        self.regionCode = regionCode
        self.transport = transport
    }

    // MARK: - URLs

    /// `/youtube/v3/search?part=snippet&type=video&q=…&maxResults=…[&videoDuration=…][&pageToken=…]&key=…`.
    public func searchURL(query: String, maxResults: Int, duration: VideoDuration? = nil, pageToken: String? = nil)
        -> String
    {
        let clamped = min(max(maxResults, Self.maxResultsRange.lowerBound), Self.maxResultsRange.upperBound)
        let query = QueryEncoding.queryString([
            ("part", "snippet"), ("type", "video"), ("q", query), ("maxResults", String(clamped)),
            ("videoDuration", duration?.rawValue), ("regionCode", regionCode), ("pageToken", pageToken),
            ("key", key ?? ""),
        ])
        return upstreamURL(base: baseURL, path: "/youtube/v3/search", query: query)
    }

    /// `/youtube/v3/videos?part=snippet,contentDetails,statistics&id=a,b,c&key=…` for at most
    /// `maxVideoIds` ids (precondition: callers batch).
    public func videosURL(ids: [String]) -> String {
        precondition(ids.count <= Self.maxVideoIds, "videos.list takes at most \(Self.maxVideoIds) ids")
        let query =
            "part=snippet,contentDetails,statistics&id=\(QueryEncoding.idList(ids))&"
            + QueryEncoding.queryString([("key", key ?? "")])
        return upstreamURL(base: baseURL, path: "/youtube/v3/videos", query: query)
    }

    // MARK: - Calls

    /// One page of video search results; pass `nextPageToken` back as `pageToken`.
    public func search(query: String, maxResults: Int = 5, duration: VideoDuration? = nil, pageToken: String? = nil)
        async throws(UpstreamError) -> Page<Video>
    {
        try await fetch(
            searchURL(query: query, maxResults: maxResults, duration: duration, pageToken: pageToken),
            decode: Self.decodeSearch)
    }

    /// Video details by id, keyed by id; unknown, private or deleted ids are absent. One
    /// request (1 quota unit) per `maxVideoIds` distinct ids.
    public func videos(ids: [String]) async throws(UpstreamError) -> [String: Video] {
        try await IdBatches.merged(ids, size: Self.maxVideoIds) { ids throws(UpstreamError) in
            try await fetch(videosURL(ids: ids)) { status, headers, body throws(UpstreamError) in
                IdBatches.keyed(try Self.decodeVideos(status: status, headers: headers, body: body), by: \.id)
            }
        }
    }

    /// `UpstreamCall.fetch` with this provider's secrets, for the call site that called this.
    private func fetch<T: Sendable>(
        _ url: String, fileID: StaticString = #fileID, line: UInt = #line,
        decode: (Int, [String: String], [UInt8]) throws(UpstreamError) -> T
    ) async throws(UpstreamError) -> T {
        guard let key, !key.isEmpty else { throw UpstreamError(service: .youTube, kind: .notConfigured) }
        return try await UpstreamCall(service: .youTube, transport: transport, secrets: [key]).fetch(
            url, fileID: fileID, line: line, decode: decode)
    }

    /// The public watch page of a video id.
    public static func watchURL(videoId: String) -> String {
        "https://www.youtube.com/watch?v=" + QueryEncoding.percentEncode(videoId)
    }
}

// MARK: - Decoding

extension YouTubeProvider {
    /// Decodes search.list: items without `id.videoId` (channels, playlists) are skipped;
    /// titles, descriptions and channel titles are HTML-unescaped.
    /// - Throws: `UpstreamError` per `decodeError` for error statuses, `badResponse` for other shapes.
    public static func decodeSearch(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> Page<Video>
    {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        // The same page, read without Codable when the body has the expected shape.
        if let page = YouTubeSearchReader.page(body) { return page }
        return try decodeSearchPage(body, status: status)
    }

    /// `decodeSearch` of a 2xx body through `YTSearchResponse` (Codable, `WireJSON.decode`):
    /// the path that names what is wrong with a body of another shape.
    static func decodeSearchPage(_ body: [UInt8], status: Int) throws(UpstreamError) -> Page<Video> {
        let wire = try WireJSON.decode(YTSearchResponse.self, from: body, service: .youTube, status: status)
        let videos = wire.items.compactMap { item -> Video? in
            // An item without its snippet is a video without its title (an error where selected).
            // Channels and playlists have no videoId and are no videos; a `youtube#video`
            // without one is kept, its id (and the watch URL made from it) missing.
            let videoId = item.id?.videoId ?? ""
            guard !videoId.isEmpty || item.id?.kind == "youtube#video" else { return nil }
            return (item.snippet ?? YTSnippet()).video(id: videoId, escaped: true)
        }
        return Page(items: videos, nextPageToken: wire.nextPageToken, totalResults: wire.pageInfo?.totalResults)
    }

    /// Decodes videos.list: snippet (plain text here), `contentDetails.duration` (ISO 8601)
    /// as `durationMs`, `statistics.viewCount` (a string on the wire) as `viewCount`.
    public static func decodeVideos(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> [Video]
    {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        let wire = try WireJSON.decode(YTVideoListResponse.self, from: body, service: .youTube, status: status)
        return wire.items.compactMap { item -> Video? in
            guard !item.id.isEmpty else { return nil }
            var video = (item.snippet ?? YTSnippet()).video(id: item.id, escaped: false)
            video.durationMs = item.contentDetails?.duration.flatMap(ISO8601Duration.milliseconds)
            video.viewCount = item.statistics?.viewCount.flatMap { Int($0.value) }
            return video
        }
    }

    /// Classifies `{"error":{code,message,errors[{reason,domain}],status?,details[{reason}]?}}`:
    /// quota/rate reasons (`quotaExceeded`, `dailyLimitExceeded`, `rateLimitExceeded`,
    /// `userRateLimitExceeded`) and 429 → `quotaExceeded`; key/project problems (`keyInvalid`,
    /// `keyExpired`, `API_KEY_INVALID`, `API_KEY_SERVICE_BLOCKED`, `accessNotConfigured`,
    /// `SERVICE_DISABLED`, status `PERMISSION_DENIED`/`UNAUTHENTICATED`) and 401 → `authFailed`;
    /// the rest → `httpStatus` with the error message.
    /// Whether an answer says the project's quota for the day is spent (403 with reason
    /// `quotaExceeded` or `dailyLimitExceeded`), as opposed to a short rate limit that passes.
    static func saysDailyQuotaIsSpent(status: Int, body: [UInt8]) -> Bool {
        guard status == 403,
            let wire = try? WireJSON.decode(YTErrorEnvelope.self, from: body, service: .youTube, status: status)
        else { return false }
        let reasons = (wire.error.errors ?? []).compactMap(\.reason) + (wire.error.details ?? []).compactMap(\.reason)
        return reasons.contains("quotaExceeded") || reasons.contains("dailyLimitExceeded")
    }

    static func decodeError(status: Int, headers: [String: String], body: [UInt8]) -> UpstreamError {
        let retry = retryAfterSeconds(headers)
        let wire = try? WireJSON.decode(YTErrorEnvelope.self, from: body, service: .youTube, status: status)
        let reasons = Set(
            (wire?.error.errors ?? []).compactMap(\.reason) + (wire?.error.details ?? []).compactMap(\.reason))
        let quotaReasons: Set<String> = [
            "quotaExceeded", "dailyLimitExceeded", "rateLimitExceeded", "userRateLimitExceeded",
        ]
        let authReasons: Set<String> = [
            "keyInvalid", "keyExpired", "API_KEY_INVALID", "API_KEY_SERVICE_BLOCKED", "accessNotConfigured",
            "SERVICE_DISABLED", "forbidden", "ipRefererBlocked",
        ]
        if status == 429 || !reasons.isDisjoint(with: quotaReasons) {
            return UpstreamError(service: .youTube, kind: .quotaExceeded, status: status, retryAfterSeconds: retry)
        }
        if status == 401 || !reasons.isDisjoint(with: authReasons)
            || ["PERMISSION_DENIED", "UNAUTHENTICATED"].contains(wire?.error.status ?? "")
        {
            return UpstreamError(service: .youTube, kind: .authFailed, status: status)
        }
        let summary = wire?.error.message ?? WireJSON.summary(body)
        return UpstreamError(
            service: .youTube, kind: .httpStatus(code: status, bodySummary: summary), status: status,
            retryAfterSeconds: retry)
    }
}

struct YTThumbnail: Decodable {
    var url: String?
}

struct YTSnippet: Decodable {
    var publishedAt: String?
    var channelTitle: String?
    var title: String?
    var description: String?
    var thumbnails: [String: YTThumbnail]?

    func video(id: String, escaped: Bool) -> Video {
        let text: (String?) -> String? = { value in escaped ? value.map(HTMLEntities.decode) : value }
        let thumbnail = ["high", "medium", "default"].lazy.compactMap { self.thumbnails?[$0]?.url }.first
        var video = Video(
            id: id, title: text(title) ?? "", description: text(description), channelTitle: text(channelTitle),
            publishedAt: publishedAt, thumbnailURL: thumbnail, url: YouTubeProvider.watchURL(videoId: id),
            source: .youTube)
        if title == nil { video.missingFields.insert("title") }
        if id.isEmpty {
            video.url = nil
            video.missingFields.formUnion(["id", "url"])
        }
        return video
    }
}

struct YTSearchResponse: Decodable {
    struct PageInfo: Decodable {
        var totalResults: Int?
    }
    struct ItemId: Decodable {
        var kind: String?
        var videoId: String?
    }
    struct Item: Decodable {
        var id: ItemId?
        var snippet: YTSnippet?
    }
    var nextPageToken: String?
    var prevPageToken: String?
    var pageInfo: PageInfo?
    var items: [Item]
}

struct YTVideoListResponse: Decodable {
    struct ContentDetails: Decodable {
        var duration: String?
    }
    struct Statistics: Decodable {
        var viewCount: LenientString?
    }
    struct Item: Decodable {
        var id: String
        var snippet: YTSnippet?
        var contentDetails: ContentDetails?
        var statistics: Statistics?
    }
    var items: [Item]
}

struct YTErrorEnvelope: Decodable {
    struct Reason: Decodable {
        var reason: String?
        var domain: String?
    }
    struct Body: Decodable {
        var code: Int?
        var message: String?
        var status: String?
        var errors: [Reason]?
        var details: [Reason]?
    }
    var error: Body
}
