import Foundation
import GraphQL

/// One upstream exchange as `--record DIR` writes it and `--replay DIR` reads it back: one
/// JSON file per request key, small enough to review in a pull request.
///
/// ```json
/// {
///   "key": "/ws/search?query=abba&limit=5",
///   "method": "GET",
///   "url": "https://api.example.com/ws/search?query=abba&limit=5",
///   "status": 200,
///   "headers": {"cache-control": "max-age=900", "content-type": "application/json"},
///   "body": "{\"resultCount\":1,…}"
/// }
/// ```
///
/// `key` is the request key the upstream cache uses (`UpstreamCache.cacheKey`: the URL without
/// its secret query parameters, plus the request headers but `Authorization`), relative to the
/// provider's base URL, so that what was recorded against one host (the real API, DemoUpstream
/// on some port) replays against any other. `url` is the absolute URL without secrets, for
/// people; only `headers` that change what the gateway does with the response are kept
/// (`headersKept`), with lower-case names; `body` is the body as text, or `bodyBase64` when it
/// is not UTF-8. Every secret the gateway holds is replaced by `***` in all of them.
public struct RecordedExchange: Sendable, Equatable {
    public var key: String
    public var method: String
    public var url: String
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]

    /// Response header fields kept in a recording: those the cache, retries and decoders read.
    public static let headersKept: Set<String> = [
        "content-type", "cache-control", "expires", "age", "retry-after", "etag", "last-modified",
        "www-authenticate", "location",
    ]

    public init(key: String, method: String, url: String, status: Int, headers: [String: String], body: [UInt8]) {
        self.key = key
        self.method = method
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The exchange of a GET of `url` with `headers` that got `response`, secrets removed.
    /// - Parameters:
    ///   - baseURLs: the providers' base URLs; the key is relative to the one `url` starts with.
    ///   - secrets: key and token values to replace by `***` wherever they appear.
    public init(
        url: String, headers: [(name: String, value: String)], response: UpstreamResponse, baseURLs: [String],
        secrets: [String]
    ) {
        let absolute = Self.requestKey(url: url, headers: [], baseURLs: [])
        self.init(
            key: Self.requestKey(url: url, headers: headers, baseURLs: baseURLs, secrets: secrets), method: "GET",
            url: Redaction.redact(absolute, secrets: secrets), status: response.status,
            headers: Dictionary(
                response.headers.filter { Self.headersKept.contains($0.key) }.map {
                    ($0.key, Redaction.redact($0.value, secrets: secrets))
                }, uniquingKeysWith: { first, _ in first }),
            body: Self.redacting(response.body, secrets: secrets))
    }

    /// The response to replay.
    public var response: UpstreamResponse {
        UpstreamResponse(status: status, headers: headers, body: body)
    }

    /// The key of a GET: `UpstreamCache.cacheKey` (secret parameters and `Authorization`
    /// dropped) with the longest base URL it starts with removed and every secret value
    /// replaced by `***`.
    public static func requestKey(
        url: String, headers: [(name: String, value: String)], baseURLs: [String], secrets: [String] = []
    ) -> String {
        var key = UpstreamCache.cacheKey(
            url: url, headers: headers, secretParameters: HTTPClientTransport.secretQueryParameters)
        for base in baseURLs.sorted(by: { $0.count > $1.count }) where key.hasPrefix(base) {
            let rest = key.dropFirst(base.count)
            guard rest.isEmpty || rest.first == "/" || rest.first == "?" || rest.first == "\n" else { continue }
            key = String(rest)
            break
        }
        return Redaction.redact(key, secrets: secrets)
    }

    /// The file an exchange with `key` is kept in: a readable slug of the path, then 16 hex
    /// digits of the key's FNV-1a hash (a replay compares the whole key, so a collision
    /// cannot answer the wrong request).
    public static func fileName(for key: String) -> String {
        let path = key.prefix { $0 != "?" && $0 != "\n" }
        var slug = ""
        for scalar in path.unicodeScalars {
            let keep = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar))
            if keep {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(slug.prefix(60)) + "-" + String(repeating: "0", count: 16 - hex.count) + hex + ".json"
    }

    /// The file's text: one member per line, headers sorted, so recordings diff well.
    public func fileText() -> String {
        func quoted(_ text: String) -> String { JSONWriter.string(.string(text)) }
        let headerText = headers.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \(quoted($0.value))" }
            .joined(separator: ", ")
        var lines = [
            "  \"key\": \(quoted(key))", "  \"method\": \(quoted(method))", "  \"url\": \(quoted(url))",
            "  \"status\": \(status)", "  \"headers\": {\(headerText)}",
        ]
        if let text = String(validating: body, as: UTF8.self) {
            lines.append("  \"body\": \(quoted(text))")
        } else {
            lines.append("  \"bodyBase64\": \(quoted(Data(body).base64EncodedString()))")
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// Reads a recording file's bytes.
    /// - Throws: `RecordingError` naming `file` and what is wrong (not JSON, a member missing
    ///   or of the wrong type, base64 that does not decode).
    public static func parse(_ bytes: [UInt8], file: String) throws(RecordingError) -> RecordedExchange {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONReader.parse(bytes)
        } catch {
            throw RecordingError(file: file, reason: "not JSON: \(error)")
        }
        guard case .object(let object) = value else { throw RecordingError(file: file, reason: "not a JSON object") }
        func string(_ name: String) throws(RecordingError) -> String {
            guard case .string(let text)? = object[name] else {
                throw RecordingError(file: file, reason: "\"\(name)\" must be a string")
            }
            return text
        }
        guard case .int(let status)? = object["status"], (100...599).contains(status) else {
            throw RecordingError(file: file, reason: "\"status\" must be an HTTP status code")
        }
        var headers: [String: String] = [:]
        if let fields = object["headers"] {
            guard case .object(let entries) = fields else {
                throw RecordingError(file: file, reason: "\"headers\" must be an object of strings")
            }
            for (name, field) in entries.entries {
                guard case .string(let text) = field else {
                    throw RecordingError(file: file, reason: "header \"\(name)\" must be a string")
                }
                headers[name.lowercased()] = text
            }
        }
        let body: [UInt8]
        if case .string(let text)? = object["body"] {
            body = Array(text.utf8)
        } else if case .string(let encoded)? = object["bodyBase64"] {
            guard let data = Data(base64Encoded: encoded) else {
                throw RecordingError(file: file, reason: "\"bodyBase64\" is not base64")
            }
            body = Array(data)
        } else {
            throw RecordingError(file: file, reason: "needs a \"body\" or \"bodyBase64\" string")
        }
        return RecordedExchange(
            key: try string("key"), method: try string("method"), url: try string("url"), status: status,
            headers: headers, body: body)
    }

    /// `body` with secrets replaced, when it is text (a binary body is kept as it is): raw,
    /// percent-encoded and JSON-escaped (an API may echo a key in its error).
    private static func redacting(_ body: [UInt8], secrets: [String]) -> [UInt8] {
        guard !secrets.isEmpty, let text = String(validating: body, as: UTF8.self) else { return body }
        return Array(Redaction.redact(text, secrets: secrets).utf8)
    }
}

/// A recording that cannot be used: the file and why.
public struct RecordingError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
