// The built-in directives (spec §3.13.1–§3.13.5): @include, @skip, @deprecated, @specifiedBy
// and @oneOf, with graphql-js 16.15's descriptions and locations (`@deprecated` also applies
// to directive definitions, as introspection of directive deprecation expects).

extension DirectiveModel {
    /// `@include(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT` (§3.13.2).
    public static let include = DirectiveModel(
        name: "include",
        description: "Directs the executor to include this field or fragment only when the `if` argument is true.",
        locations: [.field, .fragmentSpread, .inlineFragment],
        arguments: [InputValueModel(name: "if", description: "Included when true.", type: .nonNull(.named("Boolean")))])

    /// `@skip(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT` (§3.13.1).
    public static let skip = DirectiveModel(
        name: "skip",
        description: "Directs the executor to skip this field or fragment when the `if` argument is true.",
        locations: [.field, .fragmentSpread, .inlineFragment],
        arguments: [InputValueModel(name: "if", description: "Skipped when true.", type: .nonNull(.named("Boolean")))])

    /// The reason `@deprecated` gives when none is written (§3.13.3).
    public static let defaultDeprecationReason = "No longer supported"

    /// `@deprecated(reason: String = "No longer supported") on FIELD_DEFINITION |
    /// ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE | DIRECTIVE_DEFINITION` (§3.13.3).
    public static let deprecated = DirectiveModel(
        name: "deprecated",
        description: "Marks an element of a GraphQL schema as no longer supported.",
        locations: [.fieldDefinition, .argumentDefinition, .inputFieldDefinition, .enumValue, .directiveDefinition],
        arguments: [
            InputValueModel(
                name: "reason",
                description:
                    "Explains why this element was deprecated, usually also including a suggestion for how to access supported similar data. Formatted using the Markdown syntax, as specified by [CommonMark](https://commonmark.org/).",
                type: .named("String"), defaultValue: .string(StringValue(value: defaultDeprecationReason)))
        ])

    /// `@specifiedBy(url: String!) on SCALAR` (§3.13.4).
    public static let specifiedBy = DirectiveModel(
        name: "specifiedBy",
        description: "Exposes a URL that specifies the behavior of this scalar.",
        locations: [.scalar],
        arguments: [
            InputValueModel(
                name: "url", description: "The URL that specifies the behavior of this scalar.",
                type: .nonNull(.named("String")))
        ])

    /// `@oneOf on INPUT_OBJECT` (§3.13.5).
    public static let oneOf = DirectiveModel(
        name: "oneOf",
        description: "Indicates an Input Object is a OneOf Input Object.",
        locations: [.inputObject])

    /// The built-in directives in graphql-js's order.
    public static let specifiedDirectives: [DirectiveModel] = [.include, .skip, .deprecated, .specifiedBy, .oneOf]

    /// True for a built-in directive's name (`printSchema` leaves those out).
    public var isSpecified: Bool {
        DirectiveModel.specifiedDirectives.contains { $0.name == name }
    }
}
