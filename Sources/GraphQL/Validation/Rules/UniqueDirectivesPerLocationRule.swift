/// Unique directives per location
///
/// A non-repeatable directive may appear at most once on a node; on type system
/// definitions, a type's definition and its extensions count as one node (so do the
/// `schema` definition and its extensions).
/// Spec §5.7.3 https://spec.graphql.org/September2025/#sec-Directives-Are-Unique-per-Location
final class UniqueDirectivesPerLocationRule: ValidationVisitor {
    static let rule = ValidationRule(name: "UniqueDirectivesPerLocation") {
        UniqueDirectivesPerLocationRule(context: $0)
    }
    private let context: ValidationContext
    let events: ValidationEvents = [
        .operation, .field, .fragmentSpread, .inlineFragment, .fragmentDefinition, .variableDefinition, .directives,
    ]
    private var uniqueInDocument: [String: Bool]?
    private var seenByScope: [DirectiveScope: [String: Directive]] = [:]
    init(context: ValidationContext) { self.context = context }

    func enterOperation(_ operation: OperationDefinition) { check(operation.directives, scope: .node) }
    func enterField(_ field: Field) { check(field.directives, scope: .node) }
    func enterFragmentSpread(_ spread: FragmentSpread) { check(spread.directives, scope: .node) }
    func enterInlineFragment(_ fragment: InlineFragment) { check(fragment.directives, scope: .node) }
    func enterFragmentDefinition(_ fragment: FragmentDefinition) { check(fragment.directives, scope: .node) }
    func enterVariableDefinition(_ definition: VariableDefinition) { check(definition.directives, scope: .node) }
    func enterDirectives(_ directives: [Directive], scope: DirectiveScope) { check(directives, scope: scope) }

    /// Whether directive `name` may appear only once; nil for unknown directives.
    private func isUnique(_ name: String) -> Bool {
        if uniqueInDocument == nil {
            var map: [String: Bool] = [:]
            for d in context.directiveDefinitionsInDocument { map[d.name.value] = !d.repeatable }
            uniqueInDocument = map
        }
        if let fromDocument = uniqueInDocument?[name] { return fromDocument }
        return context.schema.directive(name).map { !$0.isRepeatable } ?? false
    }

    private func check(_ directives: [Directive], scope: DirectiveScope) {
        guard directives.count > 1 || (scope != .node && !directives.isEmpty) else { return }
        var seen = scope == .node ? [:] : seenByScope[scope, default: [:]]
        for directive in directives {
            let name = directive.name.value
            guard isUnique(name) else { continue }
            if let first = seen[name] {
                context.report(
                    "UniqueDirectivesPerLocation", "The directive \"@\(name)\" can only be used once at this location.",
                    at: [first.loc, directive.loc])
            } else {
                seen[name] = directive
            }
        }
        if scope != .node { seenByScope[scope] = seen }
    }
}
