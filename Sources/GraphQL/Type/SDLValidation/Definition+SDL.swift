// Small views of SDL definitions shared by SDL validation and the schema builder.

/// The six kinds of named type, as SDL definitions and extensions name them.
enum SDLTypeKind: String {
    case scalar, object, interface, union
    case enumType = "enum"
    case inputObject = "input object"
}

extension Definition {
    /// The name and kind of a type definition (`type`, `scalar`, …); nil for anything else.
    var typeDefinition: (name: Name, kind: SDLTypeKind)? {
        switch self {
        case .scalarType(let d): (d.name, .scalar)
        case .objectType(let d): (d.name, .object)
        case .interfaceType(let d): (d.name, .interface)
        case .unionType(let d): (d.name, .union)
        case .enumType(let d): (d.name, .enumType)
        case .inputObjectType(let d): (d.name, .inputObject)
        default: nil
        }
    }

    /// The name and kind of a type extension (`extend type`, …); nil for anything else.
    var typeExtension: (name: Name, kind: SDLTypeKind)? {
        switch self {
        case .scalarTypeExtension(let d): (d.name, .scalar)
        case .objectTypeExtension(let d): (d.name, .object)
        case .interfaceTypeExtension(let d): (d.name, .interface)
        case .unionTypeExtension(let d): (d.name, .union)
        case .enumTypeExtension(let d): (d.name, .enumType)
        case .inputObjectTypeExtension(let d): (d.name, .inputObject)
        default: nil
        }
    }
}

extension TypeNode {
    /// True for `T!`: with no default value, such an argument is required.
    var isNonNullReference: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The model's form of this type reference: `[Track!]!` → `.nonNull(.list(.nonNull(.named("Track"))))`.
    var asTypeReference: TypeReference {
        switch self {
        case .named(let t): .named(t.name.value)
        case .list(let t): .list(t.type.asTypeReference)
        case .nonNull(let t): .nonNull(t.type.asTypeReference)
        }
    }
}
