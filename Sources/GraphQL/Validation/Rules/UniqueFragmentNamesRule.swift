/// Unique fragment names
///
/// Each fragment definition must have a name no other fragment has.
/// Spec §5.5.1.1 https://spec.graphql.org/September2025/#sec-Fragment-Name-Uniqueness
final class UniqueFragmentNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "UniqueFragmentNames") { UniqueFragmentNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.fragmentDefinition]
    private var known: [String: Name] = [:]
    init(context: ValidationContext) { self.context = context }

    func enterFragmentDefinition(_ fragment: FragmentDefinition) {
        let name = fragment.name
        if let first = known[name.value] {
            context.report(
                "UniqueFragmentNames", "There can be only one fragment named \"\(name.value)\".",
                at: [first.loc, name.loc])
        } else {
            known[name.value] = name
        }
    }
}
