// The introspection meta-fields (spec §4.1): `__typename` on every composite type, and
// `__schema` / `__type(name:)` on the query root. They are not part of any type's field
// list; validation and execution find them through `fieldDefinition(_:on:)`.

extension FieldDefinitionModel {
    /// `__typename: String!` (§4.3).
    public static let typenameMetaField = FieldDefinitionModel(
        name: "__typename", description: "The name of the current Object type at runtime.",
        type: .nonNull(.named("String")))
    /// `__schema: __Schema!` (§4.2), query root only.
    public static let schemaMetaField = FieldDefinitionModel(
        name: "__schema", description: "Access the current type schema of this server.",
        type: .nonNull(.named("__Schema")))
    /// `__type(name: String!): __Type` (§4.2), query root only.
    public static let typeMetaField = FieldDefinitionModel(
        name: "__type", description: "Request the type information of a single type.",
        arguments: [InputValueModel(name: "name", type: .nonNull(.named("String")))],
        type: .named("__Type"))
}

extension Schema {
    /// The definition of field `fieldName` on composite type `typeName`, including the
    /// meta-fields of §4.1; nil when there is no such field (graphql-js `getFieldDef`).
    public func fieldDefinition(_ fieldName: String, on typeName: String) -> FieldDefinitionModel? {
        lookup.field(fieldName, on: typeName)?.definition
    }
}
