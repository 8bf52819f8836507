/// Variables in allowed position
///
/// A variable may be used only where its type fits the expected type: the same type, or
/// a non-null or more specific one; a nullable variable may go to a non-null position
/// only when the variable or the position has a default. A variable used as a field of a
/// `@oneOf` input object must be non-null.
/// Spec §5.8.5 https://spec.graphql.org/September2025/#sec-All-Variable-Usages-Are-Allowed
final class VariablesInAllowedPositionRule: ValidationVisitor {
    static let rule = ValidationRule(name: "VariablesInAllowedPosition") { VariablesInAllowedPositionRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.leaveOperation]
    init(context: ValidationContext) { self.context = context }

    func leaveOperation(_ operation: OperationDefinition) {
        let index = context.currentOperationIndex
        let context = self.context
        context.deferUntilFragmentsWalked {
            var definitions: [String: VariableDefinition] = [:]
            for d in operation.variableDefinitions { definitions[d.variable.name.value] = d }
            let schema = context.schema
            for usage in context.recursiveVariableUsages(ofOperation: index, rule: "VariablesInAllowedPosition") {
                let name = usage.variable.name.value
                guard let definition = definitions[name], let locationType = usage.type,
                    let variableType = schema.typeReference(from: definition.type)
                else { continue }
                if !VariablesInAllowedPositionRule.isAllowed(
                    schema, variableType, definition.defaultValue, locationType, usage.hasDefaultValue)
                {
                    context.report(
                        "VariablesInAllowedPosition",
                        "Variable \"$\(name)\" of type \"\(variableType)\" used in position expecting type \"\(locationType)\".",
                        at: [definition.loc, usage.variable.loc])
                }
                // The parent type is compared as recorded: under a non-null wrapper it is no
                // input object, as in graphql-js.
                if case .named(let parentName) = usage.parentType,
                    case .inputObject(let parent) = schema.types[parentName],
                    parent.isOneOf, !variableType.isNonNull
                {
                    context.report(
                        "VariablesInAllowedPosition",
                        "Variable \"$\(name)\" is of type \"\(variableType)\" but must be non-nullable to be used for OneOf Input Object \"\(parentName)\".",
                        at: [definition.loc, usage.variable.loc])
                }
            }
        }
    }

    /// graphql-js `allowedVariableUsage`: a nullable variable fits a non-null position when
    /// the variable has a non-null default or the position has a default.
    static func isAllowed(
        _ schema: Schema, _ variableType: TypeReference, _ variableDefault: Value?, _ locationType: TypeReference,
        _ locationHasDefault: Bool
    ) -> Bool {
        if case .nonNull(let inner) = locationType, !variableType.isNonNull {
            var hasNonNullVariableDefault = false
            if let variableDefault {
                if case .null = variableDefault {} else { hasNonNullVariableDefault = true }
            }
            guard hasNonNullVariableDefault || locationHasDefault else { return false }
            return schema.isTypeSubTypeOf(variableType, inner)
        }
        return schema.isTypeSubTypeOf(variableType, locationType)
    }
}
