/// Result coercion of a leaf value (spec §3.5 "Result Coercion" per built-in scalar,
/// §3.9 for enums), with graphql-js 16's rules for the JSON types it meets:
/// - Int: integers in 32-bit range; an integral float (`1.0`); `true`/`false` as 1/0; a
///   numeric string (JavaScript `Number()` rules); else `Int cannot represent non-integer
///   value: …` or `… non 32-bit signed integer value: …`.
/// - Float: finite numbers, booleans as 1/0, numeric strings; else `Float cannot
///   represent non numeric value: …`.
/// - String: strings, booleans as `"true"`/`"false"`, numbers as JavaScript prints them;
///   else `String cannot represent value: …`.
/// - Boolean: booleans, numbers (non-zero is true); else `Boolean cannot represent a non
///   boolean value: …`.
/// - ID: strings, integral numbers as their digits; else `ID cannot represent value: …`.
/// - Enums: a string naming one of the values; else `Enum "E" cannot represent value: …`.
/// - Custom scalars: the JSON value unchanged.
func serializeLeaf(_ value: FieldValue, _ kind: LeafKind) -> Result<JSONValue, CoercionMessage> {
    guard let json = jsonForm(value) else {
        return .failure(CoercionMessage("\(kind.typeName) cannot represent value: \(String(describing: value))"))
    }
    switch kind {
    case .string:
        switch json {
        case .string: return .success(json)
        case .bool(let b): return .success(.string(b ? "true" : "false"))
        case .int(let i): return .success(.string(String(i)))
        case .double(let d) where d.isFinite: return .success(.string(JSNumber.string(d)))
        default: return .failure(CoercionMessage("String cannot represent value: \(inspect(json))"))
        }
    case .int:
        let number: Double
        switch json {
        case .int(let i):
            if isInt32(i) { return .success(json) }
            return .failure(CoercionMessage("Int cannot represent non 32-bit signed integer value: \(inspect(json))"))
        case .bool(let b): return .success(.int(b ? 1 : 0))
        case .double(let d): number = d
        case .string(let s) where !s.isEmpty:
            guard let parsed = JSNumber.parse(s) else {
                return .failure(CoercionMessage("Int cannot represent non-integer value: \(inspect(json))"))
            }
            number = parsed
        default: return .failure(CoercionMessage("Int cannot represent non-integer value: \(inspect(json))"))
        }
        guard number.isFinite, number.rounded() == number else {
            return .failure(CoercionMessage("Int cannot represent non-integer value: \(inspect(json))"))
        }
        guard number >= Double(Int32.min) && number <= Double(Int32.max) else {
            return .failure(CoercionMessage("Int cannot represent non 32-bit signed integer value: \(inspect(json))"))
        }
        return .success(.int(Int(number)))
    case .float:
        switch json {
        case .int: return .success(json)
        case .double(let d) where d.isFinite: return .success(json)
        case .bool(let b): return .success(.int(b ? 1 : 0))
        case .string(let s) where !s.isEmpty:
            if let parsed = JSNumber.parse(s), parsed.isFinite { return .success(.double(parsed)) }
            return .failure(CoercionMessage("Float cannot represent non numeric value: \(inspect(json))"))
        default: return .failure(CoercionMessage("Float cannot represent non numeric value: \(inspect(json))"))
        }
    case .boolean:
        switch json {
        case .bool: return .success(json)
        case .int(let i): return .success(.bool(i != 0))
        case .double(let d) where d.isFinite: return .success(.bool(d != 0))
        default: return .failure(CoercionMessage("Boolean cannot represent a non boolean value: \(inspect(json))"))
        }
    case .id:
        switch json {
        case .string: return .success(json)
        case .int(let i): return .success(.string(String(i)))
        case .double(let d) where d.isFinite && d.rounded() == d: return .success(.string(JSNumber.string(d)))
        default: return .failure(CoercionMessage("ID cannot represent value: \(inspect(json))"))
        }
    case .enumType(let values):
        if case .string(let name) = json, values.names.contains(name) { return .success(json) }
        return .failure(CoercionMessage("Enum \"\(values.typeName)\" cannot represent value: \(inspect(json))"))
    case .custom:
        return .success(json)
    }
}

/// The JSON form of a resolved value; nil when it holds an application (`.host`) value or one
/// not known yet.
func jsonForm(_ value: FieldValue) -> JSONValue? {
    switch value {
    case .json(let json): return json
    case .list(let items):
        var array: [JSONValue] = []
        array.reserveCapacity(items.count)
        for item in items {
            guard let json = jsonForm(item) else { return nil }
            array.append(json)
        }
        return .array(array)
    case .hostBox, .object, .pending: return nil
    }
}

extension LeafKind {
    var typeName: String {
        switch self {
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .id: "ID"
        case .custom(let name): name
        case .enumType(let values): "Enum \"\(values.typeName)\""
        }
    }
}
