/// Known type names
///
/// Every type named in a variable definition or a fragment's type condition must exist
/// in the schema (or be defined in the document itself, for type system definitions).
/// Spec §5.5.1.2 https://spec.graphql.org/September2025/#sec-Fragment-Spread-Type-Existence
/// and §5.8.2 https://spec.graphql.org/September2025/#sec-Variables-Are-Input-Types
final class KnownTypeNamesRule: ValidationVisitor {
    static let rule = ValidationRule(name: "KnownTypeNames") { KnownTypeNamesRule(context: $0) }
    private let context: ValidationContext
    let events: ValidationEvents = [.namedType]
    private var definedTypes: [String]?

    /// The built-in scalars and introspection types: type system definitions may name them
    /// even when the schema does not hold them.
    static let standardTypeNames = [
        "String", "Int", "Float", "Boolean", "ID", "__Schema", "__Directive", "__DirectiveLocation", "__Type",
        "__Field", "__InputValue", "__EnumValue", "__TypeKind",
    ]

    init(context: ValidationContext) { self.context = context }

    private func typesDefinedInDocument() -> [String] {
        if let definedTypes { return definedTypes }
        var names: [String] = []
        for definition in context.document.definitions {
            switch definition {
            case .scalarType(let d): names.append(d.name.value)
            case .objectType(let d): names.append(d.name.value)
            case .interfaceType(let d): names.append(d.name.value)
            case .unionType(let d): names.append(d.name.value)
            case .enumType(let d): names.append(d.name.value)
            case .inputObjectType(let d): names.append(d.name.value)
            default: break
            }
        }
        definedTypes = names
        return names
    }

    func enterNamedType(_ type: NamedType, inTypeSystem: Bool) {
        let name = type.name.value
        if context.schema.kind(of: name) != nil { return }
        let defined = typesDefinedInDocument()
        if defined.contains(name) { return }
        if inTypeSystem && KnownTypeNamesRule.standardTypeNames.contains(name) { return }
        var candidates = context.schema.typeNames + defined
        if inTypeSystem { candidates = KnownTypeNamesRule.standardTypeNames + candidates }
        context.report(
            "KnownTypeNames", "Unknown type \"\(name)\"." + Suggestions.didYouMean(Suggestions.list(name, candidates)),
            at: [type.loc])
    }
}
