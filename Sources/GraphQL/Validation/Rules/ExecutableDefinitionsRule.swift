/// Executable definitions
///
/// A document sent for execution holds only operations and fragments; any type system
/// definition or extension in it is an error.
/// Spec §5.1.1 https://spec.graphql.org/September2025/#sec-Executable-Definitions
final class ExecutableDefinitionsRule: ValidationVisitor {
    static let rule = ValidationRule(name: "ExecutableDefinitions") { ExecutableDefinitionsRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.document]
    init(context: ValidationContext) { self.context = context }

    func enterDocument(_ document: Document) {
        for definition in document.definitions where !definition.isExecutable {
            let name: String
            switch definition {
            case .schema, .schemaExtension: name = "schema"
            case .scalarType(let d): name = "\"\(d.name.value)\""
            case .objectType(let d): name = "\"\(d.name.value)\""
            case .interfaceType(let d): name = "\"\(d.name.value)\""
            case .unionType(let d): name = "\"\(d.name.value)\""
            case .enumType(let d): name = "\"\(d.name.value)\""
            case .inputObjectType(let d): name = "\"\(d.name.value)\""
            case .directive(let d): name = "\"\(d.name.value)\""
            case .scalarTypeExtension(let d): name = "\"\(d.name.value)\""
            case .objectTypeExtension(let d): name = "\"\(d.name.value)\""
            case .interfaceTypeExtension(let d): name = "\"\(d.name.value)\""
            case .unionTypeExtension(let d): name = "\"\(d.name.value)\""
            case .enumTypeExtension(let d): name = "\"\(d.name.value)\""
            case .inputObjectTypeExtension(let d): name = "\"\(d.name.value)\""
            case .operation, .fragment: continue
            }
            context.report(
                "ExecutableDefinitions", "The \(name) definition is not executable.", at: [definition.loc])
        }
    }
}
