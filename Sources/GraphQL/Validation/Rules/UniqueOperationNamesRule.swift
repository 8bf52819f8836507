/// Unique operation names
///
/// Each named operation in a document must have a name no other operation has.
/// Spec §5.2.1.1 https://spec.graphql.org/September2025/#sec-Operation-Name-Uniqueness
final class UniqueOperationNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "UniqueOperationNames") { UniqueOperationNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.operation]
    private var known: [String: Name] = [:]
    init(context: ValidationContext) { self.context = context }

    func enterOperation(_ operation: OperationDefinition) {
        guard let name = operation.name else { return }
        if let first = known[name.value] {
            context.report(
                "UniqueOperationNames", "There can be only one operation named \"\(name.value)\".",
                at: [first.loc, name.loc])
        } else {
            known[name.value] = name
        }
    }
}
