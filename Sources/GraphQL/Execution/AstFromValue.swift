// Introspection's `defaultValue` (spec §4.2.6: "a String encoding (using the GraphQL
// language) of the default value") is the printed literal of the *coerced* default.

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
