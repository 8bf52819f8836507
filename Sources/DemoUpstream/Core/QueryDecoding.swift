/// Decoding of `application/x-www-form-urlencoded`-style query strings, the way the real
/// upstreams read them: `&` separates pairs, the first `=` splits name from value, `+` is
/// a space and `%XX` a byte; bytes that are not valid UTF-8 become U+FFFD.
enum QueryDecoding {
  static func items(_ rawQuery: String) -> [(name: String, value: String)] {
    rawQuery.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      if let eq = pair.firstIndex(of: "=") {
        return (decode(pair[..<eq]), decode(pair[pair.index(after: eq)...]))
      }
      return (decode(pair), "")
    }
  }

  static func decode(_ text: Substring) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var utf8 = text.utf8[...]
    while let byte = utf8.first {
      utf8 = utf8.dropFirst()
      if byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let high = hexValue(utf8[utf8.startIndex]), let low = hexValue(utf8[utf8.index(after: utf8.startIndex)])
      {
        bytes.append(high << 4 | low)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
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
