// The type system model (spec §3): value types, with types referring to each other by
// name through `TypeReference`, so the schema is a plain tree of values with no cycles.
// Built from SDL by the schema builder; read by validation, execution and introspection.

/// A reference to a type from a field, argument or input field (§3.4.1 wrapping types):
/// `[Track!]!` is `.nonNull(.list(.nonNull(.named("Track"))))`.
public indirect enum TypeReference: Hashable, Sendable, CustomStringConvertible {
    case named(String)
    case list(TypeReference)
    case nonNull(TypeReference)

    /// The innermost named type's name.
    public var namedType: String {
        switch self {
        case .named(let n): n
        case .list(let t), .nonNull(let t): t.namedType
        }
    }

    public var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The type without its outer non-null wrapper.
    public var nullable: TypeReference {
        if case .nonNull(let t) = self { return t }
        return self
    }

    /// SDL form, e.g. `[Track!]!`.
    public var description: String {
        switch self {
        case .named(let n): n
        case .list(let t): "[\(t)]"
        case .nonNull(let t): "\(t)!"
        }
    }
}

/// A named type of the schema (§3.4): one of the six kinds.
public enum GraphQLNamedType: Sendable {
    case scalar(ScalarType)
    case object(ObjectType)
    case interface(InterfaceType)
    case union(UnionType)
    case enumType(EnumType)
    case inputObject(InputObjectType)

    public var name: String {
        switch self {
        case .scalar(let t): t.name
        case .object(let t): t.name
        case .interface(let t): t.name
        case .union(let t): t.name
        case .enumType(let t): t.name
        case .inputObject(let t): t.name
        }
    }

    public var description: String? {
        switch self {
        case .scalar(let t): t.description
        case .object(let t): t.description
        case .interface(let t): t.description
        case .union(let t): t.description
        case .enumType(let t): t.description
        case .inputObject(let t): t.description
        }
    }

    /// The `__TypeKind` name (§4.2.1): `SCALAR`, `OBJECT`, `INTERFACE`, `UNION`, `ENUM`, `INPUT_OBJECT`.
    public var kind: String {
        switch self {
        case .scalar: "SCALAR"
        case .object: "OBJECT"
        case .interface: "INTERFACE"
        case .union: "UNION"
        case .enumType: "ENUM"
        case .inputObject: "INPUT_OBJECT"
        }
    }

    /// Fields of an object or interface type, in definition order; empty for other kinds.
    public var fields: [FieldDefinitionModel] {
        switch self {
        case .object(let t): t.fields
        case .interface(let t): t.fields
        default: []
        }
    }

    /// The field named `name` of an object or interface type.
    public func field(_ name: String) -> FieldDefinitionModel? {
        switch self {
        case .object(let t): t.field(name)
        case .interface(let t): t.field(name)
        default: nil
        }
    }

    /// Input types (§3.4.1 IsInputType): scalar, enum, input object.
    public var isInputType: Bool {
        switch self {
        case .scalar, .enumType, .inputObject: true
        default: false
        }
    }

    /// Output types (§3.4.1 IsOutputType): everything but input objects.
    public var isOutputType: Bool {
        if case .inputObject = self { return false }
        return true
    }

    /// Leaf types: scalar and enum (§3.5, §3.9).
    public var isLeafType: Bool {
        switch self {
        case .scalar, .enumType: true
        default: false
        }
    }

    /// Composite types: object, interface, union.
    public var isCompositeType: Bool {
        switch self {
        case .object, .interface, .union: true
        default: false
        }
    }

    /// Abstract types: interface, union (§3.7, §3.8).
    public var isAbstractType: Bool {
        switch self {
        case .interface, .union: true
        default: false
        }
    }
}

/// A scalar type (§3.5). Built-ins: Int, Float, String, Boolean, ID.
public struct ScalarType: Sendable {
    public var name: String
    public var description: String?
    /// From `@specifiedBy(url:)`.
    public var specifiedByURL: String?
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, specifiedByURL: String? = nil,
        directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.specifiedByURL = specifiedByURL
        self.directives = directives
        self.loc = loc
    }

    /// True for the five scalars of §3.5.
    public var isSpecified: Bool { ScalarType.specifiedNames.contains(name) }
    public static let specifiedNames: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]
}

/// A field of an object or interface type (§3.6).
public struct FieldDefinitionModel: Sendable {
    public var name: String
    public var description: String?
    public var arguments: [InputValueModel]
    public var type: TypeReference
    /// Non-nil when deprecated; the reason from `@deprecated(reason:)` ("No longer supported" by default).
    public var deprecationReason: String?
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, arguments: [InputValueModel] = [], type: TypeReference,
        deprecationReason: String? = nil, directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.arguments = arguments
        self.type = type
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.loc = loc
    }

    public func argument(_ name: String) -> InputValueModel? {
        arguments.first { $0.name == name }
    }
}

/// An argument, input field or directive argument (§3.6.1, §3.10).
public struct InputValueModel: Sendable {
    public var name: String
    public var description: String?
    public var type: TypeReference
    /// The default as written in SDL (a const value literal), or nil when there is none.
    public var defaultValue: Value?
    public var deprecationReason: String?
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, type: TypeReference, defaultValue: Value? = nil,
        deprecationReason: String? = nil, directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.type = type
        self.defaultValue = defaultValue
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.loc = loc
    }
}

/// An object type (§3.6). `fields` keep definition order; `field(_:)` looks up by name.
public struct ObjectType: Sendable {
    public var name: String
    public var description: String?
    public var interfaces: [String]
    public var fields: [FieldDefinitionModel] {
        didSet { fieldIndex = FieldDefinitionModel.index(fields) }
    }
    public var directives: [Directive]
    public var loc: Location
    private var fieldIndex: [String: Int]

    public init(
        name: String, description: String? = nil, interfaces: [String] = [],
        fields: [FieldDefinitionModel] = [], directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.interfaces = interfaces
        self.fields = fields
        self.directives = directives
        self.loc = loc
        self.fieldIndex = FieldDefinitionModel.index(fields)
    }

    public func field(_ name: String) -> FieldDefinitionModel? {
        fieldIndex[name].map { fields[$0] }
    }
}

/// An interface type (§3.7); interfaces may implement interfaces.
public struct InterfaceType: Sendable {
    public var name: String
    public var description: String?
    public var interfaces: [String]
    public var fields: [FieldDefinitionModel] {
        didSet { fieldIndex = FieldDefinitionModel.index(fields) }
    }
    public var directives: [Directive]
    public var loc: Location
    private var fieldIndex: [String: Int]

    public init(
        name: String, description: String? = nil, interfaces: [String] = [],
        fields: [FieldDefinitionModel] = [], directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.interfaces = interfaces
        self.fields = fields
        self.directives = directives
        self.loc = loc
        self.fieldIndex = FieldDefinitionModel.index(fields)
    }

    public func field(_ name: String) -> FieldDefinitionModel? {
        fieldIndex[name].map { fields[$0] }
    }
}

extension FieldDefinitionModel {
    /// Name → position; the first definition wins when SDL repeats a name (schema validation reports it).
    static func index(_ fields: [FieldDefinitionModel]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(fields.count)
        for (i, f) in fields.enumerated() where index[f.name] == nil { index[f.name] = i }
        return index
    }
}

/// A union type (§3.8): `types` are the member object type names in definition order.
public struct UnionType: Sendable {
    public var name: String
    public var description: String?
    public var types: [String]
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, types: [String] = [], directives: [Directive] = [],
        loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.types = types
        self.directives = directives
        self.loc = loc
    }
}

/// One value of an enum type (§3.9).
public struct EnumValueModel: Sendable {
    public var name: String
    public var description: String?
    public var deprecationReason: String?
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, deprecationReason: String? = nil,
        directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.deprecationReason = deprecationReason
        self.directives = directives
        self.loc = loc
    }
}

/// An enum type (§3.9); `values` keep definition order.
public struct EnumType: Sendable {
    public var name: String
    public var description: String?
    public var values: [EnumValueModel]
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, values: [EnumValueModel] = [], directives: [Directive] = [],
        loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.values = values
        self.directives = directives
        self.loc = loc
    }

    public func value(_ name: String) -> EnumValueModel? { values.first { $0.name == name } }
}

/// An input object type (§3.10); `isOneOf` when marked `@oneOf`.
public struct InputObjectType: Sendable {
    public var name: String
    public var description: String?
    public var fields: [InputValueModel]
    public var isOneOf: Bool
    public var directives: [Directive]
    public var loc: Location

    public init(
        name: String, description: String? = nil, fields: [InputValueModel] = [], isOneOf: Bool = false,
        directives: [Directive] = [], loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.fields = fields
        self.isOneOf = isOneOf
        self.directives = directives
        self.loc = loc
    }

    public func field(_ name: String) -> InputValueModel? { fields.first { $0.name == name } }
}

/// A directive location (§3.13 `DirectiveLocation`), raw value as written in SDL.
public enum DirectiveLocation: String, Sendable, CaseIterable {
    // ExecutableDirectiveLocation
    case query = "QUERY"
    case mutation = "MUTATION"
    case subscription = "SUBSCRIPTION"
    case field = "FIELD"
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    case fragmentSpread = "FRAGMENT_SPREAD"
    case inlineFragment = "INLINE_FRAGMENT"
    case variableDefinition = "VARIABLE_DEFINITION"
    // TypeSystemDirectiveLocation
    case schema = "SCHEMA"
    case scalar = "SCALAR"
    case object = "OBJECT"
    case fieldDefinition = "FIELD_DEFINITION"
    case argumentDefinition = "ARGUMENT_DEFINITION"
    case interface = "INTERFACE"
    case union = "UNION"
    case enumType = "ENUM"
    case enumValue = "ENUM_VALUE"
    case inputObject = "INPUT_OBJECT"
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
    case directiveDefinition = "DIRECTIVE_DEFINITION"
}

/// A directive definition (§3.13).
public struct DirectiveModel: Sendable {
    public var name: String
    public var description: String?
    public var locations: [DirectiveLocation]
    public var arguments: [InputValueModel]
    public var isRepeatable: Bool
    public var deprecationReason: String?
    public var loc: Location

    public init(
        name: String, description: String? = nil, locations: [DirectiveLocation],
        arguments: [InputValueModel] = [], isRepeatable: Bool = false, deprecationReason: String? = nil,
        loc: Location = .none
    ) {
        self.name = name
        self.description = description
        self.locations = locations
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.deprecationReason = deprecationReason
        self.loc = loc
    }

    public func argument(_ name: String) -> InputValueModel? { arguments.first { $0.name == name } }
}

/// A schema (§3.3): root operation types, named types and directives.
///
/// `typeNames` is graphql-js's type-map order: the given types in the given order, each
/// followed by the standard types (built-in scalars, introspection types) it is the first to
/// reference, then those referenced only by the directives' arguments, then the introspection
/// types. So the schema always holds `String`, `Boolean` and `__Schema`, `__Type`, … (they are
/// referenced by `@include` and by introspection), and only the other built-in scalars it uses.
/// `types` is the lookup table; `possibleTypes(of:)` answers for abstract types.
public struct Schema: Sendable {
    public var description: String?
    public var queryType: String? {
        didSet { lookup = SchemaLookup(types: types, queryType: queryType) }
    }
    public var mutationType: String?
    public var subscriptionType: String?
    public var types: [String: GraphQLNamedType] {
        didSet { lookup = SchemaLookup(types: types, queryType: queryType) }
    }
    public var typeNames: [String]
    public var directives: [DirectiveModel]
    /// Interface name → object types that implement it, in type definition order.
    public var implementations: [String: [String]]
    /// Interface name → interface types that implement it, in type definition order.
    public var interfaceImplementations: [String: [String]]
    /// Directives applied to the `schema` definition and its extensions.
    public var schemaDirectives: [Directive]
    /// Kinds and field definitions by name, kept in step with `types` and `queryType`.
    private(set) var lookup: SchemaLookup

    /// - Parameters:
    ///   - types: the schema's own types, in definition order; when a name repeats, the first
    ///     wins. Built-in scalars and introspection types need not be listed: the ones the schema
    ///     references are added (as graphql-js's `GraphQLSchema` constructor collects them).
    ///   - directives: every directive of the schema, built-in ones included (`buildSchema` adds
    ///     `DirectiveModel.specifiedDirectives` that the SDL does not redefine).
    public init(
        description: String? = nil, queryType: String?, mutationType: String? = nil,
        subscriptionType: String? = nil, types: [GraphQLNamedType], directives: [DirectiveModel],
        schemaDirectives: [Directive] = []
    ) {
        self.description = description
        self.queryType = queryType
        self.mutationType = mutationType
        self.subscriptionType = subscriptionType
        self.directives = directives
        self.schemaDirectives = schemaDirectives

        var collector = ReferencedTypeCollector(types)
        for type in types { collector.collect(type.name, given: true) }
        for root in [queryType, mutationType, subscriptionType] {
            if let root { collector.collect(root) }
        }
        for directive in directives {
            for argument in directive.arguments { collector.collect(argument.type.namedType) }
        }
        collector.collect("__Schema")

        var impls: [String: [String]] = [:]
        var interfaceImpls: [String: [String]] = [:]
        for name in collector.order {
            switch collector.table[name] {
            case .object(let o): for i in o.interfaces { impls[i, default: []].append(o.name) }
            case .interface(let t): for i in t.interfaces { interfaceImpls[i, default: []].append(t.name) }
            default: break
            }
        }
        self.types = collector.table
        self.lookup = SchemaLookup(types: collector.table, queryType: queryType)
        self.typeNames = collector.order
        self.implementations = impls
        self.interfaceImplementations = interfaceImpls
    }

    public subscript(typeName: String) -> GraphQLNamedType? { types[typeName] }

    /// The root type name for an operation type (§3.3.1), or nil when the schema lacks it.
    public func rootTypeName(for operation: OperationType) -> String? {
        switch operation {
        case .query: queryType
        case .mutation: mutationType
        case .subscription: subscriptionType
        }
    }

    public func directive(_ name: String) -> DirectiveModel? { directives.first { $0.name == name } }

    /// The object types an abstract type may resolve to (§3.7 interfaces, §3.8 unions);
    /// `[name]` for an object type; empty for other kinds.
    public func possibleTypes(of typeName: String) -> [String] {
        switch types[typeName] {
        case .object: [typeName]
        case .interface: implementations[typeName] ?? []
        case .union(let u): u.types
        default: []
        }
    }

    /// Whether `objectType` is a possible type of `abstractType` (or is it).
    public func isPossibleType(_ abstractType: String, _ objectType: String) -> Bool {
        possibleTypes(of: abstractType).contains(objectType)
    }
}

/// graphql-js's `collectReferencedTypes`: a depth-first walk that puts each type in the type
/// map the first time it is reached, right after the type that reached it.
private struct ReferencedTypeCollector {
    var table: [String: GraphQLNamedType] = [:]
    var order: [String] = []
    /// The given types not yet placed: the walk skips them, they take their own place later.
    private var pending: Set<String> = []
    private var placed: Set<String> = []

    init(_ given: [GraphQLNamedType]) {
        for type in given where table[type.name] == nil {
            table[type.name] = type
            pending.insert(type.name)
        }
    }

    /// Places `name` (a given type when `given`, else a reference) and what it references.
    mutating func collect(_ name: String, given: Bool = false) {
        if given {
            guard pending.remove(name) != nil else { return }
        } else {
            if pending.contains(name) || placed.contains(name) { return }
            if table[name] == nil {
                // A reference to a type the schema lacks is schema validation's business.
                guard let standard = GraphQLNamedType.standardTypes[name] else { return }
                table[name] = standard
            }
        }
        placed.insert(name)
        order.append(name)
        guard let type = table[name] else { return }
        switch type {
        case .union(let u):
            for member in u.types { collect(member) }
        case .object(let o):
            walkFields(interfaces: o.interfaces, fields: o.fields)
        case .interface(let i):
            walkFields(interfaces: i.interfaces, fields: i.fields)
        case .inputObject(let input):
            for field in input.fields { collect(field.type.namedType) }
        case .scalar, .enumType:
            break
        }
    }

    private mutating func walkFields(interfaces: [String], fields: [FieldDefinitionModel]) {
        for i in interfaces { collect(i) }
        for field in fields {
            collect(field.type.namedType)
            for argument in field.arguments { collect(argument.type.namedType) }
        }
    }
}
