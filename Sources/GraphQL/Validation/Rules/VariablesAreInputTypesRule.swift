/// Variables are input types
///
/// A variable's type must be an input type (scalar, enum or input object, possibly
/// wrapped in lists and non-null).
/// Spec §5.8.2 https://spec.graphql.org/September2025/#sec-Variables-Are-Input-Types
final class VariablesAreInputTypesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "VariablesAreInputTypes") { VariablesAreInputTypesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.variableDefinition]
    init(context: ValidationContext) { self.context = context }

    func enterVariableDefinition(_ definition: VariableDefinition) {
        guard let type = context.schema.typeReference(from: definition.type), !context.schema.isInputType(type) else {
            return
        }
        context.report(
            "VariablesAreInputTypes",
            "Variable \"$\(definition.variable.name.value)\" cannot be non-input type \"\(print(definition.type))\".",
            at: [definition.type.loc])
    }
}
