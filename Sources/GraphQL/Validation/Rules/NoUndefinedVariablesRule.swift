/// No undefined variables
///
/// Every variable used in an operation, directly or in a fragment it spreads, must be
/// defined by that operation.
/// Spec §5.8.3 https://spec.graphql.org/September2025/#sec-All-Variable-Uses-Defined
final class NoUndefinedVariablesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "NoUndefinedVariables") { NoUndefinedVariablesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.leaveOperation]
    init(context: ValidationContext) { self.context = context }

    func leaveOperation(_ operation: OperationDefinition) {
        let index = context.currentOperationIndex
        let context = self.context
        context.deferUntilFragmentsWalked {
            let defined = Set(operation.variableDefinitions.map { $0.variable.name.value })
            for usage in context.recursiveVariableUsages(ofOperation: index, rule: "NoUndefinedVariables") {
                let name = usage.variable.name.value
                guard !defined.contains(name) else { continue }
                let message =
                    operation.name.map { "Variable \"$\(name)\" is not defined by operation \"\($0.value)\"." }
                    ?? "Variable \"$\(name)\" is not defined."
                context.report("NoUndefinedVariables", message, at: [usage.variable.loc, operation.loc])
            }
        }
    }
}
