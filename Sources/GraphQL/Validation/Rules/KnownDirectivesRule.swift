/// Known directives
///
/// Every directive used must be defined (by the schema or in the document), and be used
/// only at one of the locations its definition lists.
/// Spec §5.7.1 https://spec.graphql.org/September2025/#sec-Directives-Are-Defined and
/// §5.7.2 https://spec.graphql.org/September2025/#sec-Directives-Are-In-Valid-Locations
final class KnownDirectivesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "KnownDirectives") { KnownDirectivesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.directive]
    private var locationsInDocument: [String: [String]]?
    init(context: ValidationContext) { self.context = context }

    /// Locations of the directives defined in the document (they win over the schema's).
    private func documentLocations() -> [String: [String]] {
        if let locationsInDocument { return locationsInDocument }
        var result: [String: [String]] = [:]
        for d in context.directiveDefinitionsInDocument { result[d.name.value] = d.locations.map(\.value) }
        locationsInDocument = result
        return result
    }

    func enterDirective(_ directive: Directive, location: DirectiveLocation?) {
        let name = directive.name.value
        let allowed: [String]
        if let fromDocument = documentLocations()[name] {
            allowed = fromDocument
        } else if let definition = context.schema.directive(name) {
            allowed = definition.locations.map(\.rawValue)
        } else {
            allowed = []
        }
        guard !allowed.isEmpty else {
            context.report("KnownDirectives", "Unknown directive \"@\(name)\".", at: [directive.loc])
            return
        }
        if let location, !allowed.contains(location.rawValue) {
            context.report(
                "KnownDirectives", "Directive \"@\(name)\" may not be used on \(location.rawValue).",
                at: [directive.loc])
        }
    }
}
