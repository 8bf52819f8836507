import Foundation
import UpstreamEconomy

/// The Rakuten Books CD Search API (`applicationId`; API-FACTS §3).
///
/// Items become albums whose tracks come from `playList` (titles only). Both the legacy
/// host (`app.rakuten.co.jp`) and the 2026 host (`openapi.rakuten.co.jp`, which also wants
/// `accessKey`) are supported through `baseURL` and `accessKey`, and both error shapes decode.
public struct RakutenProvider: Sendable {
    public static let defaultBaseURL = "https://app.rakuten.co.jp"
    public static let searchPath = "/services/api/BooksCD/Search/20170404"
    /// `hits` range (items per page; default 30).
    public static let hitsRange = 1...30
    /// `page` cannot exceed 100, so at most 3,000 items are reachable per query.
    public static let maxPage = 100

    public var baseURL: String
    public var applicationId: String?
    /// Required on the 2026 host only.
    public var accessKey: String?
    /// 2 = flat `Items[]` (what we send); 1 = `Items[].Item`. Both decode.
    public var formatVersion: Int
    public var transport: any UpstreamTransport

    public init(
        baseURL: String = RakutenProvider.defaultBaseURL, applicationId: String?, accessKey: String? = nil,
        formatVersion: Int = 2, transport: any UpstreamTransport
    ) {
        self.baseURL = baseURL
        self.applicationId = applicationId
        self.accessKey = accessKey
        self.formatVersion = formatVersion
        self.transport = transport
    }

    // MARK: - URLs

    /// The search URL; at least one of `artistName`/`title`/`jan` should be given (the API
    /// answers 400 `wrong_parameter` otherwise). `hits` clamped to 1–30, `page` to 1–100.
    public func searchURL(
        artistName: String? = nil, title: String? = nil, jan: String? = nil, hits: Int = 30, page: Int = 1
    ) -> String {
        let query = QueryEncoding.queryString([
            ("format", "json"), ("formatVersion", String(formatVersion)), ("applicationId", applicationId ?? ""),
            ("accessKey", accessKey), ("artistName", artistName), ("title", title), ("jan", jan),
            ("hits", String(min(max(hits, Self.hitsRange.lowerBound), Self.hitsRange.upperBound))),
            ("page", String(min(max(page, 1), Self.maxPage))),
        ])
        return upstreamURL(base: baseURL, path: Self.searchPath, query: query)
    }

    // MARK: - Calls

    /// One page of CD releases; `nextPageToken` is the next page number, nil on the last
    /// reachable page.
    public func search(
        artistName: String? = nil, title: String? = nil, jan: String? = nil, hits: Int = 30, page: Int = 1
    ) async throws(UpstreamError) -> Page<AlbumWithTracks> {
        guard let applicationId, !applicationId.isEmpty else {
            throw UpstreamError(service: .rakuten, kind: .notConfigured)
        }
        let call = UpstreamCall(
            service: .rakuten, transport: transport, secrets: [applicationId, accessKey].compactMap { $0 })
        return try await call.fetch(
            searchURL(artistName: artistName, title: title, jan: jan, hits: hits, page: page), decode: Self.decodeSearch
        )
    }

    /// The CD release with this JAN (EAN-13) code, with its play list as tracks; nil when the
    /// search finds none. Rakuten has no lookup endpoint: this is a search on the `jan` key,
    /// which takes one code, so every release costs its own request.
    public func release(jan: String) async throws(UpstreamError) -> AlbumWithTracks? {
        try await search(jan: jan).items.first { $0.album.id == jan }
    }
}

// MARK: - Decoding

extension RakutenProvider {
    /// Decodes a search response of either `formatVersion`. Empty results (all counters 0,
    /// `Items: []`) give an empty page.
    /// - Throws: `UpstreamError` per `decodeError` for error bodies, `badResponse` for other shapes.
    public static func decodeSearch(status: Int, headers: [String: String], body: [UInt8]) throws(UpstreamError)
        -> Page<AlbumWithTracks>
    {
        guard (200..<300).contains(status) else { throw decodeError(status: status, headers: headers, body: body) }
        let wire = try WireJSON.decode(RakutenEnvelope.self, from: body, service: .rakuten, status: status)
        let items = wire.items.map(\.item)
        let hasNext = wire.page >= 1 && wire.page < min(wire.pageCount, maxPage)
        return Page(
            items: items.compactMap(\.albumWithTracks), nextPageToken: hasNext ? String(wire.page + 1) : nil,
            totalResults: wire.count)
    }

    /// Classifies an error response. Legacy shape `{"error","error_description"}`, 2026 shape
    /// `{"errors":{"errorCode","errorMessage"}}`. Credential problems (`applicationId`,
    /// `accessKey` in the message, 401, 403) → `authFailed`; 429 / `too_many_requests` →
    /// `quotaExceeded`; the rest → `httpStatus` with `"<error>: <description>"`.
    static func decodeError(status: Int, headers: [String: String], body: [UInt8]) -> UpstreamError {
        let retry = retryAfterSeconds(headers)
        var code: String?
        var message: String?
        if let legacy = try? WireJSON.decode(RakutenLegacyError.self, from: body, service: .rakuten, status: status) {
            code = legacy.error
            message = legacy.errorDescription
        } else if let current = try? WireJSON.decode(
            RakutenError2026.self, from: body, service: .rakuten, status: status)
        {
            code = current.errors.errorCode.map { String($0.value) }
            message = current.errors.errorMessage
        }
        let text = message ?? ""
        if status == 401 || status == 403 || text.contains("applicationId") || text.contains("accessKey") {
            return UpstreamError(service: .rakuten, kind: .authFailed, status: status)
        }
        if status == 429 || code == "too_many_requests" {
            return UpstreamError(service: .rakuten, kind: .quotaExceeded, status: status, retryAfterSeconds: retry)
        }
        let summary =
            code == nil && message == nil
            ? WireJSON.summary(body) : [code, message].compactMap { $0 }.joined(separator: ": ")
        return UpstreamError(
            service: .rakuten, kind: .httpStatus(code: status, bodySummary: summary), status: status,
            retryAfterSeconds: retry)
    }

    /// Converts a Japanese sales date to ISO 8601 as far as it goes: `2014年12月03日` →
    /// `2014-12-03`, `2014年12月上旬` → `2014-12`, `2014年` → `2014`; nil without a year.
    static func isoDate(fromSalesDate text: String) -> String? {
        var parts: [Int] = []
        var digits = ""
        for c in text {
            if c.isASCII, c.isNumber {
                digits.append(c)
            } else if c == "年" || c == "月" || c == "日" {
                guard let n = Int(digits) else { break }
                parts.append(n)
                digits = ""
                if c == "日" { break }
            } else {
                break
            }
        }
        guard let year = parts.first, year > 0 else { return nil }
        var iso = String(year)
        for n in parts.dropFirst().prefix(2) {
            iso += n < 10 ? "-0\(n)" : "-\(n)"
        }
        return iso
    }

    /// Splits a `playList` into track titles: titles are joined by `###`; `""` is an empty list.
    ///
    /// `|` is kept inside titles: it is said to separate discs, but the recorded samples use it
    /// inside a title too (`赤とんぼ|スターダスト`, a medley opening a one-disc album), so
    /// splitting on it would invent discs.
    static func playListTitles(_ playList: String) -> [String] {
        playList.split(separator: "###", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }
}

struct RakutenLegacyError: Decodable {
    var error: String
    var errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}

struct RakutenError2026: Decodable {
    struct Body: Decodable {
        var errorCode: LenientString?
        var errorMessage: String?
    }
    var errors: Body
}

struct RakutenEnvelope: Decodable {
    /// An `Items` element: `{"Item":{…}}` in formatVersion 1, the item itself in 2.
    struct Entry: Decodable {
        var item: RakutenItem

        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: Key.self)
            item = try keyed.decodeIfPresent(RakutenItem.self, forKey: .item) ?? RakutenItem(from: decoder)
        }
        enum Key: String, CodingKey { case item = "Item" }
    }
    var count: Int
    var page: Int
    var pageCount: Int
    var items: [Entry]

    enum CodingKeys: String, CodingKey {
        case count, page, pageCount
        case items = "Items"
    }
}

struct RakutenItem: Decodable {
    /// Optional on the wire as every field: an item without it is kept with `title` missing.
    var title: String?
    var artistName: String?
    var label: String?
    var jan: LenientString?
    var playList: String?
    var salesDate: String?
    var itemUrl: String?
    var largeImageUrl: String?

    var albumWithTracks: AlbumWithTracks? {
        let jan = jan?.value ?? ""
        let titles = RakutenProvider.playListTitles(playList ?? "")
        let tracks = titles.enumerated().map { index, trackTitle in
            var track = Track(
                id: jan.isEmpty ? "" : "\(jan)-\(index + 1)", title: trackTitle, albumId: jan.isEmpty ? nil : jan,
                albumTitle: title, artistName: artistName, trackNumber: index + 1, source: .rakuten)
            if jan.isEmpty { track.missingFields.insert("id") }
            return track
        }
        let artwork = largeImageUrl.flatMap { $0.isEmpty || $0.contains("noimage") ? nil : $0 }
        var album = Album(
            id: jan, title: title ?? "", artistName: artistName ?? "",
            releaseDate: salesDate.flatMap(RakutenProvider.isoDate(fromSalesDate:)),
            trackCount: tracks.isEmpty ? nil : tracks.count, artworkURL: artwork, url: itemUrl, source: .rakuten)
        if jan.isEmpty { album.missingFields.insert("id") }
        if title == nil { album.missingFields.insert("title") }
        if artistName == nil { album.missingFields.insert("artistName") }
        return AlbumWithTracks(album: album, tracks: tracks)
    }
}
