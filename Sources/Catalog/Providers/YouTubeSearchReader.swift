import GraphQL

/// search.list bodies read straight from the engine's `JSONReader` value, without Codable: a
/// cold nested query reads one search per track (150 for the Iron Maiden query), and their
/// decoding through Foundation's `JSONDecoder` was a quarter of the gateway's CPU for that
/// query (perf), all of it on the last wave's critical path.
///
/// Only for bodies of exactly the shape `YTSearchResponse` accepts; anything else (a value of
/// another type, no `items`, text that is not JSON) answers nil, and the Codable path decodes
/// it and names what is wrong, so errors stay what they were.
enum YouTubeSearchReader {
    /// The page of `body`, as `YouTubeProvider.decodeSearch` makes it from `YTSearchResponse`;
    /// nil when the body is not that shape.
    static func page(_ body: [UInt8]) -> Page<Video>? {
        guard case .object(let root)? = try? JSONReader.parse(body), case .array(let items)? = root["items"] else {
            return nil
        }
        do throws(ShapeReading.ShapeMismatch) {
            let nextPageToken = try ShapeReading.string(root["nextPageToken"])
            _ = try ShapeReading.string(root["prevPageToken"])
            let totalResults = try ShapeReading.object(root["pageInfo"]).map {
                info throws(ShapeReading.ShapeMismatch) in
                try ShapeReading.int(info["totalResults"])
            }
            var videos: [Video] = []
            videos.reserveCapacity(items.count)
            for item in items {
                guard case .object(let item) = item else { throw ShapeReading.ShapeMismatch() }
                let id = try ShapeReading.object(item["id"])
                let kind = try ShapeReading.string(id?["kind"])
                let videoId = try ShapeReading.string(id?["videoId"]) ?? ""
                // Decoded (so type-checked) before an item without a video id is skipped, as Codable does.
                let snippet = try ShapeReading.object(item["snippet"]).map(Self.snippet(from:))
                // Channels and playlists have no videoId; a `youtube#video` without one is kept,
                // its id (and url) missing, as `decodeSearchPage` does.
                guard !videoId.isEmpty || kind == "youtube#video" else { continue }
                // An item without its snippet is a video without its title (an error where selected).
                videos.append((snippet ?? YTSnippet()).video(id: videoId, escaped: true))
            }
            return Page(items: videos, nextPageToken: nextPageToken, totalResults: totalResults ?? nil)
        } catch {
            return nil
        }
    }

    private static func snippet(from object: JSONObject) throws(ShapeReading.ShapeMismatch) -> YTSnippet {
        var thumbnails: [String: YTThumbnail]?
        if let sizes = try ShapeReading.object(object["thumbnails"]) {
            var found: [String: YTThumbnail] = [:]
            for (size, thumbnail) in sizes.entries {
                guard case .object(let thumbnail) = thumbnail else { throw ShapeReading.ShapeMismatch() }
                found[size] = YTThumbnail(url: try ShapeReading.string(thumbnail["url"]))
            }
            thumbnails = found
        }
        return YTSnippet(
            publishedAt: try ShapeReading.string(object["publishedAt"]),
            channelTitle: try ShapeReading.string(object["channelTitle"]),
            title: try ShapeReading.string(object["title"]),
            description: try ShapeReading.string(object["description"]),
            thumbnails: thumbnails)
    }
}
