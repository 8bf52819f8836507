// Lookups that validation and execution make per field node, answered from tables built
// once per schema. `Schema.types` holds `GraphQLNamedType` enums whose payloads are
// structs of arrays and dictionaries: reading one out of the dictionary copies it (a
// retain and release per payload member), which profiling showed at 11–19% of validating
// large documents. These tables hold trivially copyable kinds and shared field entries.

/// The kind of a named type (§3.4), without its payload.
enum TypeKind: UInt8, Sendable {
    case scalar, object, interface, union, enumType, inputObject

    init(_ type: GraphQLNamedType) {
        switch type {
        case .scalar: self = .scalar
        case .object: self = .object
        case .interface: self = .interface
        case .union: self = .union
        case .enumType: self = .enumType
        case .inputObject: self = .inputObject
        }
    }

    /// §3.4.1 IsInputType.
    var isInputType: Bool { self == .scalar || self == .enumType || self == .inputObject }
    /// §3.4.1 IsOutputType.
    var isOutputType: Bool { self != .inputObject }
    var isLeafType: Bool { self == .scalar || self == .enumType }
    var isCompositeType: Bool { self == .object || self == .interface || self == .union }
    var isAbstractType: Bool { self == .interface || self == .union }
}

/// A field definition as the lookup table holds it: shared, so that handing it out costs
/// one retain, not a copy of the definition.
final class FieldEntry: Sendable {
    let definition: FieldDefinitionModel
    /// The field's type when it is an output type (§3.4.1), else nil (graphql-js `TypeInfo`
    /// then tracks no type).
    let outputType: TypeReference?
    /// One of §4.1's meta-fields (`__typename`, `__schema`, `__type`), which belong to no
    /// type's field list.
    let isMetaField: Bool

    init(_ definition: FieldDefinitionModel, outputType: TypeReference?, isMetaField: Bool) {
        self.definition = definition
        self.outputType = outputType
        self.isMetaField = isMetaField
    }
}

/// The tables of one schema, built from its types at init and rebuilt when the types or
/// the query type change (see `Schema`).
final class SchemaLookup: Sendable {
    struct FieldKey: Hashable {
        let type: String
        let field: String
    }

    /// Type name → kind.
    let kinds: [String: TypeKind]
    /// (composite type, field name) → definition, meta-fields included (graphql-js
    /// `getFieldDef`; the first definition wins when SDL repeats a name).
    let fields: [FieldKey: FieldEntry]
    /// Abstract type → the types `isSubType` accepts: a union's members, an interface's
    /// implementing object and interface types.
    let subTypes: [String: Set<String>]

    init(types: [String: GraphQLNamedType], queryType: String?) {
        var kinds: [String: TypeKind] = [:]
        kinds.reserveCapacity(types.count)
        for (name, type) in types { kinds[name] = TypeKind(type) }
        func outputType(_ type: TypeReference) -> TypeReference? {
            kinds[type.namedType]?.isOutputType ?? false ? type : nil
        }
        func meta(_ definition: FieldDefinitionModel) -> FieldEntry {
            FieldEntry(definition, outputType: outputType(definition.type), isMetaField: true)
        }
        let typename = meta(.typenameMetaField)
        var fields: [FieldKey: FieldEntry] = [:]
        var subTypes: [String: Set<String>] = [:]
        for (name, type) in types {
            switch type {
            case .object(let o):
                for i in o.interfaces where kinds[i] == .interface { subTypes[i, default: []].insert(name) }
            case .interface(let t):
                for i in t.interfaces where kinds[i] == .interface { subTypes[i, default: []].insert(name) }
            case .union(let u):
                subTypes[name, default: []].formUnion(u.types)
            default:
                continue
            }
            for field in type.fields where fields[FieldKey(type: name, field: field.name)] == nil {
                fields[FieldKey(type: name, field: field.name)] = FieldEntry(
                    field, outputType: outputType(field.type), isMetaField: false)
            }
            fields[FieldKey(type: name, field: "__typename")] = typename
        }
        if let queryType {
            fields[FieldKey(type: queryType, field: "__schema")] = meta(.schemaMetaField)
            fields[FieldKey(type: queryType, field: "__type")] = meta(.typeMetaField)
        }
        self.subTypes = subTypes
        self.kinds = kinds
        self.fields = fields
    }

    /// The field `field` of composite type `type`, meta-fields included.
    func field(_ field: String, on type: String) -> FieldEntry? {
        fields[FieldKey(type: type, field: field)]
    }
}
