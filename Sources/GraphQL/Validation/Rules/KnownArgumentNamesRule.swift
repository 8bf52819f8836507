/// Known argument names
///
/// Every argument given to a field or directive must be defined by it.
/// Spec §5.4.1 https://spec.graphql.org/September2025/#sec-Argument-Names
final class KnownArgumentNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "KnownArgumentNames") { KnownArgumentNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.directive, .argument]
    private var argumentsInDocument: [String: [String]]?
    init(context: ValidationContext) { self.context = context }

    func enterDirective(_ directive: Directive, location: DirectiveLocation?) {
        guard !directive.arguments.isEmpty else { return }
        if argumentsInDocument == nil {
            var map: [String: [String]] = [:]
            for d in context.directiveDefinitionsInDocument { map[d.name.value] = d.arguments.map(\.name.value) }
            argumentsInDocument = map
        }
        let name = directive.name.value
        guard
            let known = argumentsInDocument?[name] ?? context.schema.directive(name).map({ $0.arguments.map(\.name) })
        else { return }
        for argument in directive.arguments where !known.contains(argument.name.value) {
            let argumentName = argument.name.value
            context.report(
                "KnownArgumentNames",
                "Unknown argument \"\(argumentName)\" on directive \"@\(name)\"."
                    + Suggestions.didYouMean(Suggestions.list(argumentName, known)), at: [argument.loc])
        }
    }

    func enterArgument(_ argument: Argument) {
        let info = context.typeInfo
        // Directive arguments were checked above (graphql-js skips a directive's subtree).
        guard !info.inDirective, info.argument == nil, let field = info.fieldDefinition, let parent = info.parentType
        else {
            return
        }
        let name = argument.name.value
        context.report(
            "KnownArgumentNames",
            "Unknown argument \"\(name)\" on field \"\(parent).\(field.name)\"."
                + Suggestions.didYouMean(Suggestions.list(name, field.arguments.map(\.name))), at: [argument.loc])
    }
}
