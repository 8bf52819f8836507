// SDL validation: the rules graphql-js runs on a type-system document before building a
// schema from it (`specifiedSDLRules`, applied by `assertValidSDL` in `buildASTSchema`):
//
//   LoneSchemaDefinition, UniqueOperationTypes, UniqueTypeNames, UniqueEnumValueNames,
//   UniqueFieldDefinitionNames, UniqueArgumentDefinitionNames, UniqueDirectiveNames,
//   KnownTypeNames, KnownDirectives, UniqueDirectivesPerLocation, PossibleTypeExtensions,
//   KnownArgumentNamesOnDirectives, UniqueArgumentNames, UniqueInputFieldNames,
//   ProvidedRequiredArgumentsOnDirectives.
//
// Algorithm: one depth-first walk in graphql-js's visiting order (a definition, then its
// description, name, interfaces, directives, fields, …); at each node the rules that look at
// that kind of node run in the list's order, so errors come out in the order graphql-js's
// parallel visitor reports them. Executable definitions in the document are ignored, as the
// builder ignores them.

/// Checks a type-system document with the SDL validation rules (spec §3 and the
/// "Type System" validation of graphql-js `specifiedSDLRules`).
///
/// - Returns: every error, each with the 1-based locations of the nodes involved; empty when
///   the document may be built into a schema.
func validateSDL(_ document: Document, source: Source) -> [GraphQLError] {
    var validator = SDLValidator(document: document, source: source)
    for definition in document.definitions { validator.visit(definition) }
    return validator.errors
}

/// The state of every SDL rule during one walk; each `// Rule:` section is one graphql-js rule.
struct SDLValidator {
    private let source: Source
    private(set) var errors: [GraphQLError] = []

    // Rule: LoneSchemaDefinition
    private var schemaDefinitionCount = 0
    // Rule: UniqueOperationTypes
    private var definedOperationTypes: [OperationType: OperationTypeDefinition] = [:]
    // Rule: UniqueTypeNames
    private var knownTypeNames: [String: Name] = [:]
    // Rule: UniqueEnumValueNames (per type, definition and extensions together)
    private var knownEnumValueNames: [String: [String: Name]] = [:]
    // Rule: UniqueFieldDefinitionNames (per type, definition and extensions together)
    private var knownFieldNames: [String: [String: Name]] = [:]
    // Rule: UniqueDirectiveNames
    private var knownDirectiveNames: [String: Name] = [:]
    // Rule: KnownTypeNames
    private let definedTypeNames: Set<String>
    private let typeNameSuggestions: [String]
    // Rule: KnownDirectives (directive name → location names)
    private let directiveLocations: [String: [String]]
    // Rule: UniqueDirectivesPerLocation
    private let directiveIsUnique: [String: Bool]
    private var schemaDirectivesSeen: [String: Directive] = [:]
    private var typeDirectivesSeen: [String: [String: Directive]] = [:]
    // Rule: PossibleTypeExtensions (the last definition of a name counts, as in graphql-js)
    private let definedTypes: [String: (loc: Location, kind: SDLTypeKind)]
    private let definedTypeNamesInOrder: [String]
    // Rule: KnownArgumentNamesOnDirectives
    private let directiveArgumentNames: [String: [String]]
    // Rule: ProvidedRequiredArgumentsOnDirectives (name and SDL type of each required argument)
    private let requiredDirectiveArguments: [String: [(name: String, type: String)]]

    init(document: Document, source: Source) {
        self.source = source
        var locations: [String: [String]] = [:]
        var unique: [String: Bool] = [:]
        var argumentNames: [String: [String]] = [:]
        var required: [String: [(name: String, type: String)]] = [:]
        for directive in DirectiveModel.specifiedDirectives {
            locations[directive.name] = directive.locations.map(\.rawValue)
            unique[directive.name] = !directive.isRepeatable
            argumentNames[directive.name] = directive.arguments.map(\.name)
            required[directive.name] = directive.arguments.filter { $0.type.isNonNull && $0.defaultValue == nil }
                .map { ($0.name, $0.type.description) }
        }
        var typeNames: Set<String> = []
        var typeNamesInOrder: [String] = []
        var allTypeNames: [String] = []
        var types: [String: (loc: Location, kind: SDLTypeKind)] = [:]
        for definition in document.definitions {
            if let (name, kind) = definition.typeDefinition {
                allTypeNames.append(name.value)
                if types[name.value] == nil { typeNamesInOrder.append(name.value) }
                typeNames.insert(name.value)
                types[name.value] = (definition.loc, kind)
            } else if case .directive(let d) = definition {
                locations[d.name.value] = d.locations.map(\.value)
                unique[d.name.value] = !d.repeatable
                argumentNames[d.name.value] = d.arguments.map(\.name.value)
                required[d.name.value] = d.arguments.filter { $0.type.isNonNullReference && $0.defaultValue == nil }
                    .map { ($0.name.value, $0.type.asTypeReference.description) }
            }
        }
        self.definedTypeNames = typeNames
        self.typeNameSuggestions = SDLValidator.standardTypeNames + allTypeNames
        self.directiveLocations = locations
        self.directiveIsUnique = unique
        self.definedTypes = types
        self.definedTypeNamesInOrder = typeNamesInOrder
        self.directiveArgumentNames = argumentNames
        self.requiredDirectiveArguments = required
    }

    /// Built-in scalars and introspection types: SDL may reference them without defining them.
    private static let standardTypeNames: [String] =
        ScalarType.specifiedScalars.map(\.name) + IntrospectionTypes.all.map(\.name)

    private mutating func report(_ message: String, _ nodes: [Location]) {
        errors.append(GraphQLError(message, at: nodes, in: source))
    }

    // MARK: - The walk

    mutating func visit(_ definition: Definition) {
        switch definition {
        case .operation, .fragment:
            break
        case .schema(let d):
            loneSchemaDefinition(d)
            uniqueOperationTypes(d.operationTypes)
            uniqueDirectivesPerLocation(d.directives, scope: .schema)
            visitDirectives(d.directives, at: .schema)
            for operationType in d.operationTypes { knownTypeName(operationType.type) }
        case .schemaExtension(let d):
            uniqueOperationTypes(d.operationTypes)
            uniqueDirectivesPerLocation(d.directives, scope: .schema)
            visitDirectives(d.directives, at: .schema)
            for operationType in d.operationTypes { knownTypeName(operationType.type) }
        case .scalarType(let d):
            uniqueTypeName(d.name)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            visitDirectives(d.directives, at: .scalar)
        case .objectType(let d):
            uniqueTypeName(d.name)
            uniqueFieldDefinitionNames(d.name.value, d.fields.map(\.name))
            uniqueArgumentDefinitionNames(ofFields: d.fields, in: d.name.value)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            for interface in d.interfaces { knownTypeName(interface) }
            visitDirectives(d.directives, at: .object)
            for field in d.fields { visitFieldDefinition(field) }
        case .interfaceType(let d):
            uniqueTypeName(d.name)
            uniqueFieldDefinitionNames(d.name.value, d.fields.map(\.name))
            uniqueArgumentDefinitionNames(ofFields: d.fields, in: d.name.value)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            for interface in d.interfaces { knownTypeName(interface) }
            visitDirectives(d.directives, at: .interface)
            for field in d.fields { visitFieldDefinition(field) }
        case .unionType(let d):
            uniqueTypeName(d.name)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            visitDirectives(d.directives, at: .union)
            for member in d.types { knownTypeName(member) }
        case .enumType(let d):
            uniqueTypeName(d.name)
            uniqueEnumValueNames(d.name.value, d.values)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            visitDirectives(d.directives, at: .enumType)
            for value in d.values { visitEnumValueDefinition(value) }
        case .inputObjectType(let d):
            uniqueTypeName(d.name)
            uniqueFieldDefinitionNames(d.name.value, d.fields.map(\.name))
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            visitDirectives(d.directives, at: .inputObject)
            for field in d.fields { visitInputValueDefinition(field, at: .inputFieldDefinition) }
        case .directive(let d):
            uniqueArgumentDefinitionNames(d.arguments, parent: "@\(d.name.value)")
            uniqueDirectiveName(d.name)
            for argument in d.arguments { visitInputValueDefinition(argument, at: .argumentDefinition) }
        case .scalarTypeExtension(let d):
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            possibleTypeExtension(d.name, .scalar, d.loc)
            visitDirectives(d.directives, at: .scalar)
        case .objectTypeExtension(let d):
            uniqueFieldDefinitionNames(d.name.value, d.fields.map(\.name))
            uniqueArgumentDefinitionNames(ofFields: d.fields, in: d.name.value)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            possibleTypeExtension(d.name, .object, d.loc)
            for interface in d.interfaces { knownTypeName(interface) }
            visitDirectives(d.directives, at: .object)
            for field in d.fields { visitFieldDefinition(field) }
        case .interfaceTypeExtension(let d):
            uniqueFieldDefinitionNames(d.name.value, d.fields.map(\.name))
            uniqueArgumentDefinitionNames(ofFields: d.fields, in: d.name.value)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            possibleTypeExtension(d.name, .interface, d.loc)
            for interface in d.interfaces { knownTypeName(interface) }
            visitDirectives(d.directives, at: .interface)
            for field in d.fields { visitFieldDefinition(field) }
        case .unionTypeExtension(let d):
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            possibleTypeExtension(d.name, .union, d.loc)
            visitDirectives(d.directives, at: .union)
            for member in d.types { knownTypeName(member) }
        case .enumTypeExtension(let d):
            uniqueEnumValueNames(d.name.value, d.values)
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            possibleTypeExtension(d.name, .enumType, d.loc)
            visitDirectives(d.directives, at: .enumType)
            for value in d.values { visitEnumValueDefinition(value) }
        case .inputObjectTypeExtension(let d):
            uniqueFieldDefinitionNames(d.name.value, d.fields.map(\.name))
            uniqueDirectivesPerLocation(d.directives, scope: .type(d.name.value))
            possibleTypeExtension(d.name, .inputObject, d.loc)
            visitDirectives(d.directives, at: .inputObject)
            // graphql-js places directives on an input *extension*'s fields at ARGUMENT_DEFINITION
            // (KnownDirectivesRule looks for an INPUT_OBJECT_TYPE_DEFINITION parent only); we agree.
            for field in d.fields { visitInputValueDefinition(field, at: .argumentDefinition) }
        }
    }

    private mutating func visitFieldDefinition(_ field: FieldDefinition) {
        uniqueDirectivesPerLocation(field.directives, scope: .node)
        for argument in field.arguments { visitInputValueDefinition(argument, at: .argumentDefinition) }
        knownTypeName(field.type.namedType)
        visitDirectives(field.directives, at: .fieldDefinition)
    }

    private mutating func visitInputValueDefinition(_ value: InputValueDefinition, at location: DirectiveLocation) {
        uniqueDirectivesPerLocation(value.directives, scope: .node)
        knownTypeName(value.type.namedType)
        if let defaultValue = value.defaultValue { visitValue(defaultValue) }
        visitDirectives(value.directives, at: location)
    }

    private mutating func visitEnumValueDefinition(_ value: EnumValueDefinition) {
        uniqueDirectivesPerLocation(value.directives, scope: .node)
        visitDirectives(value.directives, at: .enumValue)
    }

    private mutating func visitDirectives(_ directives: [Directive], at location: DirectiveLocation) {
        for directive in directives {
            knownDirective(directive, at: location)
            knownArgumentNamesOnDirective(directive)
            uniqueArgumentNames(directive.arguments)
            for argument in directive.arguments { visitValue(argument.value) }
            providedRequiredArgumentsOnDirective(directive)
        }
    }

    private mutating func visitValue(_ value: Value) {
        switch value {
        case .list(let list):
            for item in list.values { visitValue(item) }
        case .object(let object):
            // Rule: UniqueInputFieldNames, one scope per object value.
            var known: [String: Name] = [:]
            for field in object.fields {
                if let previous = known[field.name.value] {
                    report(
                        "There can be only one input field named \"\(field.name.value)\".",
                        [previous.loc, field.name.loc])
                } else {
                    known[field.name.value] = field.name
                }
                visitValue(field.value)
            }
        default:
            break
        }
    }

    // MARK: - Rules

    /// LoneSchemaDefinition: a document defines at most one schema (§3.3).
    private mutating func loneSchemaDefinition(_ node: SchemaDefinition) {
        if schemaDefinitionCount > 0 { report("Must provide only one schema definition.", [node.loc]) }
        schemaDefinitionCount += 1
    }

    /// UniqueOperationTypes: each operation type has at most one root type (§3.3.1).
    private mutating func uniqueOperationTypes(_ operationTypes: [OperationTypeDefinition]) {
        for operationType in operationTypes {
            if let previous = definedOperationTypes[operationType.operation] {
                report(
                    "There can be only one \(operationType.operation.rawValue) type in schema.",
                    [previous.loc, operationType.loc])
            } else {
                definedOperationTypes[operationType.operation] = operationType
            }
        }
    }

    /// UniqueTypeNames: type names are unique (§3.4).
    private mutating func uniqueTypeName(_ name: Name) {
        if let previous = knownTypeNames[name.value] {
            report("There can be only one type named \"\(name.value)\".", [previous.loc, name.loc])
        } else {
            knownTypeNames[name.value] = name
        }
    }

    /// UniqueEnumValueNames: enum value names are unique within an enum and its extensions (§3.9).
    private mutating func uniqueEnumValueNames(_ typeName: String, _ values: [EnumValueDefinition]) {
        var known = knownEnumValueNames[typeName, default: [:]]
        for value in values {
            if let previous = known[value.name.value] {
                report(
                    "Enum value \"\(typeName).\(value.name.value)\" can only be defined once.",
                    [previous.loc, value.name.loc])
            } else {
                known[value.name.value] = value.name
            }
        }
        knownEnumValueNames[typeName] = known
    }

    /// UniqueFieldDefinitionNames: field names are unique within a type and its extensions (§3.6).
    private mutating func uniqueFieldDefinitionNames(_ typeName: String, _ names: [Name]) {
        var known = knownFieldNames[typeName, default: [:]]
        for name in names {
            if let previous = known[name.value] {
                report("Field \"\(typeName).\(name.value)\" can only be defined once.", [previous.loc, name.loc])
            } else {
                known[name.value] = name
            }
        }
        knownFieldNames[typeName] = known
    }

    /// UniqueArgumentDefinitionNames: argument names are unique per field (§3.6.1) and per
    /// directive definition (§3.13).
    private mutating func uniqueArgumentDefinitionNames(ofFields fields: [FieldDefinition], in typeName: String) {
        for field in fields {
            uniqueArgumentDefinitionNames(field.arguments, parent: "\(typeName).\(field.name.value)")
        }
    }

    private mutating func uniqueArgumentDefinitionNames(_ arguments: [InputValueDefinition], parent: String) {
        for (name, nodes) in groupedByName(arguments.map(\.name)) where nodes.count > 1 {
            report("Argument \"\(parent)(\(name):)\" can only be defined once.", nodes.map(\.loc))
        }
    }

    /// UniqueDirectiveNames: directive names are unique (§3.13).
    private mutating func uniqueDirectiveName(_ name: Name) {
        if let previous = knownDirectiveNames[name.value] {
            report("There can be only one directive named \"@\(name.value)\".", [previous.loc, name.loc])
        } else {
            knownDirectiveNames[name.value] = name
        }
    }

    /// KnownTypeNames: every referenced type is defined or standard (§3.4).
    private mutating func knownTypeName(_ node: NamedType) {
        let name = node.name.value
        if definedTypeNames.contains(name) || GraphQLNamedType.standardTypes[name] != nil { return }
        let suggestions = Suggestions.list(name, typeNameSuggestions)
        report("Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions), [node.loc])
    }

    /// KnownDirectives: every applied directive is defined and allowed where it is used (§3.13).
    private mutating func knownDirective(_ directive: Directive, at location: DirectiveLocation) {
        let name = directive.name.value
        guard let locations = directiveLocations[name] else {
            report("Unknown directive \"@\(name)\".", [directive.loc])
            return
        }
        if !locations.contains(location.rawValue) {
            report("Directive \"@\(name)\" may not be used on \(location.rawValue).", [directive.loc])
        }
    }

    /// Where a list of directives sits, for UniqueDirectivesPerLocation: the schema and each
    /// type share one scope across their definition and extensions; every other node has its own.
    private enum DirectiveScope {
        case schema
        case type(String)
        case node
    }

    /// UniqueDirectivesPerLocation: a non-repeatable directive is applied at most once per
    /// location (§3.13, "Directives Are Unique Per Location").
    private mutating func uniqueDirectivesPerLocation(_ directives: [Directive], scope: DirectiveScope) {
        guard !directives.isEmpty else { return }
        var seen: [String: Directive]
        switch scope {
        case .schema: seen = schemaDirectivesSeen
        case .type(let name): seen = typeDirectivesSeen[name, default: [:]]
        case .node: seen = [:]
        }
        for directive in directives where directiveIsUnique[directive.name.value] == true {
            if let previous = seen[directive.name.value] {
                report(
                    "The directive \"@\(directive.name.value)\" can only be used once at this location.",
                    [previous.loc, directive.loc])
            } else {
                seen[directive.name.value] = directive
            }
        }
        switch scope {
        case .schema: schemaDirectivesSeen = seen
        case .type(let name): typeDirectivesSeen[name] = seen
        case .node: break
        }
    }

    /// PossibleTypeExtensions: an extension extends a type defined with the same kind (§3.4.3).
    private mutating func possibleTypeExtension(_ name: Name, _ kind: SDLTypeKind, _ loc: Location) {
        guard let defined = definedTypes[name.value] else {
            let suggestions = Suggestions.list(name.value, definedTypeNamesInOrder)
            report(
                "Cannot extend type \"\(name.value)\" because it is not defined." + Suggestions.didYouMean(suggestions),
                [name.loc])
            return
        }
        if defined.kind != kind {
            report("Cannot extend non-\(kind.rawValue) type \"\(name.value)\".", [defined.loc, loc])
        }
    }

    /// KnownArgumentNamesOnDirectives: a directive is given only arguments it defines (§5.4.1).
    private mutating func knownArgumentNamesOnDirective(_ directive: Directive) {
        let name = directive.name.value
        guard let known = directiveArgumentNames[name] else { return }
        for argument in directive.arguments where !known.contains(argument.name.value) {
            let suggestions = Suggestions.list(argument.name.value, known)
            report(
                "Unknown argument \"\(argument.name.value)\" on directive \"@\(name)\"."
                    + Suggestions.didYouMean(suggestions),
                [argument.loc])
        }
    }

    /// UniqueArgumentNames: an applied directive names each argument once (§5.4.2).
    private mutating func uniqueArgumentNames(_ arguments: [Argument]) {
        for (name, nodes) in groupedByName(arguments.map(\.name)) where nodes.count > 1 {
            report("There can be only one argument named \"\(name)\".", nodes.map(\.loc))
        }
    }

    /// ProvidedRequiredArgumentsOnDirectives: required directive arguments are given (§5.4.2.1).
    private mutating func providedRequiredArgumentsOnDirective(_ directive: Directive) {
        let name = directive.name.value
        guard let required = requiredDirectiveArguments[name], !required.isEmpty else { return }
        let given = Set(directive.arguments.map(\.name.value))
        for argument in required where !given.contains(argument.name) {
            report(
                "Directive \"@\(name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is required, but it was not provided.",
                [directive.loc])
        }
    }

    /// Names grouped by value, groups in first-appearance order.
    private func groupedByName(_ names: [Name]) -> [(String, [Name])] {
        var order: [String] = []
        var groups: [String: [Name]] = [:]
        for name in names {
            if groups[name.value] == nil { order.append(name.value) }
            groups[name.value, default: []].append(name)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }
}
