/// Known fragment names
///
/// Every fragment spread must name a fragment defined in the document.
/// Spec §5.5.2.1 https://spec.graphql.org/September2025/#sec-Fragment-Spread-Target-Defined
final class KnownFragmentNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "KnownFragmentNames") { KnownFragmentNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.fragmentSpread]
    init(context: ValidationContext) { self.context = context }

    func enterFragmentSpread(_ spread: FragmentSpread) {
        if context.fragmentIndexByName[spread.name.value] == nil {
            context.report("KnownFragmentNames", "Unknown fragment \"\(spread.name.value)\".", at: [spread.name.loc])
        }
    }
}
