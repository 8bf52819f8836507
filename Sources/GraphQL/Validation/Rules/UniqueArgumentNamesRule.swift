/// Unique argument names
///
/// A field or directive must not be given the same argument twice.
/// Spec §5.4.2 https://spec.graphql.org/September2025/#sec-Argument-Uniqueness
final class UniqueArgumentNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "UniqueArgumentNames") { UniqueArgumentNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.field, .directive]
    init(context: ValidationContext) { self.context = context }

    func enterField(_ field: Field) { check(field.arguments) }
    func enterDirective(_ directive: Directive, location: DirectiveLocation?) { check(directive.arguments) }

    private func check(_ arguments: [Argument]) {
        guard arguments.count > 1 else { return }
        var order: [String] = []
        var byName: [String: [Location]] = [:]
        for argument in arguments {
            if byName[argument.name.value] == nil { order.append(argument.name.value) }
            byName[argument.name.value, default: []].append(argument.name.loc)
        }
        for name in order {
            if let locations = byName[name], locations.count > 1 {
                context.report(
                    "UniqueArgumentNames", "There can be only one argument named \"\(name)\".", at: locations)
            }
        }
    }
}
