/// Possible fragment spreads
///
/// A fragment may be spread only where its type condition can apply: some object type
/// must be possible both for the fragment's type and for the enclosing type.
/// Spec §5.5.2.3 https://spec.graphql.org/September2025/#sec-Fragment-Spread-Is-Possible
final class PossibleFragmentSpreadsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "PossibleFragmentSpreads") { PossibleFragmentSpreadsRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.inlineFragment, .fragmentSpread]
    init(context: ValidationContext) { self.context = context }

    private func isComposite(_ name: String?) -> Bool {
        guard let name else { return false }
        return context.schema.kind(of: name)?.isCompositeType ?? false
    }

    func enterInlineFragment(_ fragment: InlineFragment) {
        let fragmentType = context.typeInfo.type?.namedType
        let parentType = context.typeInfo.parentType
        guard let fragmentType, let parentType, isComposite(fragmentType), isComposite(parentType),
            case .named = context.typeInfo.type, !context.schema.doTypesOverlap(fragmentType, parentType)
        else { return }
        context.report(
            "PossibleFragmentSpreads",
            "Fragment cannot be spread here as objects of type \"\(parentType)\" can never be of type \"\(fragmentType)\".",
            at: [fragment.loc])
    }

    func enterFragmentSpread(_ spread: FragmentSpread) {
        guard let fragment = context.fragment(named: spread.name.value) else { return }
        let fragmentType = fragment.typeCondition.name.value
        guard isComposite(fragmentType), let parentType = context.typeInfo.parentType,
            !context.schema.doTypesOverlap(fragmentType, parentType)
        else { return }
        context.report(
            "PossibleFragmentSpreads",
            "Fragment \"\(spread.name.value)\" cannot be spread here as objects of type \"\(parentType)\" can never be of type \"\(fragmentType)\".",
            at: [spread.loc])
    }
}
