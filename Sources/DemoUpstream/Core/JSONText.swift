/// An ordered JSON value for writing wire-format bodies: keys stay in the order given, so
/// each service's responses keep the field order of the recorded samples.
indirect enum JSONText: Sendable {
  case null
  case bool(Bool)
  case int(Int)
  /// A number written exactly as given (prices keep trailing zeros: `9.90`).
  case number(String)
  case string(String)
  case array([JSONText])
  case object([(String, JSONText)])

  /// Optional string: null when nil.
  static func string(_ value: String?) -> JSONText { value.map(JSONText.string) ?? .null }

  /// No whitespace at all (TMDB, Rakuten, Apple Music).
  var compact: String {
    var out = ""
    write(to: &out, indent: nil, level: 0)
    return out
  }

  /// One member per line, `indent` spaces per level, `"key": value` (YouTube style).
  func pretty(indent: Int = 2) -> String {
    var out = ""
    write(to: &out, indent: indent, level: 0)
    return out
  }

  /// iTunes Search style for one record: `{"a":1, "b":"x"}` with `", "` between members and
  /// a line break before `"previewUrl"`, as in the byte-exact recorded responses.
  var iTunesRecord: String {
    guard case .object(let members) = self else { return compact }
    var out = "{"
    for (i, member) in members.enumerated() {
      if i > 0 { out += member.0 == "previewUrl" ? ", \n" : ", " }
      Self.writeString(member.0, to: &out)
      out += ":"
      member.1.write(to: &out, indent: nil, level: 0)
    }
    return out + "}"
  }

  private func write(to out: inout String, indent: Int?, level: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .number(let text): out += text
    case .string(let s): Self.writeString(s, to: &out)
    case .array(let items):
      guard !items.isEmpty else { return out += "[]" }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        Self.newline(&out, indent, level + 1)
        item.write(to: &out, indent: indent, level: level + 1)
      }
      Self.newline(&out, indent, level)
      out += "]"
    case .object(let members):
      guard !members.isEmpty else { return out += "{}" }
      out += "{"
      for (i, member) in members.enumerated() {
        if i > 0 { out += "," }
        Self.newline(&out, indent, level + 1)
        Self.writeString(member.0, to: &out)
        out += indent == nil ? ":" : ": "
        member.1.write(to: &out, indent: indent, level: level + 1)
      }
      Self.newline(&out, indent, level)
      out += "}"
    }
  }

  private static func newline(_ out: inout String, _ indent: Int?, _ level: Int) {
    guard let indent else { return }
    out += "\n" + String(repeating: " ", count: indent * level)
  }

  /// JSON string with the mandatory escapes; non-ASCII stays raw UTF-8, `/` unescaped.
  static func writeString(_ s: String, to out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
