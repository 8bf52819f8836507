// Whether a literal can be coerced to a leaf type: spec §3.5 "Input Coercion" of each
// built-in scalar and §3.9 of enums, as graphql-js 16 `parseLiteral` decides it.

/// The error message for a literal that the leaf type `type` cannot accept, or nil when
/// it can (ValuesOfCorrectType). Messages are graphql-js's: e.g. `Int cannot represent
/// non 32-bit signed integer value: 2147483648` (§3.5.1: Int is 32-bit),
/// `ID cannot represent a non-string and non-integer value: 1.0` (§3.5.5). Custom scalars
/// accept any literal (graphql-js `valueFromASTUntyped`). Variables are not checked here.
func literalError(_ value: Value, for type: GraphQLNamedType) -> String? {
    switch type {
    case .scalar(let scalar):
        switch scalar.name {
        case "Int":
            guard case .int(let i) = value else {
                return "Int cannot represent non-integer value: \(print(value))"
            }
            if let n = Int(i.value), n >= Int(Int32.min), n <= Int(Int32.max) { return nil }
            return "Int cannot represent non 32-bit signed integer value: \(i.value)"
        case "Float":
            switch value {
            case .int, .float: return nil
            default: return "Float cannot represent non numeric value: \(print(value))"
            }
        case "String":
            if case .string = value { return nil }
            return "String cannot represent a non string value: \(print(value))"
        case "Boolean":
            if case .boolean = value { return nil }
            return "Boolean cannot represent a non boolean value: \(print(value))"
        case "ID":
            switch value {
            case .string, .int: return nil
            default: return "ID cannot represent a non-string and non-integer value: \(print(value))"
            }
        default:
            return nil
        }
    case .enumType(let enumType):
        guard case .enumValue(let e) = value else {
            let text = print(value)
            return "Enum \"\(enumType.name)\" cannot represent non-enum value: \(text)."
                + didYouMeanEnumValue(enumType, text)
        }
        if enumType.value(e.value) != nil { return nil }
        return "Value \"\(e.value)\" does not exist in \"\(enumType.name)\" enum."
            + didYouMeanEnumValue(enumType, e.value)
    default:
        return nil
    }
}

/// graphql-js `isValidLiteralValue` for a leaf type: whether `value` coerces to `type`
/// (§3.5 scalars, §3.9 enums). Lists and input objects are checked field by field by
/// ValuesOfCorrectType as the walk reaches them.
func isValidLiteralValue(_ value: Value, for type: GraphQLNamedType) -> Bool {
    literalError(value, for: type) == nil
}

private func didYouMeanEnumValue(_ type: EnumType, _ text: String) -> String {
    Suggestions.didYouMean(Suggestions.list(text, type.values.map(\.name)), subMessage: "the enum value")
}
