// Text of AST values and type nodes for error messages.

/// A value as graphql-js `print` writes it, for messages such as
/// `Int cannot represent non-integer value: "big"`.
func printValueForMessage(_ value: Value) -> String {
  switch value {
  case .variable(let v): "$" + v.name.value
  case .int(let v): v.value
  case .float(let v): v.value
  case .string(let v): quotedString(v.value)
  case .boolean(let v): v.value ? "true" : "false"
  case .null: "null"
  case .enumValue(let v): v.value
  case .list(let l): "[" + l.values.map(printValueForMessage).joined(separator: ", ") + "]"
  case .object(let o):
    o.fields.isEmpty
      ? "{}" : "{ " + o.fields.map { $0.name.value + ": " + printValueForMessage($0.value) }.joined(separator: ", ") + " }"
  }
}

/// A string literal in GraphQL syntax, escaping quotes, backslashes and control characters.
private func quotedString(_ s: String) -> String {
  var out = "\""
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
      if scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}

/// A type node in SDL form, e.g. `[ID!]!`.
func printTypeNode(_ type: TypeNode) -> String {
  switch type {
  case .named(let n): n.name.value
  case .list(let l): "[" + printTypeNode(l.type) + "]"
  case .nonNull(let n): printTypeNode(n.type) + "!"
  }
}
