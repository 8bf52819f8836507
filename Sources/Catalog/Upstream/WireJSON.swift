import Foundation

/// Shared helpers for reading upstream bodies.
enum WireJSON {
    /// Decodes `body` as `T`, or throws `badResponse` saying whether the body was an HTML
    /// page, not JSON at all (e.g. truncated) or JSON of an unexpected shape.
    static func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], service: UpstreamService, status: Int
    ) throws(UpstreamError) -> T {
        if looksLikeHTML(body) {
            throw UpstreamError(
                service: service, kind: .badResponse(reason: "HTML page instead of JSON"), status: status)
        }
        if nestsDeeper(than: maxDepth, body) {
            throw UpstreamError(
                service: service, kind: .badResponse(reason: "JSON nested deeper than \(maxDepth) levels"),
                status: status)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw UpstreamError(
                service: service, kind: .badResponse(reason: body.isEmpty ? "empty body" : "body is not valid JSON"),
                status: status)
        } catch let error as DecodingError {
            throw UpstreamError(service: service, kind: .badResponse(reason: shapeProblem(error)), status: status)
        } catch {
            throw UpstreamError(service: service, kind: .badResponse(reason: "body is not valid JSON"), status: status)
        }
    }

    /// The deepest array/object nesting handed to `JSONDecoder`. Its own limit is 512, and on
    /// this toolchain (FoundationEssentials of Swift 6.3.1) a body that ends right at that limit
    /// (`[` × 513, 513 bytes) traps inside its error reporting instead of throwing: one such
    /// upstream body stopped the whole gateway (found by fuzz/FuzzYouTube). Real upstream
    /// bodies nest fewer than 10 levels.
    static let maxDepth = 256

    /// True when `body` opens more than `limit` arrays or objects inside one another (brackets
    /// inside strings do not count). A linear scan, cheap beside the decode it guards.
    static func nestsDeeper(than limit: Int, _ body: [UInt8]) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for byte in body {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
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
