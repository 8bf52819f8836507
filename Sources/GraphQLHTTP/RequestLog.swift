import Glibc
import GraphQL

/// One JSON log line per request: when, which request, how it ended, how long it took and how
/// many upstream requests it caused.
///
/// Deliberately absent: the query text, variables, the URL query (GET requests carry variables
/// there), headers, API keys and tokens. `path` is the request path without its query.
public struct RequestLog: Sendable, Equatable {
    /// RFC 3339 UTC time the request arrived, with milliseconds (`2026-11-29T14:03:07.123Z`).
    public var time: String
    public var requestID: String
    public var method: String
    public var path: String
    public var status: Int
    /// Wall time from the handler's start to its answer, in milliseconds.
    public var durationMs: Double
    public var upstreamRequests: Int
    public var cacheHits: Int

    /// The line, keys in this order: `time`, `requestId`, `method`, `path`, `status`,
    /// `durationMs` (3 decimals), `upstreamRequests`, `cacheHits`.
    public var line: String {
        // Written field by field: one line per request, and building a JSONObject for it cost
        // a tenth of a small cached query's handler time.
        let roundedMs = (durationMs * 1000).rounded() / 1000
        var out: [UInt8] = []
        out.reserveCapacity(192)
        out.append(contentsOf: #"{"time":"#.utf8)
        Self.writeString(time, to: &out)
        out.append(contentsOf: #","requestId":"#.utf8)
        Self.writeString(requestID, to: &out)
        out.append(contentsOf: #","method":"#.utf8)
        Self.writeString(method, to: &out)
        out.append(contentsOf: #","path":"#.utf8)
        Self.writeString(path, to: &out)
        out.append(contentsOf: #","status":\#(status),"durationMs":"#.utf8)
        out.append(contentsOf: JSONWriter.serialize(.double(roundedMs)))
        out.append(contentsOf: #","upstreamRequests":\#(upstreamRequests),"cacheHits":\#(cacheHits)}"#.utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// A JSON string literal, escaped as `JSONWriter` does (`"`, `\\`, C0 controls).
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                out.append(contentsOf: JSONWriter.serialize(.string(String(UnicodeScalar(byte)))).dropFirst().dropLast())
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The default sink: the line and a newline to standard error, in one `write` call so that
    /// lines of concurrent requests never interleave.
    public static let standardError: @Sendable (String) -> Void = { line in
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { return }
                offset += written
            }
        }
    }

    /// The current time in RFC 3339 form (UTC, milliseconds), formatted from scratch.
    static func now() -> String {
        TimestampFormatter.format(TimestampFormatter.currentTime()).text
    }
}
