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
    /// Who sent it (`RequestClient.label`: a clients file name or `anonymous`, never a key or an
    /// address); nil for requests that are not GraphQL requests.
    public var client: String? = nil

    /// The line, keys in this order: `time`, `requestId`, `method`, `path`, `client` (when known), `status`,
    /// `durationMs` (3 decimals), `upstreamRequests`, `cacheHits`.
    public var line: String { String(decoding: utf8, as: UTF8.self) }

    /// `line` as UTF-8 bytes (no newline).
    public var utf8: [UInt8] {
        // Written straight into one array of a size known in advance: one line per request,
        // and building a JSONObject, or appending piece by piece, cost a fifth of a cached
        // answer's handler time.
        var (time, requestID, method, path, client) = (time, requestID, method, path, client ?? "")
        let hasClient = self.client != nil
        return time.withUTF8 { time in
            requestID.withUTF8 { requestID in
                method.withUTF8 { method in
                    path.withUTF8 { path in
                        client.withUTF8 { client in
                            // Keys, quotes and numbers take under 220 bytes; escaping makes a
                            // string at most 6 times longer (\u00XX per byte).
                            let capacity =
                                220 + 6 * (time.count + requestID.count + method.count + path.count + client.count)
                            return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                                var out = LineCursor(base: buffer.baseAddress!)
                                out.put("{\"time\":")
                                out.putString(time)
                                out.put(",\"requestId\":")
                                out.putString(requestID)
                                out.put(",\"method\":")
                                out.putString(method)
                                out.put(",\"path\":")
                                out.putString(path)
                                if hasClient {
                                    out.put(",\"client\":")
                                    out.putString(client)
                                }
                                out.put(",\"status\":")
                                out.putDecimal(status)
                                out.put(",\"durationMs\":")
                                out.putMilliseconds(durationMs)
                                out.put(",\"upstreamRequests\":")
                                out.putDecimal(upstreamRequests)
                                out.put(",\"cacheHits\":")
                                out.putDecimal(cacheHits)
                                out.put(UInt8(ascii: "}"))
                                count = out.offset
                            }
                        }
                    }
                }
            }
        }
    }

    /// The default sink: the line and a newline to standard error, in one `write` call so that
    /// lines of concurrent requests never interleave. (`serve` batches them: `LogWriter`.)
    public static let standardError: @Sendable (RequestLog) -> Void = { log in
        var bytes = log.utf8
        bytes.append(UInt8(ascii: "\n"))
        LogWriter.writeAll(bytes, to: 2)
    }

    /// The current time in RFC 3339 form (UTC, milliseconds), formatted from scratch.
    static func now() -> String {
        TimestampFormatter.format(TimestampFormatter.currentTime()).text
    }
}

/// Writes a log line into memory the caller sized: strings and numbers as `JSONWriter` writes
/// them.
private struct LineCursor {
    let base: UnsafeMutablePointer<UInt8>
    var offset = 0

    mutating func put(_ byte: UInt8) {
        base[offset] = byte
        offset += 1
    }

    mutating func put(_ text: StaticString) {
        (base + offset).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        offset += text.utf8CodeUnitCount
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        (base + offset).update(from: start, count: bytes.count)
        offset += bytes.count
    }

    /// A JSON string literal: copied whole when nothing needs escaping (nearly always), else
    /// written by `JSONWriter`.
    mutating func putString(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            put(UInt8(ascii: "\""))
            put(utf8)
            put(UInt8(ascii: "\""))
            return
        }
        JSONWriter.serialize(.string(String(decoding: utf8, as: UTF8.self))).withUnsafeBufferPointer { put($0) }
    }

    mutating func putDecimal(_ number: Int) {
        if number < 0 { put(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var index = offset + digits - 1
        repeat {
            base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        offset += digits
    }

    /// `milliseconds` rounded to 3 decimals, as `JSONWriter` prints that double: no trailing
    /// zeros, no decimal point for a whole number (`12.346`, `0.5`, `3`).
    mutating func putMilliseconds(_ milliseconds: Double) {
        guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 1e12 else {
            // At most 25 bytes (`-1.7976931348623157e+308`, `null`).
            JSONWriter.serialize(.double((milliseconds * 1000).rounded() / 1000)).withUnsafeBufferPointer { put($0) }
            return
        }
        let microseconds = Int((milliseconds * 1000).rounded())
        putDecimal(microseconds / 1000)
        var fraction = microseconds % 1000
        guard fraction > 0 else { return }
        put(UInt8(ascii: "."))
        var divisor = 100
        while fraction > 0 {
            put(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
