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
        do throws(ShapeMismatch) {
            let nextPageToken = try string(root["nextPageToken"])
            _ = try string(root["prevPageToken"])
            let totalResults = try object(root["pageInfo"]).map { info throws(ShapeMismatch) in
                try int(info["totalResults"])
            }
            var videos: [Video] = []
            videos.reserveCapacity(items.count)
            for item in items {
                guard case .object(let item) = item else { throw ShapeMismatch() }
                let id = try object(item["id"])
                let kind = try string(id?["kind"])
                let videoId = try string(id?["videoId"]) ?? ""
                // Decoded (so type-checked) before an item without a video id is skipped, as Codable does.
                let snippet = try object(item["snippet"]).map(Self.snippet(from:))
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

    /// A value of another type than `YTSearchResponse` declares.
    struct ShapeMismatch: Error {}

    private static func snippet(from object: JSONObject) throws(ShapeMismatch) -> YTSnippet {
        var thumbnails: [String: YTThumbnail]?
        if let sizes = try Self.object(object["thumbnails"]) {
            var found: [String: YTThumbnail] = [:]
            for (size, thumbnail) in sizes.entries {
                guard case .object(let thumbnail) = thumbnail else { throw ShapeMismatch() }
                found[size] = YTThumbnail(url: try string(thumbnail["url"]))
            }
            thumbnails = found
        }
        return YTSnippet(
            publishedAt: try string(object["publishedAt"]), channelTitle: try string(object["channelTitle"]),
            title: try string(object["title"]), description: try string(object["description"]),
            thumbnails: thumbnails)
    }

    /// An optional member as `decodeIfPresent` reads it: absent or null is nil.
    private static func string(_ value: JSONValue?) throws(ShapeMismatch) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ShapeMismatch()
        }
    }

    private static func int(_ value: JSONValue?) throws(ShapeMismatch) -> Int? {
        switch value {
        case nil, .null?: return nil
        case .int(let number)?: return number
        default: throw ShapeMismatch()
        }
    }

    private static func object(_ value: JSONValue?) throws(ShapeMismatch) -> JSONObject? {
        switch value {
        case nil, .null?: return nil
        case .object(let object)?: return object
        default: throw ShapeMismatch()
        }
    }
}
