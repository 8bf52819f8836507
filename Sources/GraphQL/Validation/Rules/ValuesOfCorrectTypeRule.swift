/// Values of correct type
///
/// Every literal value must be coercible to the type expected where it stands: scalars
/// and enums by their input coercion rules (§3.5, §3.9), lists item by item, input
/// objects with only known fields, every required field given, and, for `@oneOf` input
/// objects, exactly one non-null field.
/// Spec §5.6.1 https://spec.graphql.org/September2025/#sec-Values-of-Correct-Type
final class ValuesOfCorrectTypeRule: ValidationVisitor {
    static let rule = ValidationRule(name: "ValuesOfCorrectType") { ValuesOfCorrectTypeRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.value, .leaveValue, .objectField]
    /// graphql-js stops descending into a list or object value once it has judged it as a
    /// whole (wrong kind of value for the type); this counts the open list and object
    /// values of such a skipped subtree.
    private var skipDepth = 0
    init(context: ValidationContext) { self.context = context }

    func enterValue(_ value: Value) {
        if skipDepth > 0 {
            switch value {
            case .list, .object: skipDepth += 1
            default: break
            }
            return
        }
        let info = context.typeInfo
        switch value {
        case .list:
            // The walker has already stepped into the item type; the list's own type is the parent.
            if case .list = info.parentInputType?.nullable {
                return
            }
            checkLeafValue(value)
            skipDepth = 1
        case .object(let object):
            guard let named = info.inputType?.namedType, case .inputObject(let type) = context.schema.types[named]
            else {
                checkLeafValue(value)
                skipDepth = 1
                return
            }
            checkInputObject(object, type)
        case .null(let null):
            if let type = info.inputType, type.isNonNull {
                context.report("ValuesOfCorrectType", "Expected value of type \"\(type)\", found null.", at: [null.loc])
            }
        case .variable:
            break
        default:
            checkLeafValue(value)
        }
    }

    func leaveValue(_ value: Value) {
        if skipDepth > 0 { skipDepth -= 1 }
    }

    func enterObjectField(_ field: ObjectField) {
        guard skipDepth == 0, context.typeInfo.inputType == nil,
            let parentName = context.typeInfo.parentInputType?.namedType,
            case .inputObject(let parent) = context.schema.types[parentName]
        else { return }
        let name = field.name.value
        context.report(
            "ValuesOfCorrectType",
            "Field \"\(name)\" is not defined by type \"\(parent.name)\"."
                + Suggestions.didYouMean(Suggestions.list(name, parent.fields.map(\.name))), at: [field.loc])
    }

    private func checkInputObject(_ object: ObjectValue, _ type: InputObjectType) {
        for field in type.fields where field.type.isNonNull && field.defaultValue == nil {
            guard !object.fields.contains(where: { $0.name.value == field.name }) else { continue }
            context.report(
                "ValuesOfCorrectType",
                "Field \"\(type.name).\(field.name)\" of required type \"\(field.type)\" was not provided.",
                at: [object.loc])
        }
        guard type.isOneOf else { return }
        var keys: [String] = []
        var lastValue: [String: Value] = [:]
        for field in object.fields {
            if lastValue[field.name.value] == nil { keys.append(field.name.value) }
            lastValue[field.name.value] = field.value
        }
        if keys.count != 1 {
            context.report(
                "ValuesOfCorrectType", "OneOf Input Object \"\(type.name)\" must specify exactly one key.",
                at: [object.loc])
            return
        }
        if case .null = lastValue[keys[0]] {
            context.report(
                "ValuesOfCorrectType", "Field \"\(type.name).\(keys[0])\" must be non-null.", at: [object.loc])
        }
    }

    /// graphql-js `isValidValueNode`: the value against the expected type as a whole.
    private func checkLeafValue(_ value: Value) {
        guard let locationType = context.typeInfo.inputType, let named = context.schema.types[locationType.namedType]
        else {
            return
        }
        guard named.isLeafType else {
            context.report(
                "ValuesOfCorrectType",
                "Expected value of type \"\(locationType)\", found \(print(value)).", at: [value.loc])
            return
        }
        if let message = literalError(value, for: named) {
            context.report("ValuesOfCorrectType", message, at: [value.loc])
        }
    }
}
