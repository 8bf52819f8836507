/// Input coercion of a runtime JSON value (a variable's value) to an input type: spec
/// §3.5 / §3.9 / §3.10 / §3.11 / §3.12 "Input Coercion", as graphql-js `coerceInputValue`.
///
/// Shapes: Int → `.int` (a JSON number with an integral value in 32-bit range, so `3.0` is
/// an Int as in JavaScript), Float → `.double` (finite), String/Boolean unchanged, ID → a
/// string (from a string or an integral number), enum → its value name, input object → a
/// JSON object in field definition order with defaults filled in, list → an array (a
/// single value becomes a list of one); custom scalars pass the JSON through.
///
/// Every problem is reported to `onError` with the path inside the value (`["kinds", 1]`),
/// the offending value, and graphql-js's message; coercion continues so that all problems
/// are reported.
struct InputCoercion {
    let schema: Schema
    let onError: ([PathComponent], JSONValue, String) -> Void

    func coerce(_ value: JSONValue, to type: TypeReference, path: [PathComponent] = []) -> JSONValue {
        switch type {
        case .nonNull(let inner):
            if value != .null { return coerce(value, to: inner, path: path) }
            onError(path, value, "Expected non-nullable type \"\(type)\" not to be null.")
            return .null
        case .list(let itemType):
            if value == .null { return .null }
            if case .array(let items) = value {
                return .array(items.enumerated().map { coerce($1, to: itemType, path: path + [.index($0)]) })
            }
            return .array([coerce(value, to: itemType, path: path)])
        case .named(let name):
            if value == .null { return .null }
            switch schema.types[name] {
            case .inputObject(let inputType)?: return coerceInputObject(value, inputType, path: path)
            case .enumType(let enumType)?: return coerceEnum(value, enumType, path: path)
            case .scalar?:
                switch parseScalarValue(value, scalar: name) {
                case .success(let v): return v
                case .failure(let message):
                    onError(path, value, message.text)
                    return .null
                }
            default:
                onError(path, value, "Expected type \"\(name)\" to be an input type.")
                return .null
            }
        }
    }

    private func coerceInputObject(_ value: JSONValue, _ type: InputObjectType, path: [PathComponent]) -> JSONValue {
        guard case .object(let object) = value else {
            onError(path, value, "Expected type \"\(type.name)\" to be an object.")
            return .null
        }
        var result = JSONObject()
        for field in type.fields {
            guard let fieldValue = object[field.name] else {
                if let defaultValue = coercedDefault(field, schema: schema) {
                    result[field.name] = defaultValue
                } else if field.type.isNonNull {
                    onError(path, value, "Field \"\(field.name)\" of required type \"\(field.type)\" was not provided.")
                }
                continue
            }
            result[field.name] = coerce(fieldValue, to: field.type, path: path + [.key(field.name)])
        }
        for key in object.keys where type.field(key) == nil {
            onError(
                path, value,
                "Field \"\(key)\" is not defined by type \"\(type.name)\"."
                    + Suggestions.didYouMean(Suggestions.list(key, type.fields.map(\.name))))
        }
        if type.isOneOf {
            if result.count != 1 {
                onError(path, value, "Exactly one key must be specified for OneOf type \"\(type.name)\".")
            } else if result.entries[0].value == .null {
                let key = result.entries[0].key
                onError(path + [.key(key)], .null, "Field \"\(key)\" must be non-null.")
            }
        }
        return .object(result)
    }

    private func coerceEnum(_ value: JSONValue, _ type: EnumType, path: [PathComponent]) -> JSONValue {
        let names = type.values.map(\.name)
        guard case .string(let name) = value else {
            let shown = inspect(value)
            onError(
                path, value,
                "Enum \"\(type.name)\" cannot represent non-string value: \(shown)."
                    + Suggestions.didYouMean(Suggestions.list(shown, names), subMessage: "the enum value"))
            return .null
        }
        guard type.value(name) != nil else {
            onError(
                path, value,
                "Value \"\(name)\" does not exist in \"\(type.name)\" enum."
                    + Suggestions.didYouMean(Suggestions.list(name, names), subMessage: "the enum value"))
            return .null
        }
        return value
    }
}

/// A coercion failure's message (graphql-js's `GraphQLError` message text).
struct CoercionMessage: Error, Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}

/// A built-in scalar's `parseValue` (§3.5.1–§3.5.5 Input Coercion) on a JSON value;
/// custom scalars accept any JSON.
func parseScalarValue(_ value: JSONValue, scalar: String) -> Result<JSONValue, CoercionMessage> {
    switch scalar {
    case "Int":
        let integer: Int?
        switch value {
        case .int(let i): integer = i
        case .double(let d) where d.rounded() == d && d.isFinite:
            guard d >= Double(Int32.min) && d <= Double(Int32.max) else {
                return .failure(
                    CoercionMessage("Int cannot represent non 32-bit signed integer value: \(inspect(value))"))
            }
            integer = Int(d)
        default: integer = nil
        }
        guard let integer else {
            return .failure(CoercionMessage("Int cannot represent non-integer value: \(inspect(value))"))
        }
        guard isInt32(integer) else {
            return .failure(CoercionMessage("Int cannot represent non 32-bit signed integer value: \(inspect(value))"))
        }
        return .success(.int(integer))
    case "Float":
        switch value {
        case .int(let i): return .success(.double(Double(i)))
        case .double(let d) where d.isFinite: return .success(.double(d))
        default: return .failure(CoercionMessage("Float cannot represent non numeric value: \(inspect(value))"))
        }
    case "String":
        guard case .string = value else {
            return .failure(CoercionMessage("String cannot represent a non string value: \(inspect(value))"))
        }
        return .success(value)
    case "Boolean":
        guard case .bool = value else {
            return .failure(CoercionMessage("Boolean cannot represent a non boolean value: \(inspect(value))"))
        }
        return .success(value)
    case "ID":
        switch value {
        case .string: return .success(value)
        case .int(let i): return .success(.string(String(i)))
        case .double(let d) where d.isFinite && d.rounded() == d: return .success(.string(JSNumber.string(d)))
        default: return .failure(CoercionMessage("ID cannot represent value: \(inspect(value))"))
        }
    default:
        return .success(value)
    }
}
