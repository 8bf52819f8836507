/// No deprecated
///
/// Reports every use of a deprecated schema member: a selected field, a field or directive
/// argument, an input object field or an enum value marked `@deprecated` (the reason is
/// appended to the message). Not one of the specification's rules (§5): graphql-js ships it
/// as the optional `NoDeprecatedCustomRule` for tools that look for deprecated usages, and
/// `musicgraph validate` reports its findings as warnings, or as errors with
/// `--fail-on-deprecated`. Deprecation itself is spec §3.13.3 "@deprecated",
/// https://spec.graphql.org/September2025/#sec--deprecated
public let noDeprecatedCustomRule = ValidationRule(name: "NoDeprecatedCustom") { NoDeprecatedCustomRule(context: $0) }

final class NoDeprecatedCustomRule: ValidationVisitor {
    private let context: ValidationContext
    let events: ValidationEvents = [.field, .argument, .objectField, .value]
    init(context: ValidationContext) { self.context = context }

    func enterField(_ field: Field) {
        let info = context.typeInfo
        guard let definition = info.fieldDefinition, let reason = definition.deprecationReason,
            let parent = info.parentType
        else { return }
        report("The field \(parent).\(definition.name) is deprecated. \(reason)", at: field.loc)
    }

    func enterArgument(_ argument: Argument) {
        let info = context.typeInfo
        guard let definition = info.argument, let reason = definition.deprecationReason else { return }
        if info.inDirective {
            guard let directive = info.directive else { return }
            report(
                "Directive \"@\(directive.name)\" argument \"\(definition.name)\" is deprecated. \(reason)",
                at: argument.loc)
        } else if let parent = info.parentType, let field = info.fieldDefinition {
            report(
                "Field \"\(parent).\(field.name)\" argument \"\(definition.name)\" is deprecated. \(reason)",
                at: argument.loc)
        }
    }

    func enterObjectField(_ field: ObjectField) {
        guard let named = context.typeInfo.parentInputType?.namedType,
            case .inputObject(let object) = context.schema.types[named],
            let definition = object.field(field.name.value), let reason = definition.deprecationReason
        else { return }
        report("The input field \(object.name).\(definition.name) is deprecated. \(reason)", at: field.loc)
    }

    func enterValue(_ value: Value) {
        guard case .enumValue(let literal) = value, let named = context.typeInfo.inputType?.namedType,
            case .enumType(let type) = context.schema.types[named],
            let definition = type.values.first(where: { $0.name == literal.value }),
            let reason = definition.deprecationReason
        else { return }
        report("The enum value \"\(type.name).\(definition.name)\" is deprecated. \(reason)", at: literal.loc)
    }

    private func report(_ message: String, at location: Location) {
        context.report("NoDeprecatedCustom", message, at: [location])
    }
}
