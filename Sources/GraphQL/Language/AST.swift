// The GraphQL abstract syntax tree (spec §2 executable grammar, §3 type system grammar).
//
// Value types named after graphql-js's node kinds (`src/language/ast.ts`), each with a
// `loc` of byte offsets into the parsed `Source`. Alternatives (a definition, a
// selection, a value, a type reference) are enums whose cases carry the node structs.

/// A name token (§2.1.9): `value` is the name, `loc` its place in the source.
public struct Name: Hashable, Sendable {
    public var value: String
    public var loc: Location
    public init(_ value: String, loc: Location = .none) {
        self.value = value
        self.loc = loc
    }
}

/// `Document : Definition+` (§2.2).
public struct Document: Sendable {
    public var definitions: [Definition]
    public var loc: Location
    public init(definitions: [Definition], loc: Location = .none) {
        self.definitions = definitions
        self.loc = loc
    }
}

/// `Definition : ExecutableDefinition | TypeSystemDefinitionOrExtension` (§2.2).
///
/// Boxed: a document's list of definitions then holds one pointer each, not room for the
/// largest definition kind, and never copies thousands of them when it grows.
public indirect enum Definition: Sendable {
    case operation(OperationDefinition)
    case fragment(FragmentDefinition)
    case schema(SchemaDefinition)
    case scalarType(ScalarTypeDefinition)
    case objectType(ObjectTypeDefinition)
    case interfaceType(InterfaceTypeDefinition)
    case unionType(UnionTypeDefinition)
    case enumType(EnumTypeDefinition)
    case inputObjectType(InputObjectTypeDefinition)
    case directive(DirectiveDefinition)
    case schemaExtension(SchemaExtension)
    case scalarTypeExtension(ScalarTypeExtension)
    case objectTypeExtension(ObjectTypeExtension)
    case interfaceTypeExtension(InterfaceTypeExtension)
    case unionTypeExtension(UnionTypeExtension)
    case enumTypeExtension(EnumTypeExtension)
    case inputObjectTypeExtension(InputObjectTypeExtension)

    /// The definition's source location.
    public var loc: Location {
        switch self {
        case .operation(let d): d.loc
        case .fragment(let d): d.loc
        case .schema(let d): d.loc
        case .scalarType(let d): d.loc
        case .objectType(let d): d.loc
        case .interfaceType(let d): d.loc
        case .unionType(let d): d.loc
        case .enumType(let d): d.loc
        case .inputObjectType(let d): d.loc
        case .directive(let d): d.loc
        case .schemaExtension(let d): d.loc
        case .scalarTypeExtension(let d): d.loc
        case .objectTypeExtension(let d): d.loc
        case .interfaceTypeExtension(let d): d.loc
        case .unionTypeExtension(let d): d.loc
        case .enumTypeExtension(let d): d.loc
        case .inputObjectTypeExtension(let d): d.loc
        }
    }

    /// True for `OperationDefinition` and `FragmentDefinition` (§2.2 ExecutableDefinition).
    public var isExecutable: Bool {
        switch self {
        case .operation, .fragment: true
        default: false
        }
    }
}

// MARK: - Executable definitions (§2.3–§2.8)

/// `OperationType : one of query mutation subscription` (§2.3).
public enum OperationType: String, Sendable, Hashable {
    case query, mutation, subscription
}

/// `OperationDefinition : Description? OperationType Name? VariablesDefinition? Directives? SelectionSet | SelectionSet` (§2.3).
/// A shorthand `{ … }` query has `operation == .query`, no name and `isShorthand == true`.
public struct OperationDefinition: Sendable {
    public var description: StringValue?
    public var operation: OperationType
    public var name: Name?
    public var variableDefinitions: [VariableDefinition]
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var loc: Location
    public init(
        description: StringValue? = nil, operation: OperationType, name: Name? = nil,
        variableDefinitions: [VariableDefinition] = [], directives: [Directive] = [],
        selectionSet: SelectionSet, loc: Location = .none
    ) {
        self.description = description
        self.operation = operation
        self.name = name
        self.variableDefinitions = variableDefinitions
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }

    /// True for the shorthand form `{ … }`: an anonymous query with no variables, directives
    /// or description that, when parsed, was written without the `query` keyword.
    public var isShorthand: Bool {
        operation == .query && name == nil && variableDefinitions.isEmpty && directives.isEmpty && description == nil
            && (loc.start < 0 || loc.start == selectionSet.loc.start)
    }
}

/// `VariableDefinition : Description? Variable : Type DefaultValue? Directives[Const]?` (§2.10).
public struct VariableDefinition: Sendable {
    public var description: StringValue?
    public var variable: Variable
    public var type: TypeNode
    public var defaultValue: Value?
    public var directives: [Directive]
    public var loc: Location
    public init(
        description: StringValue? = nil, variable: Variable, type: TypeNode, defaultValue: Value? = nil,
        directives: [Directive] = [], loc: Location = .none
    ) {
        self.description = description
        self.variable = variable
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.loc = loc
    }
}

/// `SelectionSet : { Selection+ }` (§2.4).
public struct SelectionSet: Sendable {
    public var selections: [Selection]
    public var loc: Location
    public init(selections: [Selection], loc: Location = .none) {
        self.selections = selections
        self.loc = loc
    }
}

/// `Selection : Field | FragmentSpread | InlineFragment` (§2.4).
public enum Selection: Sendable {
    case field(Field)
    case fragmentSpread(FragmentSpread)
    case inlineFragment(InlineFragment)

    public var loc: Location {
        switch self {
        case .field(let n): n.loc
        case .fragmentSpread(let n): n.loc
        case .inlineFragment(let n): n.loc
        }
    }

    public var directives: [Directive] {
        switch self {
        case .field(let n): n.directives
        case .fragmentSpread(let n): n.directives
        case .inlineFragment(let n): n.directives
        }
    }
}

/// `Field : Alias? Name Arguments? Directives? SelectionSet?` (§2.5, §2.7).
public struct Field: Sendable {
    public var alias: Name?
    public var name: Name
    public var arguments: [Argument]
    public var directives: [Directive]
    public var selectionSet: SelectionSet?
    public var loc: Location
    public init(
        alias: Name? = nil, name: Name, arguments: [Argument] = [], directives: [Directive] = [],
        selectionSet: SelectionSet? = nil, loc: Location = .none
    ) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }

    /// The key of this field in the response: the alias if present, else the name (§2.7).
    public var responseKey: String { alias?.value ?? name.value }
}

/// `Argument : Name : Value` (§2.6).
public struct Argument: Sendable {
    public var name: Name
    public var value: Value
    public var loc: Location
    public init(name: Name, value: Value, loc: Location = .none) {
        self.name = name
        self.value = value
        self.loc = loc
    }
}

/// `FragmentSpread : ... FragmentName Directives?` (§2.8).
public struct FragmentSpread: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var loc: Location
    public init(name: Name, directives: [Directive] = [], loc: Location = .none) {
        self.name = name
        self.directives = directives
        self.loc = loc
    }
}

/// `InlineFragment : ... TypeCondition? Directives? SelectionSet` (§2.8.2).
public struct InlineFragment: Sendable {
    public var typeCondition: NamedType?
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var loc: Location
    public init(
        typeCondition: NamedType? = nil, directives: [Directive] = [], selectionSet: SelectionSet,
        loc: Location = .none
    ) {
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }
}

/// `FragmentDefinition : Description? fragment FragmentName TypeCondition Directives? SelectionSet` (§2.8).
public struct FragmentDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var typeCondition: NamedType
    public var directives: [Directive]
    public var selectionSet: SelectionSet
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, typeCondition: NamedType,
        directives: [Directive] = [], selectionSet: SelectionSet, loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.loc = loc
    }
}

// MARK: - Values (§2.9)

/// `Value[Const] : Variable | IntValue | FloatValue | StringValue | BooleanValue | NullValue | EnumValue | ListValue | ObjectValue` (§2.9).
public enum Value: Sendable {
    case variable(Variable)
    case int(IntValue)
    case float(FloatValue)
    case string(StringValue)
    case boolean(BooleanValue)
    case null(NullValue)
    case enumValue(EnumValue)
    case list(ListValue)
    case object(ObjectValue)

    public var loc: Location {
        switch self {
        case .variable(let v): v.loc
        case .int(let v): v.loc
        case .float(let v): v.loc
        case .string(let v): v.loc
        case .boolean(let v): v.loc
        case .null(let v): v.loc
        case .enumValue(let v): v.loc
        case .list(let v): v.loc
        case .object(let v): v.loc
        }
    }
}

/// `Variable : $ Name` (§2.10).
public struct Variable: Sendable {
    public var name: Name
    public var loc: Location
    public init(name: Name, loc: Location = .none) {
        self.name = name
        self.loc = loc
    }
}

/// `IntValue` (§2.9.1); `value` is the source text, e.g. `"-12"`.
public struct IntValue: Sendable {
    public var value: String
    public var loc: Location
    public init(value: String, loc: Location = .none) {
        self.value = value
        self.loc = loc
    }
}

/// `FloatValue` (§2.9.2); `value` is the source text, e.g. `"1.5e3"`.
public struct FloatValue: Sendable {
    public var value: String
    public var loc: Location
    public init(value: String, loc: Location = .none) {
        self.value = value
        self.loc = loc
    }
}

/// `StringValue` (§2.9.4): `value` is the cooked string (escapes resolved, block strings
/// through BlockStringValue()); `block` records the `"""` form for the printer.
///
/// A parsed description keeps only its source range and cooks `value` each time it is read:
/// descriptions are most of a large SDL document's text and are read rarely (printing,
/// building a schema), so the AST does not hold a second copy of them.
public struct StringValue: Sendable {
    /// The cooked string.
    public var value: String {
        get {
            switch storage {
            case .cooked(let value): value
            case .source(let bytes): cookedString(in: bytes, at: loc.start, block: block)
            }
        }
        set { storage = .cooked(newValue) }
    }
    // Declared first so `block` and `loc` pack into the padding after it.
    private var storage: Storage
    public var block: Bool
    public var loc: Location

    private enum Storage: Sendable {
        case cooked(String)
        /// The whole document's bytes; the token is at `loc`.
        case source([UInt8])
    }

    public init(value: String, block: Bool = false, loc: Location = .none) {
        self.storage = .cooked(value)
        self.block = block
        self.loc = loc
    }

    /// A string token already lexed (so known to be well formed) at `loc` in `source`.
    init(lexedIn source: [UInt8], block: Bool, loc: Location) {
        self.storage = .source(source)
        self.block = block
        self.loc = loc
    }
}

/// `BooleanValue : one of true false` (§2.9.3).
public struct BooleanValue: Sendable {
    public var value: Bool
    public var loc: Location
    public init(value: Bool, loc: Location = .none) {
        self.value = value
        self.loc = loc
    }
}

/// `NullValue : null` (§2.9.5).
public struct NullValue: Sendable {
    public var loc: Location
    public init(loc: Location = .none) { self.loc = loc }
}

/// `EnumValue : Name but not true, false or null` (§2.9.6).
public struct EnumValue: Sendable {
    public var value: String
    public var loc: Location
    public init(value: String, loc: Location = .none) {
        self.value = value
        self.loc = loc
    }
}

/// `ListValue : [ ] | [ Value+ ]` (§2.9.7).
public struct ListValue: Sendable {
    public var values: [Value]
    public var loc: Location
    public init(values: [Value], loc: Location = .none) {
        self.values = values
        self.loc = loc
    }
}

/// `ObjectValue : { } | { ObjectField+ }` (§2.9.8); fields keep source order.
public struct ObjectValue: Sendable {
    public var fields: [ObjectField]
    public var loc: Location
    public init(fields: [ObjectField], loc: Location = .none) {
        self.fields = fields
        self.loc = loc
    }
}

/// `ObjectField : Name : Value` (§2.9.8).
public struct ObjectField: Sendable {
    public var name: Name
    public var value: Value
    public var loc: Location
    public init(name: Name, value: Value, loc: Location = .none) {
        self.name = name
        self.value = value
        self.loc = loc
    }
}

// MARK: - Directives and type references (§2.12, §2.11)

/// `Directive : @ Name Arguments?` (§2.12).
public struct Directive: Sendable {
    public var name: Name
    public var arguments: [Argument]
    public var loc: Location
    public init(name: Name, arguments: [Argument] = [], loc: Location = .none) {
        self.name = name
        self.arguments = arguments
        self.loc = loc
    }
}

/// `Type : NamedType | ListType | NonNullType` (§2.11).
///
/// Only the wrapping cases are boxed: a named type, the most common reference, stays inline.
public enum TypeNode: Sendable {
    case named(NamedType)
    indirect case list(ListType)
    indirect case nonNull(NonNullType)

    public var loc: Location {
        switch self {
        case .named(let t): t.loc
        case .list(let t): t.loc
        case .nonNull(let t): t.loc
        }
    }

    /// The innermost named type, e.g. `Track` for `[Track!]!`.
    public var namedType: NamedType {
        switch self {
        case .named(let t): t
        case .list(let t): t.type.namedType
        case .nonNull(let t): t.type.namedType
        }
    }
}

/// `NamedType : Name` (§2.11).
///
/// A named type spans exactly its name, so its location is the name's rather than a second
/// stored copy (type references are among the most numerous nodes of an SDL document).
public struct NamedType: Sendable {
    public var name: Name
    public var loc: Location {
        get { name.loc }
        set { name.loc = newValue }
    }
    /// `loc`, when given, becomes the name's location too.
    public init(name: Name, loc: Location = .none) {
        self.name = name
        if loc != .none { self.name.loc = loc }
    }
}

/// `ListType : [ Type ]` (§2.11).
public struct ListType: Sendable {
    public var type: TypeNode
    public var loc: Location
    public init(type: TypeNode, loc: Location = .none) {
        self.type = type
        self.loc = loc
    }
}

/// `NonNullType : NamedType ! | ListType !` (§2.11); `type` is never `.nonNull`.
public struct NonNullType: Sendable {
    public var type: TypeNode
    public var loc: Location
    public init(type: TypeNode, loc: Location = .none) {
        self.type = type
        self.loc = loc
    }
}

// MARK: - Type system definitions (§3)

/// `SchemaDefinition : Description? schema Directives[Const]? { RootOperationTypeDefinition+ }` (§3.3).
public struct SchemaDefinition: Sendable {
    public var description: StringValue?
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var loc: Location
    public init(
        description: StringValue? = nil, directives: [Directive] = [],
        operationTypes: [OperationTypeDefinition], loc: Location = .none
    ) {
        self.description = description
        self.directives = directives
        self.operationTypes = operationTypes
        self.loc = loc
    }
}

/// `RootOperationTypeDefinition : OperationType : NamedType` (§3.3.1).
public struct OperationTypeDefinition: Sendable {
    public var operation: OperationType
    public var type: NamedType
    public var loc: Location
    public init(operation: OperationType, type: NamedType, loc: Location = .none) {
        self.operation = operation
        self.type = type
        self.loc = loc
    }
}

/// `ScalarTypeDefinition : Description? scalar Name Directives[Const]?` (§3.5).
public struct ScalarTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var loc: Location
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], loc: Location = .none) {
        self.description = description
        self.name = name
        self.directives = directives
        self.loc = loc
    }
}

/// `ObjectTypeDefinition : Description? type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?` (§3.6).
public struct ObjectTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [],
        directives: [Directive] = [], fields: [FieldDefinition] = [], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.loc = loc
    }
}

/// `FieldDefinition : Description? Name ArgumentsDefinition? : Type Directives[Const]?` (§3.6).
public struct FieldDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var type: TypeNode
    public var directives: [Directive]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        type: TypeNode, directives: [Directive] = [], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.type = type
        self.directives = directives
        self.loc = loc
    }
}

/// `InputValueDefinition : Description? Name : Type DefaultValue? Directives[Const]?` (§3.6.1).
public struct InputValueDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var type: TypeNode
    public var defaultValue: Value?
    public var directives: [Directive]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, type: TypeNode, defaultValue: Value? = nil,
        directives: [Directive] = [], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.loc = loc
    }
}

/// `InterfaceTypeDefinition : Description? interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?` (§3.7).
public struct InterfaceTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [],
        directives: [Directive] = [], fields: [FieldDefinition] = [], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.loc = loc
    }
}

/// `UnionTypeDefinition : Description? union Name Directives[Const]? UnionMemberTypes?` (§3.8).
public struct UnionTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], types: [NamedType] = [],
        loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.types = types
        self.loc = loc
    }
}

/// `EnumTypeDefinition : Description? enum Name Directives[Const]? EnumValuesDefinition?` (§3.9).
public struct EnumTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        values: [EnumValueDefinition] = [], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.values = values
        self.loc = loc
    }
}

/// `EnumValueDefinition : Description? EnumValue Directives[Const]?` (§3.9).
public struct EnumValueDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var loc: Location
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], loc: Location = .none) {
        self.description = description
        self.name = name
        self.directives = directives
        self.loc = loc
    }
}

/// `InputObjectTypeDefinition : Description? input Name Directives[Const]? InputFieldsDefinition?` (§3.10).
public struct InputObjectTypeDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        fields: [InputValueDefinition] = [], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.directives = directives
        self.fields = fields
        self.loc = loc
    }
}

/// `DirectiveDefinition : Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations` (§3.13).
/// `locations` keeps the location names as written (`FIELD`, `OBJECT`, …).
public struct DirectiveDefinition: Sendable {
    public var description: StringValue?
    public var name: Name
    public var arguments: [InputValueDefinition]
    public var repeatable: Bool
    public var locations: [Name]
    public var loc: Location
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        repeatable: Bool = false, locations: [Name], loc: Location = .none
    ) {
        self.description = description
        self.name = name
        self.arguments = arguments
        self.repeatable = repeatable
        self.locations = locations
        self.loc = loc
    }
}

// MARK: - Type system extensions (§3.4, §3.5.1–§3.10.1)

/// `SchemaExtension : extend schema Directives[Const]? { RootOperationTypeDefinition+ } | extend schema Directives[Const]` (§3.3.2).
public struct SchemaExtension: Sendable {
    public var directives: [Directive]
    public var operationTypes: [OperationTypeDefinition]
    public var loc: Location
    public init(directives: [Directive] = [], operationTypes: [OperationTypeDefinition] = [], loc: Location = .none) {
        self.directives = directives
        self.operationTypes = operationTypes
        self.loc = loc
    }
}

/// `ScalarTypeExtension : extend scalar Name Directives[Const]` (§3.5.1).
public struct ScalarTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var loc: Location
    public init(name: Name, directives: [Directive] = [], loc: Location = .none) {
        self.name = name
        self.directives = directives
        self.loc = loc
    }
}

/// `ObjectTypeExtension : extend type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?` (§3.6.3).
public struct ObjectTypeExtension: Sendable {
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var loc: Location
    public init(
        name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], loc: Location = .none
    ) {
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.loc = loc
    }
}

/// `InterfaceTypeExtension : extend interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?` (§3.7.1).
public struct InterfaceTypeExtension: Sendable {
    public var name: Name
    public var interfaces: [NamedType]
    public var directives: [Directive]
    public var fields: [FieldDefinition]
    public var loc: Location
    public init(
        name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], loc: Location = .none
    ) {
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.loc = loc
    }
}

/// `UnionTypeExtension : extend union Name Directives[Const]? UnionMemberTypes?` (§3.8.1).
public struct UnionTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var types: [NamedType]
    public var loc: Location
    public init(name: Name, directives: [Directive] = [], types: [NamedType] = [], loc: Location = .none) {
        self.name = name
        self.directives = directives
        self.types = types
        self.loc = loc
    }
}

/// `EnumTypeExtension : extend enum Name Directives[Const]? EnumValuesDefinition?` (§3.9.1).
public struct EnumTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var values: [EnumValueDefinition]
    public var loc: Location
    public init(name: Name, directives: [Directive] = [], values: [EnumValueDefinition] = [], loc: Location = .none) {
        self.name = name
        self.directives = directives
        self.values = values
        self.loc = loc
    }
}

/// `InputObjectTypeExtension : extend input Name Directives[Const]? InputFieldsDefinition?` (§3.10.1).
public struct InputObjectTypeExtension: Sendable {
    public var name: Name
    public var directives: [Directive]
    public var fields: [InputValueDefinition]
    public var loc: Location
    public init(name: Name, directives: [Directive] = [], fields: [InputValueDefinition] = [], loc: Location = .none) {
        self.name = name
        self.directives = directives
        self.fields = fields
        self.loc = loc
    }
}
