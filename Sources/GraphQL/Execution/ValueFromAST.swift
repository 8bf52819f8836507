/// Coerces a literal from the document to an input type: graphql-js `valueFromAST`, the
/// literal half of spec §3.5/§3.10 Input Coercion as used by CoerceArgumentValues (§6.4.1)
/// and variable/argument defaults.
///
/// Returns nil for "no value" — an invalid literal, or a variable that has no runtime value
/// (graphql-js's `undefined`); `.null` is an explicit null. Input objects come out with
/// their fields in definition order, defaults filled in; enums as their value names.
func valueFromAST(_ node: Value, type: TypeReference, schema: Schema, variables: JSONObject?) -> JSONValue? {
    if case .variable(let variable) = node {
        guard let value = variables?[variable.name.value] else { return nil }
        if case .null = value, type.isNonNull { return nil }
        return value
    }
    switch type {
    case .nonNull(let inner):
        if case .null = node { return nil }
        return valueFromAST(node, type: inner, schema: schema, variables: variables)
    case .list(let itemType):
        if case .null = node { return .null }
        guard case .list(let list) = node else {
            // A single value where a list is expected is a list of one (§3.11 Input Coercion).
            return valueFromAST(node, type: itemType, schema: schema, variables: variables).map { .array([$0]) }
        }
        var items: [JSONValue] = []
        items.reserveCapacity(list.values.count)
        for itemNode in list.values {
            if isMissingVariable(itemNode, variables) {
                if itemType.isNonNull { return nil }
                items.append(.null)
            } else {
                guard let item = valueFromAST(itemNode, type: itemType, schema: schema, variables: variables) else {
                    return nil
                }
                items.append(item)
            }
        }
        return .array(items)
    case .named(let name):
        if case .null = node { return .null }
        switch schema.types[name] {
        case .inputObject(let inputType)?:
            guard case .object(let object) = node else { return nil }
            var result = JSONObject()
            for field in inputType.fields {
                guard let fieldNode = object.fields.first(where: { $0.name.value == field.name }),
                    !isMissingVariable(fieldNode.value, variables)
                else {
                    if let defaultLiteral = field.defaultValue,
                        let defaultValue = valueFromAST(
                            defaultLiteral, type: field.type, schema: schema, variables: nil)
                    {
                        result[field.name] = defaultValue
                    } else if field.type.isNonNull {
                        return nil
                    }
                    continue
                }
                guard let value = valueFromAST(fieldNode.value, type: field.type, schema: schema, variables: variables)
                else { return nil }
                result[field.name] = value
            }
            if inputType.isOneOf {
                guard result.count == 1, result.entries[0].value != .null else { return nil }
            }
            return .object(result)
        case .enumType(let enumType)?:
            guard case .enumValue(let literal) = node, enumType.value(literal.value) != nil else { return nil }
            return .string(literal.value)
        case .scalar(let scalar)?:
            return scalarFromLiteral(node, scalar: scalar.name, variables: variables)
        default:
            return nil
        }
    }
}

private func isMissingVariable(_ node: Value, _ variables: JSONObject?) -> Bool {
    if case .variable(let v) = node { return variables?[v.name.value] == nil }
    return false
}

/// A built-in scalar's `parseLiteral` (§3.5.1–§3.5.5 Input Coercion); custom scalars take
/// any literal as JSON (graphql-js `valueFromASTUntyped`). Nil when the literal is invalid.
private func scalarFromLiteral(_ node: Value, scalar: String, variables: JSONObject?) -> JSONValue? {
    switch scalar {
    case "Int":
        guard case .int(let literal) = node, let value = Int(literal.value), isInt32(value) else { return nil }
        return .int(value)
    case "Float":
        switch node {
        case .int(let literal): return Double(literal.value).map(JSONValue.double)
        case .float(let literal):
            guard let value = Double(literal.value), value.isFinite else { return nil }
            return .double(value)
        default: return nil
        }
    case "String":
        guard case .string(let literal) = node else { return nil }
        return .string(literal.value)
    case "Boolean":
        guard case .boolean(let literal) = node else { return nil }
        return .bool(literal.value)
    case "ID":
        switch node {
        case .string(let literal): return .string(literal.value)
        case .int(let literal): return .string(literal.value)
        default: return nil
        }
    default:
        return valueFromASTUntyped(node, variables: variables)
    }
}

/// A literal as plain JSON, whatever its type (graphql-js `valueFromASTUntyped`); variables
/// are substituted, and object fields whose variable has no value are left out.
func valueFromASTUntyped(_ node: Value, variables: JSONObject?) -> JSONValue? {
    switch node {
    case .null: return .null
    case .int(let v): return Int(v.value).map(JSONValue.int) ?? Double(v.value).map(JSONValue.double)
    case .float(let v): return Double(v.value).map(JSONValue.double)
    case .string(let v): return .string(v.value)
    case .boolean(let v): return .bool(v.value)
    case .enumValue(let v): return .string(v.value)
    case .list(let list): return .array(list.values.map { valueFromASTUntyped($0, variables: variables) ?? .null })
    case .object(let object):
        var result = JSONObject()
        for field in object.fields {
            if let value = valueFromASTUntyped(field.value, variables: variables) { result[field.name.value] = value }
        }
        return .object(result)
    case .variable(let v): return variables?[v.name.value]
    }
}

func isInt32(_ value: Int) -> Bool { value >= Int(Int32.min) && value <= Int(Int32.max) }
