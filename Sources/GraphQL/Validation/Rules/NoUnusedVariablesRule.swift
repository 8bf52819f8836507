/// No unused variables
///
/// Every variable an operation defines must be used in it, directly or in a fragment it
/// spreads.
/// Spec §5.8.4 https://spec.graphql.org/September2025/#sec-All-Variables-Used
final class NoUnusedVariablesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "NoUnusedVariables") { NoUnusedVariablesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.leaveOperation]
    init(context: ValidationContext) { self.context = context }

    func leaveOperation(_ operation: OperationDefinition) {
        guard !operation.variableDefinitions.isEmpty else { return }
        let index = context.currentOperationIndex
        let context = self.context
        context.deferUntilFragmentsWalked {
            let used = Set(
                context.recursiveVariableUsages(ofOperation: index, rule: "NoUnusedVariables").map {
                    $0.variable.name.value
                })
            for definition in operation.variableDefinitions where !used.contains(definition.variable.name.value) {
                let name = definition.variable.name.value
                let message =
                    operation.name.map { "Variable \"$\(name)\" is never used in operation \"\($0.value)\"." }
                    ?? "Variable \"$\(name)\" is never used."
                context.report("NoUnusedVariables", message, at: [definition.loc])
            }
        }
    }
}
