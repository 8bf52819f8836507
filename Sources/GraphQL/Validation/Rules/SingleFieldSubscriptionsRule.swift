/// Single field subscriptions
///
/// A subscription operation must select exactly one root field (after applying literal
/// `@skip`/`@include` and following fragments, as CollectFields does), and that field
/// must not be an introspection field.
/// Spec §5.2.3.1 https://spec.graphql.org/September2025/#sec-Single-Root-Field
final class SingleFieldSubscriptionsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "SingleFieldSubscriptions") { SingleFieldSubscriptionsRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.operation]
    init(context: ValidationContext) { self.context = context }

    func enterOperation(_ operation: OperationDefinition) {
        guard operation.operation == .subscription, let root = context.schema.subscriptionType else { return }
        var order: [String] = []
        var groups: [String: [Field]] = [:]
        var visited = Set<String>()
        collectFields(root, operation.selectionSet, &order, &groups, &visited)
        let subject = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
        if order.count > 1 {
            let extra = order.dropFirst().flatMap { groups[$0] ?? [] }
            context.report(
                "SingleFieldSubscriptions", "\(subject) must select only one top level field.", at: extra.map(\.loc))
        }
        for key in order {
            guard let fields = groups[key], let first = fields.first, first.name.value.hasPrefix("__") else { continue }
            context.report(
                "SingleFieldSubscriptions", "\(subject) must not select an introspection top level field.",
                at: fields.map(\.loc))
        }
    }

    /// CollectFields (spec §6.3.2) with no variable values: a `@skip`/`@include` whose
    /// condition is a variable leaves the selection in (graphql-js throws there instead).
    private func collectFields(
        _ type: String, _ selectionSet: SelectionSet, _ order: inout [String], _ groups: inout [String: [Field]],
        _ visited: inout Set<String>
    ) {
        for selection in selectionSet.selections {
            guard shouldInclude(selection.directives) else { continue }
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(field)
            case .inlineFragment(let fragment):
                if let condition = fragment.typeCondition, !conditionMatches(condition.name.value, type) { continue }
                collectFields(type, fragment.selectionSet, &order, &groups, &visited)
            case .fragmentSpread(let spread):
                guard visited.insert(spread.name.value).inserted,
                    let fragment = context.fragment(named: spread.name.value),
                    conditionMatches(fragment.typeCondition.name.value, type)
                else { continue }
                collectFields(type, fragment.selectionSet, &order, &groups, &visited)
            }
        }
    }

    private func conditionMatches(_ condition: String, _ type: String) -> Bool {
        if condition == type { return true }
        guard let conditionType = context.schema.types[condition], conditionType.isAbstractType else { return false }
        return context.schema.isSubType(condition, type)
    }

    private func shouldInclude(_ directives: [Directive]) -> Bool {
        for directive in directives {
            let name = directive.name.value
            guard name == "skip" || name == "include" else { continue }
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }),
                case .boolean(let condition) = argument.value
            else { continue }
            if name == "skip" && condition.value { return false }
            if name == "include" && !condition.value { return false }
        }
        return true
    }
}
