/// No unused fragments
///
/// Every fragment defined in a document must be spread by some operation, directly or
/// through other fragments.
/// Spec §5.5.1.4 https://spec.graphql.org/September2025/#sec-Fragments-Must-Be-Used
final class NoUnusedFragmentsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "NoUnusedFragments") { NoUnusedFragmentsRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.leaveDocument]
    init(context: ValidationContext) { self.context = context }

    func leaveDocument(_ document: Document) {
        guard !context.fragmentDefinitions.isEmpty else { return }
        let used = context.recursivelyReferencedFragments(
            of: Array(context.operations.indices), rule: "NoUnusedFragments")
        guard !context.isAborted else { return }
        let usedNames = Set(used.map { context.fragmentDefinitions[$0].name.value })
        for fragment in context.fragmentDefinitions where !usedNames.contains(fragment.name.value) {
            context.report(
                "NoUnusedFragments", "Fragment \"\(fragment.name.value)\" is never used.", at: [fragment.loc])
        }
    }
}
