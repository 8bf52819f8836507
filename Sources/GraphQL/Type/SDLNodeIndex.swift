// Where the parts of a schema were written, for schema validation messages: graphql-js keeps
// AST nodes on every type, field and argument; our model keeps a definition's `loc`, and this
// index finds the finer nodes (a field's type, an `implements` entry, a union member, an
// extension) in the document the schema was built from.

/// The SDL nodes of a document by type, field and directive name. Empty for schemas built in
/// code, whose errors then have no locations.
struct SDLNodeIndex {
    private(set) var schemaDefinition: SchemaDefinition?
    private(set) var schemaExtensions: [SchemaExtension] = []
    /// The definition and then the extensions of each type, in document order.
    private var typeNodes: [String: [Definition]] = [:]
    private var directiveDefinitions: [String: DirectiveDefinition] = [:]

    init() {}

    init(_ document: Document) {
        for definition in document.definitions {
            switch definition {
            case .schema(let d): schemaDefinition = d
            case .schemaExtension(let d): schemaExtensions.append(d)
            case .directive(let d): directiveDefinitions[d.name.value] = d
            default:
                if let (name, _) = definition.typeDefinition {
                    typeNodes[name.value, default: []].insert(definition, at: 0)
                } else if let (name, _) = definition.typeExtension {
                    typeNodes[name.value, default: []].append(definition)
                }
            }
        }
    }

    /// The definition and extension nodes of a type (graphql-js `[astNode, ...extensionASTNodes]`).
    func typeLocations(_ typeName: String) -> [Location] {
        (typeNodes[typeName] ?? []).map(\.loc)
    }

    /// The extension nodes of a type.
    func extensionLocations(_ typeName: String) -> [Location] {
        (typeNodes[typeName] ?? []).filter { $0.typeExtension != nil }.map(\.loc)
    }

    /// The `implements` entries naming `interface` in a type's definition and extensions.
    func implementsLocations(_ typeName: String, _ interface: String) -> [Location] {
        (typeNodes[typeName] ?? []).flatMap { definition -> [NamedType] in
            switch definition {
            case .objectType(let d): d.interfaces
            case .interfaceType(let d): d.interfaces
            case .objectTypeExtension(let d): d.interfaces
            case .interfaceTypeExtension(let d): d.interfaces
            default: []
            }
        }.filter { $0.name.value == interface }.map(\.loc)
    }

    /// The member entries naming `member` in a union's definition and extensions.
    func unionMemberLocations(_ unionName: String, _ member: String) -> [Location] {
        (typeNodes[unionName] ?? []).flatMap { definition -> [NamedType] in
            switch definition {
            case .unionType(let d): d.types
            case .unionTypeExtension(let d): d.types
            default: []
            }
        }.filter { $0.name.value == member }.map(\.loc)
    }

    /// The named type of the first `operation: Type` entry for `operation`, in the schema
    /// definition and then its extensions.
    func operationTypeLocation(_ operation: OperationType) -> Location? {
        let entries = (schemaDefinition?.operationTypes ?? []) + schemaExtensions.flatMap(\.operationTypes)
        return entries.first { $0.operation == operation }?.type.loc
    }

    /// The definition node of field `fieldName` of an object or interface type.
    func field(_ typeName: String, _ fieldName: String) -> FieldDefinition? {
        for definition in typeNodes[typeName] ?? [] {
            let fields: [FieldDefinition] =
                switch definition {
                case .objectType(let d): d.fields
                case .interfaceType(let d): d.fields
                case .objectTypeExtension(let d): d.fields
                case .interfaceTypeExtension(let d): d.fields
                default: []
                }
            if let field = fields.first(where: { $0.name.value == fieldName }) { return field }
        }
        return nil
    }

    /// The definition node of an argument of a field.
    func argument(_ typeName: String, _ fieldName: String, _ argumentName: String) -> InputValueDefinition? {
        field(typeName, fieldName)?.arguments.first { $0.name.value == argumentName }
    }

    /// The definition node of an input object field.
    func inputField(_ typeName: String, _ fieldName: String) -> InputValueDefinition? {
        for definition in typeNodes[typeName] ?? [] {
            let fields: [InputValueDefinition] =
                switch definition {
                case .inputObjectType(let d): d.fields
                case .inputObjectTypeExtension(let d): d.fields
                default: []
                }
            if let field = fields.first(where: { $0.name.value == fieldName }) { return field }
        }
        return nil
    }

    /// The definition node of an argument of a directive definition.
    func directiveArgument(_ directiveName: String, _ argumentName: String) -> InputValueDefinition? {
        directiveDefinitions[directiveName]?.arguments.first { $0.name.value == argumentName }
    }
}
