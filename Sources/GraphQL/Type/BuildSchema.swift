// SDL → Schema (spec §3 "Type System"), with graphql-js `buildASTSchema` semantics: the
// document is checked by the SDL rules, every definition and extension is applied, root
// types default to Query/Mutation/Subscription when there is no `schema` definition, the
// built-in directives are added unless redefined, and the result is validated (§3 "Type
// Validation"). Unlike graphql-js, which validates lazily on first use, the builder reports
// schema validation errors right away: a server must not start on an invalid schema.

/// Builds a schema from a parsed SDL document.
///
/// Executable definitions (operations, fragments) in the document are ignored.
///
/// - Parameters:
///   - document: the parsed type-system document.
///   - source: the text it was parsed from; error locations are computed from it.
/// - Returns: the schema, its `typeNames` in graphql-js's type-map order.
/// - Throws: `SchemaBuildError` with every SDL validation error (then nothing is built), or
///   every schema validation error of the built schema.
public func buildSchema(_ document: Document, source: Source) throws(SchemaBuildError) -> Schema {
    let sdlErrors = validateSDL(document, source: source)
    guard sdlErrors.isEmpty else { throw SchemaBuildError(errors: sdlErrors, sourceName: source.name) }
    var builder = ASTSchemaBuilder(document: document, source: source)
    let schema = builder.build()
    var errors = builder.errors
    errors += validateSchema(schema, document: document, source: source)
    guard errors.isEmpty else { throw SchemaBuildError(errors: errors, sourceName: source.name) }
    return schema
}

/// Parses SDL text and builds a schema from it (`buildSchema` of graphql-js).
///
/// - Parameters:
///   - source: the SDL; its `name` (e.g. the file path) prefixes `SchemaBuildError.description` lines.
///   - options: parser limits; none by default, SDL files being trusted input.
/// - Throws: `SchemaBuildError` holding the syntax error, or the errors of
///   `buildSchema(_:source:)`.
public func buildSchema(source: Source, options: ParseOptions = ParseOptions()) throws(SchemaBuildError) -> Schema {
    let document: Document
    do {
        document = try parse(source, options: options)
    } catch {
        throw SchemaBuildError(errors: [error], sourceName: source.name)
    }
    return try buildSchema(document, source: source)
}

/// Parses and builds `sdl` (see `buildSchema(source:options:)`); errors name the source "SDL".
public func buildSchema(sdl: String) throws(SchemaBuildError) -> Schema {
    try buildSchema(source: Source(sdl, name: "SDL"))
}

/// Turns SDL definitions into schema model values. Problems that only show while building
/// (an invalid `reason:` for `@deprecated`, an invalid `url:` for `@specifiedBy`) go to `errors`.
struct ASTSchemaBuilder {
    private let document: Document
    private let source: Source
    private(set) var errors: [GraphQLError] = []
    /// Type extensions by extended type name, in document order.
    private var extensions: [String: [Definition]] = [:]

    init(document: Document, source: Source) {
        self.document = document
        self.source = source
        for definition in document.definitions {
            if let (name, _) = definition.typeExtension { extensions[name.value, default: []].append(definition) }
        }
    }

    mutating func build() -> Schema {
        var types: [GraphQLNamedType] = []
        var directives: [DirectiveModel] = []
        var schemaDefinition: SchemaDefinition?
        var schemaExtensions: [SchemaExtension] = []
        for definition in document.definitions {
            switch definition {
            case .schema(let d): schemaDefinition = d
            case .schemaExtension(let d): schemaExtensions.append(d)
            case .directive(let d): directives.append(buildDirective(d))
            default:
                guard let (name, _) = definition.typeDefinition else { continue }
                // A definition of a standard name keeps the standard type, as in graphql-js.
                if let standard = GraphQLNamedType.standardTypes[name.value] {
                    types.append(standard)
                } else if let type = buildType(definition) {
                    types.append(type)
                }
            }
        }
        let defined = Set(directives.map(\.name))
        directives += DirectiveModel.specifiedDirectives.filter { !defined.contains($0.name) }

        var roots: [OperationType: String] = [:]
        for operationType in (schemaDefinition?.operationTypes ?? []) + schemaExtensions.flatMap(\.operationTypes) {
            roots[operationType.operation] = operationType.type.name.value
        }
        if schemaDefinition == nil {
            for type in types {
                switch type.name {
                case "Query": roots[.query] = "Query"
                case "Mutation": roots[.mutation] = "Mutation"
                case "Subscription": roots[.subscription] = "Subscription"
                default: break
                }
            }
        }
        return Schema(
            description: schemaDefinition?.description?.value, queryType: roots[.query],
            mutationType: roots[.mutation], subscriptionType: roots[.subscription], types: types,
            directives: directives,
            schemaDirectives: (schemaDefinition?.directives ?? []) + schemaExtensions.flatMap(\.directives))
    }

    // MARK: - Types

    private mutating func buildType(_ definition: Definition) -> GraphQLNamedType? {
        switch definition {
        case .scalarType(let d):
            let extensionDirectives = extensionsOf(d.name).flatMap { ext -> [Directive] in
                if case .scalarTypeExtension(let e) = ext { return e.directives }
                return []
            }
            return .scalar(
                ScalarType(
                    name: d.name.value, description: d.description?.value, specifiedByURL: specifiedByURL(d.directives),
                    directives: d.directives + extensionDirectives, loc: d.loc))
        case .objectType(let d):
            var interfaces = d.interfaces
            var fields = d.fields
            var directives = d.directives
            for case .objectTypeExtension(let e) in extensionsOf(d.name) {
                interfaces += e.interfaces
                fields += e.fields
                directives += e.directives
            }
            return .object(
                ObjectType(
                    name: d.name.value, description: d.description?.value, interfaces: interfaces.map(\.name.value),
                    fields: fields.map { buildField($0) }, directives: directives, loc: d.loc))
        case .interfaceType(let d):
            var interfaces = d.interfaces
            var fields = d.fields
            var directives = d.directives
            for case .interfaceTypeExtension(let e) in extensionsOf(d.name) {
                interfaces += e.interfaces
                fields += e.fields
                directives += e.directives
            }
            return .interface(
                InterfaceType(
                    name: d.name.value, description: d.description?.value, interfaces: interfaces.map(\.name.value),
                    fields: fields.map { buildField($0) }, directives: directives, loc: d.loc))
        case .unionType(let d):
            var members = d.types
            var directives = d.directives
            for case .unionTypeExtension(let e) in extensionsOf(d.name) {
                members += e.types
                directives += e.directives
            }
            return .union(
                UnionType(
                    name: d.name.value, description: d.description?.value, types: members.map(\.name.value),
                    directives: directives, loc: d.loc))
        case .enumType(let d):
            var values = d.values
            var directives = d.directives
            for case .enumTypeExtension(let e) in extensionsOf(d.name) {
                values += e.values
                directives += e.directives
            }
            return .enumType(
                EnumType(
                    name: d.name.value, description: d.description?.value,
                    values: values.map { v in
                        EnumValueModel(
                            name: v.name.value, description: v.description?.value,
                            deprecationReason: deprecationReason(v.directives),
                            directives: v.directives, loc: v.loc)
                    }, directives: directives, loc: d.loc))
        case .inputObjectType(let d):
            var fields = d.fields
            var directives = d.directives
            for case .inputObjectTypeExtension(let e) in extensionsOf(d.name) {
                fields += e.fields
                directives += e.directives
            }
            // Like graphql-js, only the definition's own directives make it @oneOf.
            let isOneOf = d.directives.contains { $0.name.value == DirectiveModel.oneOf.name }
            return .inputObject(
                InputObjectType(
                    name: d.name.value, description: d.description?.value, fields: fields.map { buildInputValue($0) },
                    isOneOf: isOneOf, directives: directives, loc: d.loc))
        default:
            return nil
        }
    }

    private func extensionsOf(_ name: Name) -> [Definition] { extensions[name.value] ?? [] }

    private mutating func buildField(_ d: FieldDefinition) -> FieldDefinitionModel {
        FieldDefinitionModel(
            name: d.name.value, description: d.description?.value, arguments: d.arguments.map { buildInputValue($0) },
            type: d.type.asTypeReference, deprecationReason: deprecationReason(d.directives), directives: d.directives,
            loc: d.loc)
    }

    private mutating func buildInputValue(_ d: InputValueDefinition) -> InputValueModel {
        InputValueModel(
            name: d.name.value, description: d.description?.value, type: d.type.asTypeReference,
            defaultValue: d.defaultValue, deprecationReason: deprecationReason(d.directives), directives: d.directives,
            loc: d.loc)
    }

    private mutating func buildDirective(_ d: DirectiveDefinition) -> DirectiveModel {
        DirectiveModel(
            name: d.name.value, description: d.description?.value,
            locations: d.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
            arguments: d.arguments.map { buildInputValue($0) }, isRepeatable: d.repeatable, loc: d.loc)
    }

    // MARK: - Directive values

    /// The reason of the first `@deprecated` among `directives` (graphql-js
    /// `getDirectiveValues(GraphQLDeprecatedDirective, node)`): the default reason when none is
    /// given, nil when not deprecated or when `reason: null`.
    private mutating func deprecationReason(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == DirectiveModel.deprecated.name }) else {
            return nil
        }
        guard let argument = directive.arguments.first(where: { $0.name.value == "reason" }) else {
            return DirectiveModel.defaultDeprecationReason
        }
        switch argument.value {
        case .string(let s): return s.value
        case .null: return nil
        default:
            invalidArgumentValue(argument)
            return nil
        }
    }

    /// The `url:` of `@specifiedBy` among `directives`, or nil.
    private mutating func specifiedByURL(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == DirectiveModel.specifiedBy.name }),
            let argument = directive.arguments.first(where: { $0.name.value == "url" })
        else { return nil }
        switch argument.value {
        case .string(let s): return s.value
        case .null:
            errors.append(
                GraphQLError(
                    "Argument \"url\" of non-null type \"String!\" must not be null.", at: [argument.value.loc],
                    in: source))
            return nil
        default:
            invalidArgumentValue(argument)
            return nil
        }
    }

    private mutating func invalidArgumentValue(_ argument: Argument) {
        errors.append(
            GraphQLError(
                "Argument \"\(argument.name.value)\" has invalid value \(print(argument.value)).",
                at: [argument.value.loc], in: source))
    }
}
