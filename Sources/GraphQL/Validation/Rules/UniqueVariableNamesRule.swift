/// Unique variable names
///
/// An operation must not define two variables with the same name.
/// Spec §5.8.1 https://spec.graphql.org/September2025/#sec-Variable-Uniqueness
final class UniqueVariableNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "UniqueVariableNames") { UniqueVariableNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.operation]
    init(context: ValidationContext) { self.context = context }

    func enterOperation(_ operation: OperationDefinition) {
        let definitions = operation.variableDefinitions
        guard definitions.count > 1 else { return }
        var order: [String] = []
        var byName: [String: [Location]] = [:]
        for d in definitions {
            let name = d.variable.name
            if byName[name.value] == nil { order.append(name.value) }
            byName[name.value, default: []].append(name.loc)
        }
        for name in order {
            if let locations = byName[name], locations.count > 1 {
                context.report(
                    "UniqueVariableNames", "There can be only one variable named \"$\(name)\".", at: locations)
            }
        }
    }
}
