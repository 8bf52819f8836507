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
        // Appended piece by piece to one String: one line per request, and building a
        // JSONObject (or a byte array decoded back into a String) for it cost a tenth of a
        // small cached query's handler time.
        var out = ""
        out.reserveCapacity(160 + path.utf8.count + requestID.utf8.count)
        out += #"{"time":"#
        Self.appendString(time, to: &out)
        out += #","requestId":"#
        Self.appendString(requestID, to: &out)
        out += #","method":"#
        Self.appendString(method, to: &out)
        out += #","path":"#
        Self.appendString(path, to: &out)
        out += #","status":"#
        out += String(status)
        out += #","durationMs":"#
        Self.appendMilliseconds(durationMs, to: &out)
        out += #","upstreamRequests":"#
        out += String(upstreamRequests)
        out += #","cacheHits":"#
        out += String(cacheHits)
        out += "}"
        return out
    }

    /// A JSON string literal, escaped as `JSONWriter` does (`"`, `\\`, C0 controls).
    private static func appendString(_ text: String, to out: inout String) {
        out += "\""
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            out += text
        } else {
            out += String(decoding: JSONWriter.serialize(.string(text)).dropFirst().dropLast(), as: UTF8.self)
        }
        out += "\""
    }

    /// `milliseconds` rounded to 3 decimals, as `JSONWriter` prints that double: no trailing
    /// zeros, no decimal point for a whole number (`12.346`, `0.5`, `3`).
    private static func appendMilliseconds(_ milliseconds: Double, to out: inout String) {
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e12 else {
            out += String(decoding: JSONWriter.serialize(.double((milliseconds * 1000).rounded() / 1000)), as: UTF8.self)
            return
        }
        let microseconds = Int((milliseconds * 1000).rounded())
        out += String(microseconds / 1000)
        var fraction = microseconds % 1000
        guard fraction > 0 else { return }
        out += "."
        var divisor = 100
        while fraction > 0 {
            out.unicodeScalars.append(Unicode.Scalar(UInt8(48 + fraction / divisor)))
            fraction %= divisor
            divisor /= 10
        }
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
