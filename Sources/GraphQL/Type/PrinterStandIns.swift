// TEMPORARY stand-ins for the printer's `print(_ value: Value)`, `printString` and
// `printBlockString` (branch `printer`), until the printer is on main: then these three
// functions call the printer's and their bodies go.

/// `printBlockString(value)`.
func sdlPrintBlockString(_ value: String) -> String {
  "\"\"\"\n" + value + "\n\"\"\""
}

/// `printString(value)`.
func sdlPrintString(_ value: String) -> String {
  sdlPrintValue(.string(StringValue(value: value)))
}

/// `print(value)`: a value literal in GraphQL syntax, e.g. `{a: [1, "x"]}`.
func sdlPrintValue(_ value: Value) -> String {
  switch value {
  case .variable(let v): return "$" + v.name.value
  case .int(let i): return i.value
  case .float(let f): return f.value
  case .string(let s):
    var out = "\""
    for scalar in s.value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  case .boolean(let b): return b.value ? "true" : "false"
  case .null: return "null"
  case .enumValue(let e): return e.value
  case .list(let l): return "[" + l.values.map(sdlPrintValue).joined(separator: ", ") + "]"
  case .object(let o):
    return "{" + o.fields.map { $0.name.value + ": " + sdlPrintValue($0.value) }.joined(separator: ", ") + "}"
  }
}
