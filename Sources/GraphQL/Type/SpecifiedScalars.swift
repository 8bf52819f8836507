// The five built-in scalars of spec §3.5 (Int, Float, String, Boolean, ID), with the
// descriptions graphql-js gives them, and the table of standard types that SDL may reference
// without defining (built-in scalars and introspection types).

extension ScalarType {
    /// `Int` (§3.5.1): a signed 32-bit integer.
    public static let int = ScalarType(
        name: "Int",
        description:
            "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1."
    )
    /// `Float` (§3.5.2): a finite IEEE 754 double.
    public static let float = ScalarType(
        name: "Float",
        description:
            "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point)."
    )
    /// `String` (§3.5.3): Unicode text.
    public static let string = ScalarType(
        name: "String",
        description:
            "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text."
    )
    /// `Boolean` (§3.5.4).
    public static let boolean = ScalarType(
        name: "Boolean", description: "The `Boolean` scalar type represents `true` or `false`.")
    /// `ID` (§3.5.5): serialized as a String, accepts String or Int input.
    public static let id = ScalarType(
        name: "ID",
        description:
            "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID."
    )

    /// The built-in scalars in graphql-js's order.
    public static let specifiedScalars: [ScalarType] = [.string, .int, .float, .boolean, .id]
}

extension GraphQLNamedType {
    /// Types every schema may reference without defining them: the built-in scalars and the
    /// introspection types (graphql-js `stdTypeMap`). An SDL definition of one of these names
    /// is replaced by the standard type, as graphql-js's `buildASTSchema` does.
    public static let standardTypes: [String: GraphQLNamedType] = {
        var table: [String: GraphQLNamedType] = [:]
        for scalar in ScalarType.specifiedScalars { table[scalar.name] = .scalar(scalar) }
        for type in IntrospectionTypes.all { table[type.name] = type }
        return table
    }()

    /// True for the built-in scalars and the introspection types (graphql-js
    /// `isSpecifiedScalarType || isIntrospectionType`), which `printSchema` leaves out.
    public var isStandardType: Bool {
        switch self {
        case .scalar(let s): s.isSpecified
        default: IntrospectionTypes.names.contains(name)
        }
    }
}
