import Foundation

/// Rakuten Books CD Search emulation: `GET /services/api/BooksCD/Search/20170404` with
/// `formatVersion` 1 (`Items[].Item`) and 2 (flat `Items[]`), `hits`/`page` paging, play
/// lists joined by `###` (empty for every eleventh album) and Japanese sales dates. Search
/// keys: `artistName`, `title`, `keyword` and `jan` (one exact JAN code, how a release is
/// found again: the API has no lookup endpoint).
struct RakutenRoutes: Sendable {
    let catalog: DemoCatalog

    static let path = "/services/api/BooksCD/Search/20170404"
    static let maxHits = 30
    static let maxPage = 100
    static let contentType = "application/json;charset=UTF-8"

    func handle(_ request: DemoRequest) -> DemoResponse {
        guard request.path == Self.path else {
            return Self.error(404, "not_found", "not found")
        }
        guard let appId = request.query("applicationId"), !appId.isEmpty else {
            return Self.error(400, "wrong_parameter", "specify valid applicationId")
        }
        let artistName = request.query("artistName").flatMap { $0.isEmpty ? nil : $0 }
        let title = request.query("title").flatMap { $0.isEmpty ? nil : $0 }
        let keyword = request.query("keyword").flatMap { $0.isEmpty ? nil : $0 }
        let jan = request.query("jan").flatMap { $0.isEmpty ? nil : $0 }
        guard artistName != nil || title != nil || keyword != nil || jan != nil else {
            return Self.error(400, "wrong_parameter", "specify one of title, artistName, label, jan, booksGenreId")
        }
        var hits = Self.maxHits
        switch request.intQuery("hits") {
        case .absent: break
        case .value(let n) where (1...Self.maxHits).contains(n): hits = n
        default: return Self.error(400, "wrong_parameter", "hits must be between 1 and \(Self.maxHits)")
        }
        var page = 1
        switch request.intQuery("page") {
        case .absent: break
        case .value(let n) where (1...Self.maxPage).contains(n): page = n
        default: return Self.error(400, "wrong_parameter", "page must be between 1 and \(Self.maxPage)")
        }
        let formatVersion = request.query("formatVersion") == "2" ? 2 : 1

        // Each given key narrows the result; the last one given orders it.
        var entries = catalog.albumEntries
        if let jan {
            entries = entries.filter { Self.jan(albumId: $0.item.id) == jan }
        }
        if let artistName {
            let matching = Set(SearchRanking.ranked(catalog.albumByArtistEntries, term: artistName).map(\.id))
            entries = entries.filter { matching.contains($0.item.id) }
        }
        if let title {
            let key = SearchKey(title).trimmed
            entries = entries.filter {
                SearchRanking.rank(term: key, entry: SearchEntry(item: 0, name: $0.name, others: [])) != nil
            }
        }
        if let keyword {
            let key = SearchKey(keyword).trimmed
            entries = entries.filter { SearchRanking.rank(term: key, entry: $0) != nil }
        }
        let albums: [ChinookCatalog.Album]
        if let orderTerm = keyword ?? title {
            albums = SearchRanking.ranked(entries, term: orderTerm)
        } else if artistName == nil {
            albums = entries.map(\.item)  // `jan` alone: nothing to rank by
        } else {
            let kept = Set(entries.map(\.item.id))
            albums = SearchRanking.ranked(
                catalog.albumByArtistEntries.filter { kept.contains($0.item.id) }, term: artistName ?? "")
        }
        let count = albums.count
        let pageCount = (count + hits - 1) / hits
        let onPage = Array(albums.dropFirst((page - 1) * hits).prefix(hits))
        guard !onPage.isEmpty else {
            if count > 0 { return Self.error(404, "not_found", "not found") }
            return DemoResponse.json(
                200,
                #"{"count":0,"page":0,"first":0,"last":0,"hits":0,"carrier":0,"pageCount":0,"Items":[],"GenreInformation":[]}"#,
                contentType: Self.contentType)
        }
        let first = (page - 1) * hits + 1
        let items = onPage.map { album -> JSONText in
            let item = self.item(album)
            return formatVersion == 1 ? .object([("Item", item)]) : item
        }
        let body = JSONText.object([
            ("count", .int(count)), ("page", .int(page)), ("first", .int(first)),
            ("last", .int(first + onPage.count - 1)),
            ("hits", .int(onPage.count)), ("carrier", .int(0)), ("pageCount", .int(pageCount)),
            ("Items", .array(items)),
            ("GenreInformation", .array([])),
        ])
        return DemoResponse.json(200, body.compact, contentType: Self.contentType)
    }

    private func item(_ album: ChinookCatalog.Album) -> JSONText {
        let artist = catalog.artist(ofAlbum: album)
        let tracks = catalog.tracks(ofAlbum: album.id)
        let date = DemoCatalog.releaseDate(albumId: album.id)
        let jan = Self.jan(albumId: album.id)
        let playList = album.id % 11 == 0 ? "" : tracks.map(\.name).joined(separator: "###")
        let image = "https://thumbnail.demo.invalid/@0_mall/book/cabinet/\(jan.suffix(4))/\(jan).jpg"
        let price = 2000 + (album.id * 37) % 1500
        return .object([
            ("title", .string(album.title)), ("titleKana", .string("")), ("artistName", .string(artist.name)),
            ("artistNameKana", .string("")), ("label", .string("(株)チヌーク・レコード")), ("size", .string("1")),
            ("jan", .string(jan)), ("makerCode", .string(String(format: "CHNK-%04ld", album.id))),
            ("itemCaption", .string("\(artist.name)『\(album.title)』\(tracks.count)曲収録。")),
            ("playList", .string(playList)),
            ("salesDate", .string(String(format: "%04ld年%02ld月%02ld日", date.year, date.month, date.day))),
            ("itemPrice", .int(price)), ("listPrice", .int(0)), ("discountRate", .int(0)), ("discountPrice", .int(0)),
            ("itemUrl", .string("https://books.demo.invalid/rb/\(18_000_000 + album.id)/")),
            ("affiliateUrl", .string("")),
            ("smallImageUrl", .string(image + "?_ex=64x64")), ("mediumImageUrl", .string(image + "?_ex=120x120")),
            ("largeImageUrl", .string(image + "?_ex=200x200")),
            ("availability", .string(album.id % 5 == 0 ? "5" : "1")),
            ("postageFlag", .int(2)), ("limitedFlag", .int(0)), ("reviewCount", .int(album.id % 9)),
            (
                "reviewAverage",
                .string(album.id % 9 == 0 ? "0.0" : String(format: "%.1f", 3.0 + Double(album.id % 20) / 10))
            ),
            ("booksGenreId", .string("002102001")),
        ])
    }

    /// The JAN (EAN-13 shaped) code of a Chinook album: `49` and eleven digits.
    static func jan(albumId: Int) -> String {
        String(format: "49%011ld", 10_000_000 + albumId * 7)
    }

    /// The legacy host's error body `{"error","error_description"}`.
    static func error(_ status: Int, _ error: String, _ description: String) -> DemoResponse {
        let body = JSONText.object([("error", .string(error)), ("error_description", .string(description))])
        return DemoResponse.json(status, body.compact, contentType: contentType)
    }
}
