// The introspection types of spec §4.2 ("Schema Introspection"), defined exactly as
// graphql-js 16.15 defines them: field order, argument defaults and descriptions are part of
// what an introspection result shows. They belong to every schema's `types` (Schema's
// initializer adds them), so validation and execution look them up like any other type;
// resolving them is the executor's job.

/// `__Schema`, `__Type`, `__Field`, `__InputValue`, `__EnumValue`, `__Directive`,
/// `__TypeKind` and `__DirectiveLocation` (§4.2.1 "The __Schema Type" … "The __Directive Type").
public enum IntrospectionTypes {
    /// `includeDeprecated: Boolean = false` (or `Boolean! = false` on `__Schema.directives`).
    private static func includeDeprecatedArgument(_ type: TypeReference) -> InputValueModel {
        InputValueModel(name: "includeDeprecated", type: type, defaultValue: .boolean(BooleanValue(value: false)))
    }

    /// `__Schema`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __Schema = GraphQLNamedType.object(
        ObjectType(
            name: "__Schema",
            description:
                "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all available types and directives on the server, as well as the entry points for query, mutation, and subscription operations.",
            fields: [
                FieldDefinitionModel(name: "description", type: .named("String")),
                FieldDefinitionModel(
                    name: "types",
                    description: "A list of all types supported by this server.",
                    type: .nonNull(.list(.nonNull(.named("__Type"))))
                ),
                FieldDefinitionModel(
                    name: "queryType",
                    description: "The type that query operations will be rooted at.",
                    type: .nonNull(.named("__Type"))
                ),
                FieldDefinitionModel(
                    name: "mutationType",
                    description:
                        "If this server supports mutation, the type that mutation operations will be rooted at.",
                    type: .named("__Type")
                ),
                FieldDefinitionModel(
                    name: "subscriptionType",
                    description:
                        "If this server supports subscription, the type that subscription operations will be rooted at.",
                    type: .named("__Type")
                ),
                FieldDefinitionModel(
                    name: "directives",
                    description: "A list of all directives supported by this server.",
                    arguments: [includeDeprecatedArgument(.nonNull(.named("Boolean")))],
                    type: .nonNull(.list(.nonNull(.named("__Directive"))))
                ),
            ]))

    /// `__Type`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __Type = GraphQLNamedType.object(
        ObjectType(
            name: "__Type",
            description:
                "The fundamental unit of any GraphQL Schema is the type. There are many kinds of types in GraphQL as represented by the `__TypeKind` enum.\n\nDepending on the kind of a type, certain fields describe information about that type. Scalar types provide no information beyond a name, description and optional `specifiedByURL`, while Enum types provide their values. Object and Interface types provide the fields they describe. Abstract types, Union and Interface, provide the Object types possible at runtime. List and NonNull types compose other types.",
            fields: [
                FieldDefinitionModel(name: "kind", type: .nonNull(.named("__TypeKind"))),
                FieldDefinitionModel(name: "name", type: .named("String")),
                FieldDefinitionModel(name: "description", type: .named("String")),
                FieldDefinitionModel(name: "specifiedByURL", type: .named("String")),
                FieldDefinitionModel(
                    name: "fields",
                    arguments: [includeDeprecatedArgument(.named("Boolean"))],
                    type: .list(.nonNull(.named("__Field")))
                ),
                FieldDefinitionModel(name: "interfaces", type: .list(.nonNull(.named("__Type")))),
                FieldDefinitionModel(name: "possibleTypes", type: .list(.nonNull(.named("__Type")))),
                FieldDefinitionModel(
                    name: "enumValues",
                    arguments: [includeDeprecatedArgument(.named("Boolean"))],
                    type: .list(.nonNull(.named("__EnumValue")))
                ),
                FieldDefinitionModel(
                    name: "inputFields",
                    arguments: [includeDeprecatedArgument(.named("Boolean"))],
                    type: .list(.nonNull(.named("__InputValue")))
                ),
                FieldDefinitionModel(name: "ofType", type: .named("__Type")),
                FieldDefinitionModel(name: "isOneOf", type: .named("Boolean")),
            ]))

    /// `__TypeKind`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __TypeKind = GraphQLNamedType.enumType(
        EnumType(
            name: "__TypeKind",
            description: "An enum describing what kind of type a given `__Type` is.",
            values: [
                EnumValueModel(name: "SCALAR", description: "Indicates this type is a scalar."),
                EnumValueModel(
                    name: "OBJECT",
                    description: "Indicates this type is an object. `fields` and `interfaces` are valid fields."
                ),
                EnumValueModel(
                    name: "INTERFACE",
                    description:
                        "Indicates this type is an interface. `fields`, `interfaces`, and `possibleTypes` are valid fields."
                ),
                EnumValueModel(
                    name: "UNION", description: "Indicates this type is a union. `possibleTypes` is a valid field."),
                EnumValueModel(
                    name: "ENUM", description: "Indicates this type is an enum. `enumValues` is a valid field."),
                EnumValueModel(
                    name: "INPUT_OBJECT",
                    description: "Indicates this type is an input object. `inputFields` is a valid field."
                ),
                EnumValueModel(name: "LIST", description: "Indicates this type is a list. `ofType` is a valid field."),
                EnumValueModel(
                    name: "NON_NULL", description: "Indicates this type is a non-null. `ofType` is a valid field."),
            ]))

    /// `__Field`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __Field = GraphQLNamedType.object(
        ObjectType(
            name: "__Field",
            description:
                "Object and Interface types are described by a list of Fields, each of which has a name, potentially a list of arguments, and a return type.",
            fields: [
                FieldDefinitionModel(name: "name", type: .nonNull(.named("String"))),
                FieldDefinitionModel(name: "description", type: .named("String")),
                FieldDefinitionModel(
                    name: "args",
                    arguments: [includeDeprecatedArgument(.named("Boolean"))],
                    type: .nonNull(.list(.nonNull(.named("__InputValue"))))
                ),
                FieldDefinitionModel(name: "type", type: .nonNull(.named("__Type"))),
                FieldDefinitionModel(name: "isDeprecated", type: .nonNull(.named("Boolean"))),
                FieldDefinitionModel(name: "deprecationReason", type: .named("String")),
            ]))

    /// `__InputValue`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __InputValue = GraphQLNamedType.object(
        ObjectType(
            name: "__InputValue",
            description:
                "Arguments provided to Fields or Directives and the input fields of an InputObject are represented as Input Values which describe their type and optionally a default value.",
            fields: [
                FieldDefinitionModel(name: "name", type: .nonNull(.named("String"))),
                FieldDefinitionModel(name: "description", type: .named("String")),
                FieldDefinitionModel(name: "type", type: .nonNull(.named("__Type"))),
                FieldDefinitionModel(
                    name: "defaultValue",
                    description: "A GraphQL-formatted string representing the default value for this input value.",
                    type: .named("String")
                ),
                FieldDefinitionModel(name: "isDeprecated", type: .nonNull(.named("Boolean"))),
                FieldDefinitionModel(name: "deprecationReason", type: .named("String")),
            ]))

    /// `__EnumValue`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __EnumValue = GraphQLNamedType.object(
        ObjectType(
            name: "__EnumValue",
            description:
                "One possible value for a given Enum. Enum values are unique values, not a placeholder for a string or numeric value. However an Enum value is returned in a JSON response as a string.",
            fields: [
                FieldDefinitionModel(name: "name", type: .nonNull(.named("String"))),
                FieldDefinitionModel(name: "description", type: .named("String")),
                FieldDefinitionModel(name: "isDeprecated", type: .nonNull(.named("Boolean"))),
                FieldDefinitionModel(name: "deprecationReason", type: .named("String")),
            ]))

    /// `__Directive`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __Directive = GraphQLNamedType.object(
        ObjectType(
            name: "__Directive",
            description:
                "A Directive provides a way to describe alternate runtime execution and type validation behavior in a GraphQL document.\n\nIn some cases, you need to provide options to alter GraphQL's execution behavior in ways field arguments will not suffice, such as conditionally including or skipping a field. Directives provide this by describing additional information to the executor.",
            fields: [
                FieldDefinitionModel(name: "name", type: .nonNull(.named("String"))),
                FieldDefinitionModel(name: "description", type: .named("String")),
                FieldDefinitionModel(name: "isRepeatable", type: .nonNull(.named("Boolean"))),
                FieldDefinitionModel(name: "locations", type: .nonNull(.list(.nonNull(.named("__DirectiveLocation"))))),
                FieldDefinitionModel(
                    name: "args",
                    arguments: [includeDeprecatedArgument(.named("Boolean"))],
                    type: .nonNull(.list(.nonNull(.named("__InputValue"))))
                ),
                FieldDefinitionModel(name: "isDeprecated", type: .nonNull(.named("Boolean"))),
                FieldDefinitionModel(name: "deprecationReason", type: .named("String")),
            ]))

    /// `__DirectiveLocation`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The spec names the introspection types; the constants keep those names.
    public static let __DirectiveLocation = GraphQLNamedType.enumType(
        EnumType(
            name: "__DirectiveLocation",
            description:
                "A Directive can be adjacent to many parts of the GraphQL language, a __DirectiveLocation describes one such possible adjacencies.",
            values: [
                EnumValueModel(name: "QUERY", description: "Location adjacent to a query operation."),
                EnumValueModel(name: "MUTATION", description: "Location adjacent to a mutation operation."),
                EnumValueModel(name: "SUBSCRIPTION", description: "Location adjacent to a subscription operation."),
                EnumValueModel(name: "FIELD", description: "Location adjacent to a field."),
                EnumValueModel(name: "FRAGMENT_DEFINITION", description: "Location adjacent to a fragment definition."),
                EnumValueModel(name: "FRAGMENT_SPREAD", description: "Location adjacent to a fragment spread."),
                EnumValueModel(name: "INLINE_FRAGMENT", description: "Location adjacent to an inline fragment."),
                EnumValueModel(name: "VARIABLE_DEFINITION", description: "Location adjacent to a variable definition."),
                EnumValueModel(name: "SCHEMA", description: "Location adjacent to a schema definition."),
                EnumValueModel(name: "SCALAR", description: "Location adjacent to a scalar definition."),
                EnumValueModel(name: "OBJECT", description: "Location adjacent to an object type definition."),
                EnumValueModel(name: "FIELD_DEFINITION", description: "Location adjacent to a field definition."),
                EnumValueModel(
                    name: "ARGUMENT_DEFINITION", description: "Location adjacent to an argument definition."),
                EnumValueModel(name: "INTERFACE", description: "Location adjacent to an interface definition."),
                EnumValueModel(name: "UNION", description: "Location adjacent to a union definition."),
                EnumValueModel(name: "ENUM", description: "Location adjacent to an enum definition."),
                EnumValueModel(name: "ENUM_VALUE", description: "Location adjacent to an enum value definition."),
                EnumValueModel(
                    name: "INPUT_OBJECT", description: "Location adjacent to an input object type definition."),
                EnumValueModel(
                    name: "INPUT_FIELD_DEFINITION",
                    description: "Location adjacent to an input object field definition."
                ),
                EnumValueModel(
                    name: "DIRECTIVE_DEFINITION", description: "Location adjacent to a directive definition."),
            ]))

    /// All eight, in graphql-js's type-map order.
    public static let all: [GraphQLNamedType] = [
        __Schema, __Type, __TypeKind, __Field, __InputValue, __EnumValue, __Directive, __DirectiveLocation,
    ]

    /// The names of `all`.
    public static let names: Set<String> = Set(all.map(\.name))
}
