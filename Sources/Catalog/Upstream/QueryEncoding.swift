/// Query-string building for upstream URLs.
///
/// Every value is percent-encoded byte by byte from its UTF-8 form, leaving only RFC 3986
/// unreserved characters (`A–Z a–z 0–9 - . _ ~`) as they are, with upper-case hex. So `/`,
/// `'`, `&`, `=`, `+`, `#`, `%` and spaces can never end a value or add a parameter, and
/// Unicode text is sent in the exact scalars it came in (NFC and NFD stay distinct; no
/// normalisation happens anywhere on this path).
public enum QueryEncoding {
    /// `value` percent-encoded for use as a query name or value (RFC 3986 §2.1, §2.3).
    public static func percentEncode(_ value: String) -> String {
        // Parameter names and ids are all unreserved: they are returned as they are, without
        // a copy (every executed lookup and search builds its URL, cache hit or not).
        if value.utf8.allSatisfy(isUnreserved) { return value }
        var out: [UInt8] = []
        out.reserveCapacity(value.utf8.count)
        appendEncoded(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `name=value` pairs, each side percent-encoded, joined with `&`. Nil values are left out.
    /// (Written into one buffer: a string per pair and per side, then joined, was most of
    /// building a search URL.)
    public static func queryString(_ items: [(String, String?)]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(items.reduce(0) { $0 + $1.0.utf8.count + ($1.1?.utf8.count ?? 0) + 2 })
        for (name, value) in items {
            guard let value else { continue }
            if !out.isEmpty { out.append(UInt8(ascii: "&")) }
            appendEncoded(name, to: &out)
            out.append(UInt8(ascii: "="))
            appendEncoded(value, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `value`'s bytes percent-encoded onto `out` (as `percentEncode`).
    static func appendEncoded(_ value: String, to out: inout [UInt8]) {
        for byte in value.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// A comma-separated id list: each id percent-encoded, then joined with a literal `,`
    /// (a sub-delimiter every upstream splits on), so an id can never smuggle in a comma.
    public static func idList(_ ids: [String]) -> String {
        ids.map(percentEncode).joined(separator: ",")
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

/// Joins a base URL (scheme + host, maybe a path prefix, trailing `/` optional) with a path
/// and an already-encoded query.
func upstreamURL(base: String, path: String, query: String) -> String {
    let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
    return query.isEmpty ? trimmed + path : "\(trimmed)\(path)?\(query)"
}
