/// Unique input field names
///
/// An input object value must not give the same field twice.
/// Spec §5.6.3 https://spec.graphql.org/September2025/#sec-Input-Object-Field-Uniqueness
final class UniqueInputFieldNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "UniqueInputFieldNames") { UniqueInputFieldNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.value, .leaveValue, .objectField]
    private var stack: [[String: Name]] = []
    private var known: [String: Name] = [:]
    init(context: ValidationContext) { self.context = context }

    func enterValue(_ value: Value) {
        guard case .object = value else { return }
        stack.append(known)
        known = [:]
    }

    func leaveValue(_ value: Value) {
        guard case .object = value else { return }
        known = stack.popLast() ?? [:]
    }

    func enterObjectField(_ field: ObjectField) {
        if let first = known[field.name.value] {
            context.report(
                "UniqueInputFieldNames", "There can be only one input field named \"\(field.name.value)\".",
                at: [first.loc, field.name.loc])
        } else {
            known[field.name.value] = field.name
        }
    }
}
