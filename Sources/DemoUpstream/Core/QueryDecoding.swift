import HTTPServer
import HTTPTypes

/// Decoding of `application/x-www-form-urlencoded`-style query strings, the way the real
/// upstreams read them: `&` separates pairs, the first `=` splits name from value, `+` is
/// a space and `%XX` a byte; bytes that are not valid UTF-8 become U+FFFD.
enum QueryDecoding {
    /// The decoded pairs of `rawQuery`, in order: HTTPServer's form decoding, which the
    /// server already applies to every request's query.
    static func items(_ rawQuery: String) -> [(name: String, value: String)] {
        HTTPQueryItem.parse(rawQuery: rawQuery[...]).map { ($0.name, $0.value) }
    }

    /// One decoded query component (`+` a space, `%XX` a byte).
    static func decode(_ text: Substring) -> String {
        HTTPQueryItem.formDecode(text)
    }

    /// Encodes `text` like a form does (`+` for spaces, unreserved bytes as they are), for the
    /// `href`/`next` links Apple Music writes.
    static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): out += "+"
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
            }
        }
        return out
    }
}
