/// Provided required arguments
///
/// A field or directive must be given every argument whose type is non-null and that
/// has no default value.
/// Spec §5.4.2.1 https://spec.graphql.org/September2025/#sec-Required-Arguments
final class ProvidedRequiredArgumentsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "ProvidedRequiredArguments") { ProvidedRequiredArgumentsRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.leaveField, .leaveDirective]
    /// Required arguments (name, type text) of the directives defined in the document.
    private var requiredInDocument: [String: [(String, String)]]?
    init(context: ValidationContext) { self.context = context }

    func leaveField(_ field: Field) {
        guard let entry = context.typeInfo.fieldEntry else { return }
        for argument in entry.definition.arguments where argument.type.isNonNull && argument.defaultValue == nil {
            guard !field.arguments.contains(where: { $0.name.value == argument.name }) else { continue }
            context.report(
                "ProvidedRequiredArguments",
                "Field \"\(field.name.value)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                at: [field.loc])
        }
    }

    func leaveDirective(_ directive: Directive) {
        if requiredInDocument == nil {
            var map: [String: [(String, String)]] = [:]
            for d in context.directiveDefinitionsInDocument {
                map[d.name.value] = d.arguments.compactMap { a in
                    guard case .nonNull = a.type, a.defaultValue == nil else { return nil }
                    return (a.name.value, print(a.type))
                }
            }
            requiredInDocument = map
        }
        let name = directive.name.value
        let required: [(String, String)]
        if let fromDocument = requiredInDocument?[name] {
            required = fromDocument
        } else if let definition = context.schema.directive(name) {
            required = definition.arguments.compactMap { a in
                a.type.isNonNull && a.defaultValue == nil ? (a.name, a.type.description) : nil
            }
        } else {
            return
        }
        for (argumentName, type) in required
        where !directive.arguments.contains(where: { $0.name.value == argumentName }) {
            context.report(
                "ProvidedRequiredArguments",
                "Directive \"@\(name)\" argument \"\(argumentName)\" of type \"\(type)\" is required, but it was not provided.",
                at: [directive.loc])
        }
    }
}
