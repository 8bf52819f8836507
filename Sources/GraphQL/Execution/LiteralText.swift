// Value literals as graphql-js `print()` writes them, for error messages and for
// introspection's `defaultValue` (spec §4.2.6: "a String encoding (using the GraphQL
// language) of the default value").

/// `value` printed in the canonical literal form: `"text"` (escaped like graphql-js's
/// `printString`), `[1, 2]`, `{a: 1, b: "x"}`, `$name`, enum names bare.
func printLiteral(_ value: Value) -> String {
  switch value {
  case .variable(let v): return "$" + v.name.value
  case .int(let v): return v.value
  case .float(let v): return v.value
  case .string(let v): return quotedGraphQLString(v.value)
  case .boolean(let v): return v.value ? "true" : "false"
  case .null: return "null"
  case .enumValue(let v): return v.value
  case .list(let list): return "[" + list.values.map(printLiteral).joined(separator: ", ") + "]"
  case .object(let object):
    return "{" + object.fields.map { $0.name.value + ": " + printLiteral($0.value) }.joined(separator: ", ") + "}"
  }
}

/// A GraphQL string literal for `text`: `"` and `\` escaped, C0 and C1 controls (and DEL)
/// as `\n`-style or `\u00XX` escapes, uppercase hex as graphql-js writes them.
func quotedGraphQLString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar.value {
    case 0x22: out += "\\\""
    case 0x5C: out += "\\\\"
    case 0x08: out += "\\b"
    case 0x09: out += "\\t"
    case 0x0A: out += "\\n"
    case 0x0C: out += "\\f"
    case 0x0D: out += "\\r"
    case 0x00...0x1F, 0x7F...0x9F:
      let hex = String(scalar.value, radix: 16, uppercase: true)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

/// graphql-js `astFromValue`: the literal for an internal (coerced) input value of `type`,
/// nil when there is none (`undefined`, or null in a non-null position). Numbers print as
/// JavaScript prints them, and an integral number becomes an IntValue (`1.0` → `1`); an ID
/// that looks like an integer prints unquoted. Custom scalar values that are JSON objects
/// or lists print as object/list literals.
func astFromValue(_ value: JSONValue, type: TypeReference, schema: Schema) -> Value? {
  switch type {
  case .nonNull(let inner):
    let node = astFromValue(value, type: inner, schema: schema)
    if case .null? = node { return nil }
    return node
  case .list(let itemType):
    if value == .null { return .null(NullValue()) }
    if case .array(let items) = value {
      return .list(ListValue(values: items.compactMap { astFromValue($0, type: itemType, schema: schema) }))
    }
    return astFromValue(value, type: itemType, schema: schema)
  case .named(let name):
    if value == .null { return .null(NullValue()) }
    switch schema.types[name] {
    case .inputObject(let inputType)?:
      guard case .object(let object) = value else { return nil }
      var fields: [ObjectField] = []
      for field in inputType.fields {
        guard let fieldValue = object[field.name], let node = astFromValue(fieldValue, type: field.type, schema: schema)
        else { continue }
        fields.append(ObjectField(name: Name(field.name), value: node))
      }
      return .object(ObjectValue(fields: fields))
    case .enumType?:
      guard case .string(let s) = value else { return nil }
      return .enumValue(EnumValue(value: s))
    case .scalar?:
      return scalarLiteral(value, isID: name == "ID")
    default:
      return nil
    }
  }
}

private func scalarLiteral(_ value: JSONValue, isID: Bool) -> Value? {
  switch value {
  case .null: return .null(NullValue())
  case .bool(let b): return .boolean(BooleanValue(value: b))
  case .int(let i): return .int(IntValue(value: String(i)))
  case .double(let d):
    guard d.isFinite else { return nil }
    let text = JSNumber.string(d)
    return isIntegerText(text) ? .int(IntValue(value: text)) : .float(FloatValue(value: text))
  case .string(let s):
    return isID && isIntegerText(s) ? .int(IntValue(value: s)) : .string(StringValue(value: s))
  case .array(let items): return .list(ListValue(values: items.compactMap { scalarLiteral($0, isID: false) }))
  case .object(let object):
    return .object(
      ObjectValue(
        fields: object.entries.compactMap { entry in
          scalarLiteral(entry.value, isID: false).map { ObjectField(name: Name(entry.key), value: $0) }
        }))
  }
}

/// `/^-?(?:0|[1-9][0-9]*)$/`
private func isIntegerText(_ text: String) -> Bool {
  var bytes = Substring(text).utf8[...]
  if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
  guard let first = bytes.first, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
  return first != UInt8(ascii: "0") || bytes.count == 1
}
