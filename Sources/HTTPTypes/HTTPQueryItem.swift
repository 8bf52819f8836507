/// One `name=value` pair of a URL query, percent-decoded.
public struct HTTPQueryItem: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension HTTPQueryItem {
    /// Splits a raw query string (the part after `?`, without it) into decoded items, in order.
    ///
    /// Follows the `application/x-www-form-urlencoded` parser of the WHATWG URL standard:
    /// pairs are separated by `&`, the first `=` separates name from value (a missing `=` gives
    /// an empty value), `+` means a space and `%XX` a byte; empty pairs are skipped. Malformed
    /// percent escapes are kept literally and invalid UTF-8 becomes U+FFFD, so any input decodes
    /// (`decodedPairs(rawQuery:)` gives the bytes, for callers that must refuse it instead).
    /// `&` and `=` are found as bytes, as the standard says: a combining mark after one (sent
    /// unencoded) does not hide it, as it would in a search by Character.
    public static func parse(rawQuery: Substring) -> [HTTPQueryItem] {
        var items: [HTTPQueryItem] = []
        for pair in rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                items.append(
                    HTTPQueryItem(
                        name: formDecode(bytes: pair[..<equals]),
                        value: formDecode(bytes: pair[pair.index(after: equals)...])))
            } else {
                items.append(HTTPQueryItem(name: formDecode(bytes: pair), value: ""))
            }
        }
        return items
    }

    /// Percent-decodes one form component, `+` meaning a space.
    public static func formDecode(_ component: Substring) -> String {
        formDecode(bytes: component.utf8[...])
    }

    private static func formDecode(bytes component: Substring.UTF8View.SubSequence) -> String {
        // Most components need no decoding: one validating copy.
        guard component.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(decoding: component, as: UTF8.self)
        }
        return String(decoding: formDecodedBytes(component), as: UTF8.self)
    }

    /// The raw query's pairs as their percent-decoded bytes, before any UTF-8 decoding (so a
    /// caller can refuse `%FF` instead of reading a U+FFFD); split as `parse(rawQuery:)` does.
    public static func decodedPairs(rawQuery: Substring) -> [(name: [UInt8], value: [UInt8])] {
        rawQuery.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return (formDecodedBytes(pair), []) }
            return (formDecodedBytes(pair[..<equals]), formDecodedBytes(pair[pair.index(after: equals)...]))
        }
    }

    /// Percent-decodes one form component into bytes, `+` meaning a space.
    private static func formDecodedBytes(_ component: Substring.UTF8View.SubSequence) -> [UInt8] {
        let bytes = Array(component)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
