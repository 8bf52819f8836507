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
        var out: [UInt8] = []
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `line`'s UTF-8 bytes (no newline) to `out`.
    public func write(to out: inout [UInt8]) {
        // Written as bytes, ASCII fields copied whole: one line per request, and building a
        // JSONObject, or appending to a String piece by piece, cost a fifth of a cached
        // answer's handler time.
        out.reserveCapacity(out.count + 160 + path.utf8.count + requestID.utf8.count)
        out.append(contentsOf: #"{"time":"#.utf8)
        Self.appendString(time, to: &out)
        out.append(contentsOf: #","requestId":"#.utf8)
        Self.appendString(requestID, to: &out)
        out.append(contentsOf: #","method":"#.utf8)
        Self.appendString(method, to: &out)
        out.append(contentsOf: #","path":"#.utf8)
        Self.appendString(path, to: &out)
        out.append(contentsOf: #","status":"#.utf8)
        Self.appendDecimal(status, to: &out)
        out.append(contentsOf: #","durationMs":"#.utf8)
        Self.appendMilliseconds(durationMs, to: &out)
        out.append(contentsOf: #","upstreamRequests":"#.utf8)
        Self.appendDecimal(upstreamRequests, to: &out)
        out.append(contentsOf: #","cacheHits":"#.utf8)
        Self.appendDecimal(cacheHits, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string literal, escaped as `JSONWriter` does (`"`, `\\`, C0 controls).
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        let plain = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain {
            out.append(contentsOf: JSONWriter.serialize(.string(text)).dropFirst().dropLast())
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func appendDecimal(_ number: Int, to out: inout [UInt8]) {
        guard number >= 0, number < 10 else {
            out.append(contentsOf: String(number).utf8)
            return
        }
        out.append(UInt8(ascii: "0") + UInt8(number))
    }

    /// `milliseconds` rounded to 3 decimals, as `JSONWriter` prints that double: no trailing
    /// zeros, no decimal point for a whole number (`12.346`, `0.5`, `3`).
    private static func appendMilliseconds(_ milliseconds: Double, to out: inout [UInt8]) {
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e12 else {
            out.append(contentsOf: JSONWriter.serialize(.double((milliseconds * 1000).rounded() / 1000)))
            return
        }
        let microseconds = Int((milliseconds * 1000).rounded())
        appendDecimal(microseconds / 1000, to: &out)
        var fraction = microseconds % 1000
        guard fraction > 0 else { return }
        out.append(UInt8(ascii: "."))
        var divisor = 100
        while fraction > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// The default sink: the line and a newline to standard error, in one `write` call so that
    /// lines of concurrent requests never interleave. (`serve` batches them: `LogWriter`.)
    public static let standardError: @Sendable (RequestLog) -> Void = { log in
        var bytes: [UInt8] = []
        log.write(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
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
