/// Fragments on composite types
///
/// A fragment's type condition must name an object, interface or union type: fragments
/// select fields, and only those types have fields.
/// Spec §5.5.1.3 https://spec.graphql.org/September2025/#sec-Fragments-On-Object-Interface-Or-Union-Types
final class FragmentsOnCompositeTypesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "FragmentsOnCompositeTypes") { FragmentsOnCompositeTypesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.inlineFragment, .fragmentDefinition]
    init(context: ValidationContext) { self.context = context }

    private func isNonComposite(_ condition: NamedType) -> Bool {
        guard let kind = context.schema.kind(of: condition.name.value) else { return false }
        return !kind.isCompositeType
    }

    func enterInlineFragment(_ fragment: InlineFragment) {
        guard let condition = fragment.typeCondition, isNonComposite(condition) else { return }
        context.report(
            "FragmentsOnCompositeTypes",
            "Fragment cannot condition on non composite type \"\(condition.name.value)\".", at: [condition.loc])
    }

    func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        guard isNonComposite(fragment.typeCondition) else { return }
        context.report(
            "FragmentsOnCompositeTypes",
            "Fragment \"\(fragment.name.value)\" cannot condition on non composite type \"\(fragment.typeCondition.name.value)\".",
            at: [fragment.typeCondition.loc])
    }
}
