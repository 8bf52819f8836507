/// Lone anonymous operation
///
/// An anonymous operation (a name-less one or the `{ … }` shorthand) is allowed only when
/// it is the document's only operation.
/// Spec §5.2.2.1 https://spec.graphql.org/September2025/#sec-Lone-Anonymous-Operation
final class LoneAnonymousOperationRule: ValidationVisitor {
    static let rule = ValidationRule(name: "LoneAnonymousOperation") { LoneAnonymousOperationRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.operation]
    init(context: ValidationContext) { self.context = context }

    func enterOperation(_ operation: OperationDefinition) {
        if operation.name == nil && context.operations.count > 1 {
            context.report(
                "LoneAnonymousOperation", "This anonymous operation must be the only defined operation.",
                at: [operation.loc])
        }
    }
}
