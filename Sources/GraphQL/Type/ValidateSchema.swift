// Schema validation: spec §3 "Type Validation" sub-sections as graphql-js `validateSchema`
// checks them (root types, directives, then every type in type-map order), messages worded
// as graphql-js words them. One addition: default values must fit their type (graphql-js 16
// drops a default that does not; we refuse the schema, as graphql-js 17 does).

/// Validates a schema built in code (§3 "Type Validation"); the errors carry no locations.
///
/// Schemas from `buildSchema` are validated when built, with locations.
///
/// - Returns: every problem, in graphql-js's order; empty for a valid schema.
public func validateSchema(_ schema: Schema) -> [GraphQLError] {
    var context = SchemaValidationContext(schema: schema, nodes: SDLNodeIndex(), source: nil)
    context.validate()
    return context.errors
}

/// Validates a schema built from `document` (§3 "Type Validation"), locating each error in `source`.
func validateSchema(_ schema: Schema, document: Document, source: Source) -> [GraphQLError] {
    var context = SchemaValidationContext(schema: schema, nodes: SDLNodeIndex(document), source: source)
    context.validate()
    return context.errors
}

/// graphql-js `SchemaValidationContext`: the schema, where its parts were written, the errors.
struct SchemaValidationContext {
    let schema: Schema
    let nodes: SDLNodeIndex
    let source: Source?
    private(set) var errors: [GraphQLError] = []
    var coercer: DefaultValueCoercer

    init(schema: Schema, nodes: SDLNodeIndex, source: Source?) {
        self.schema = schema
        self.nodes = nodes
        self.source = source
        self.coercer = DefaultValueCoercer(schema: schema)
    }

    mutating func report(_ message: String, _ locations: [Location?]) {
        let known = locations.compactMap { $0 }
        if let source {
            errors.append(GraphQLError(message, at: known, in: source))
        } else {
            errors.append(GraphQLError(message))
        }
    }

    mutating func validate() {
        validateRootTypes()
        validateDirectives()
        validateTypes()
    }

    // MARK: - Root operation types (§3.3.1)

    private mutating func validateRootTypes() {
        guard let query = schema.queryType else {
            report("Query root type must be provided.", [nodes.schemaDefinition?.loc])
            validateOptionalRoot(.mutation, schema.mutationType)
            validateOptionalRoot(.subscription, schema.subscriptionType)
            return
        }
        if !isObjectType(query) {
            report(
                "Query root type must be Object type, it cannot be \(query).",
                [nodes.operationTypeLocation(.query) ?? definitionLocation(query)])
        }
        validateOptionalRoot(.mutation, schema.mutationType)
        validateOptionalRoot(.subscription, schema.subscriptionType)
    }

    private mutating func validateOptionalRoot(_ operation: OperationType, _ name: String?) {
        guard let name, !isObjectType(name) else { return }
        let title = operation == .mutation ? "Mutation" : "Subscription"
        report(
            "\(title) root type must be Object type if provided, it cannot be \(name).",
            [nodes.operationTypeLocation(operation) ?? definitionLocation(name)])
    }

    // MARK: - Directives (§3.13)

    private mutating func validateDirectives() {
        for directive in schema.directives {
            validateName(directive.name, directive.loc)
            if directive.locations.isEmpty {
                report("Directive @\(directive.name) must include 1 or more locations.", [directive.loc])
            }
            for argument in directive.arguments {
                validateName(argument.name, argument.loc)
                if !isInputType(argument.type) {
                    report(
                        "The type of @\(directive.name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                        [argument.loc])
                }
                let typeNode = nodes.directiveArgument(directive.name, argument.name)?.type.loc
                if isRequired(argument) && argument.deprecationReason != nil {
                    report(
                        "Required argument @\(directive.name)(\(argument.name):) cannot be deprecated.",
                        [deprecatedDirectiveLocation(argument), typeNode])
                }
                validateDefaultValue(argument, "Argument @\(directive.name)(\(argument.name):)")
            }
        }
    }

    // MARK: - Types (§3.4–§3.10)

    private mutating func validateTypes() {
        var cycles = InputObjectCircularRefsValidator()
        for name in schema.typeNames {
            guard let type = schema.types[name] else { continue }
            // The standard types are valid by construction (and exempt from the `__` rule).
            if type.isStandardType && GraphQLNamedType.standardTypes[name] != nil { continue }
            validateName(name, definitionLocation(name))
            switch type {
            case .object(let object):
                validateFields(object.name, object.fields)
                validateInterfaces(object.name, object.interfaces, isInterface: false)
            case .interface(let interface):
                validateFields(interface.name, interface.fields)
                validateInterfaces(interface.name, interface.interfaces, isInterface: true)
            case .union(let union):
                validateUnionMembers(union)
            case .enumType(let e):
                validateEnumValues(e)
            case .inputObject(let input):
                validateInputFields(input)
                cycles.check(input, in: &self)
            case .scalar:
                break
            }
        }
    }

    private mutating func validateFields(_ typeName: String, _ fields: [FieldDefinitionModel]) {
        if fields.isEmpty {
            report("Type \(typeName) must define one or more fields.", nodes.typeLocations(typeName))
        }
        for field in fields {
            validateName(field.name, field.loc)
            let fieldNode = nodes.field(typeName, field.name)
            if !isOutputType(field.type) {
                report(
                    "The type of \(typeName).\(field.name) must be Output Type but got: \(field.type).",
                    [fieldNode?.type.loc])
            }
            for argument in field.arguments {
                validateName(argument.name, argument.loc)
                let typeNode = fieldNode?.arguments.first { $0.name.value == argument.name }?.type.loc
                if !isInputType(argument.type) {
                    report(
                        "The type of \(typeName).\(field.name)(\(argument.name):) must be Input Type but got: \(argument.type).",
                        [typeNode])
                }
                if isRequired(argument) && argument.deprecationReason != nil {
                    report(
                        "Required argument \(typeName).\(field.name)(\(argument.name):) cannot be deprecated.",
                        [deprecatedDirectiveLocation(argument), typeNode])
                }
                validateDefaultValue(argument, "Argument \(typeName).\(field.name)(\(argument.name):)")
            }
        }
    }

    private mutating func validateUnionMembers(_ union: UnionType) {
        if union.types.isEmpty {
            report("Union type \(union.name) must define one or more member types.", nodes.typeLocations(union.name))
        }
        var included: Set<String> = []
        for member in union.types {
            if isObjectType(member) {
                if !included.insert(member).inserted {
                    report(
                        "Union type \(union.name) can only include type \(member) once.",
                        nodes.unionMemberLocations(union.name, member))
                }
            } else {
                report(
                    "Union type \(union.name) can only include Object types, it cannot include \(member).",
                    nodes.unionMemberLocations(union.name, member))
            }
        }
    }

    private mutating func validateEnumValues(_ e: EnumType) {
        if e.values.isEmpty {
            report("Enum type \(e.name) must define one or more values.", nodes.typeLocations(e.name))
        }
        for value in e.values { validateName(value.name, value.loc) }
    }

    private mutating func validateInputFields(_ input: InputObjectType) {
        if input.fields.isEmpty {
            report("Input Object type \(input.name) must define one or more fields.", nodes.typeLocations(input.name))
        }
        for field in input.fields {
            validateName(field.name, field.loc)
            let typeNode = nodes.inputField(input.name, field.name)?.type.loc
            if !isInputType(field.type) {
                report("The type of \(input.name).\(field.name) must be Input Type but got: \(field.type).", [typeNode])
            }
            if isRequired(field) && field.deprecationReason != nil {
                report(
                    "Required input field \(input.name).\(field.name) cannot be deprecated.",
                    [deprecatedDirectiveLocation(field), typeNode])
            }
            let hasValidDefault = validateDefaultValue(field, "Input field \(input.name).\(field.name)")
            if input.isOneOf {
                if field.type.isNonNull {
                    report("OneOf input field \(input.name).\(field.name) must be nullable.", [typeNode])
                }
                if hasValidDefault {
                    report("OneOf input field \(input.name).\(field.name) cannot have a default value.", [field.loc])
                }
            }
        }
    }

    // MARK: - Shared checks

    /// §3.1 "Names": names starting with `__` belong to introspection.
    mutating func validateName(_ name: String, _ loc: Location?) {
        if name.hasPrefix("__") {
            report("Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", [loc])
        }
    }

    /// Reports a default value that does not fit its input type (§3.6.1, §3.10 "DefaultValue
    /// must be compatible with the type"); true when there is a default and it fits.
    @discardableResult
    private mutating func validateDefaultValue(_ value: InputValueModel, _ coordinate: String) -> Bool {
        guard let literal = value.defaultValue, isInputType(value.type) else { return false }
        if coercer.coerce(literal, to: value.type) != nil { return true }
        report("\(coordinate) has invalid default value: \(print(literal)).", [literal.loc])
        return false
    }

    /// graphql-js `isRequiredArgument` / `isRequiredInputField`: non-null without a default.
    func isRequired(_ value: InputValueModel) -> Bool {
        value.type.isNonNull && value.defaultValue == nil
    }

    func deprecatedDirectiveLocation(_ value: InputValueModel) -> Location? {
        value.directives.first { $0.name.value == DirectiveModel.deprecated.name }?.loc
    }

    func definitionLocation(_ typeName: String) -> Location? {
        nodes.typeLocations(typeName).first
    }

    func isObjectType(_ name: String) -> Bool {
        if case .object = schema.types[name] { return true }
        return false
    }

    func isInterfaceType(_ name: String) -> Bool {
        if case .interface = schema.types[name] { return true }
        return false
    }

    /// An unknown name counts as fitting: SDL validation has reported it already.
    private func isInputType(_ type: TypeReference) -> Bool {
        schema.types[type.namedType]?.isInputType ?? true
    }

    private func isOutputType(_ type: TypeReference) -> Bool {
        schema.types[type.namedType]?.isOutputType ?? true
    }
}

/// Input object cycles through non-null fields (§3.10 "Input Objects" rule 5): such a type
/// has no finite value. A depth-first walk over non-null input-object fields that reports
/// every cycle once, naming its field path (graphql-js `createInputObjectCircularRefsValidator`).
struct InputObjectCircularRefsValidator {
    private var visited: Set<String> = []
    private var fieldPath: [(name: String, loc: Location)] = []
    private var pathIndexByType: [String: Int] = [:]

    mutating func check(_ input: InputObjectType, in context: inout SchemaValidationContext) {
        guard visited.insert(input.name).inserted else { return }
        pathIndexByType[input.name] = fieldPath.count
        for field in input.fields {
            guard case .nonNull(.named(let target)) = field.type,
                case .inputObject(let targetType) = context.schema.types[target]
            else { continue }
            fieldPath.append((field.name, field.loc))
            if let cycleStart = pathIndexByType[target] {
                let cycle = fieldPath[cycleStart...]
                context.report(
                    "Cannot reference Input Object \"\(target)\" within itself through a series of non-null fields: \"\(cycle.map(\.name).joined(separator: "."))\".",
                    cycle.map(\.loc))
            } else {
                check(targetType, in: &context)
            }
            fieldPath.removeLast()
        }
        pathIndexByType[input.name] = nil
    }
}
