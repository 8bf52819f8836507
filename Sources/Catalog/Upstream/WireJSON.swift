import GraphQL
import UpstreamEconomy

/// Shared helpers for reading upstream bodies.
enum WireJSON {
    /// Decodes `body` as `T` (`JSONReader`, then `JSONValueDecoder`), or throws `badResponse`
    /// saying whether the body was an HTML page, not JSON at all (e.g. truncated), nested
    /// deeper than `JSONReader.maxDepth`, or JSON of an unexpected shape.
    static func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], service: UpstreamService, status: Int
    ) throws(UpstreamError) -> T {
        func bad(_ reason: String) -> UpstreamError {
            UpstreamError(service: service, kind: .badResponse(reason: reason), status: status)
        }
        if looksLikeHTML(body) { throw bad("HTML page instead of JSON") }
        let value: JSONValue
        do {
            value = try JSONReader.parse(body)
        } catch {
            if body.isEmpty { throw bad("empty body") }
            if error.kind == .tooDeep {
                throw bad("JSON nested deeper than \(JSONReader.maxDepth) levels")
            }
            throw bad("body is not valid JSON")
        }
        do {
            return try JSONValueDecoder.decode(T.self, from: value)
        } catch let error as DecodingError {
            throw bad(shapeProblem(error))
        } catch {
            throw bad("unexpected JSON shape")
        }
    }

    /// True when the first non-blank byte is `<` (an HTML error page).
    static func looksLikeHTML(_ body: [UInt8]) -> Bool {
        body.first(where: { !isBlank($0) }) == UInt8(ascii: "<")
    }

    /// The first ~`limit` characters of `body` as one line: tags stripped, blanks collapsed.
    static func summary(_ body: [UInt8], limit: Int = 200) -> String {
        var text = String(decoding: body.prefix(4096), as: UTF8.self)
        if looksLikeHTML(body) {
            text = text.replacing(/<[^>]*>/, with: " ")
        }
        let words = text.split(whereSeparator: { $0.isWhitespace })
        let line = words.joined(separator: " ")
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    private static func shapeProblem(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing \(parent == "top level" ? key.stringValue : parent + "." + key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "unexpected value at \(path(context))"
        @unknown default:
            return "unexpected JSON shape"
        }
    }
}

/// A JSON value that upstreams send either as a string or as a number (Rakuten's `size`,
/// `jan`, `availability`), read as text.
struct LenientString: Decodable, Hashable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let int = try? container.decode(Int.self) {
            value = String(int)
        } else {
            value = String(try container.decode(Double.self))
        }
    }
}
