// The resolvers of the introspection system (spec §4.2 "Schema Introspection"), run by the
// same executor as every other field: `__schema` and `__type(name:)` on the query root,
// and the fields of `__Schema`, `__Type`, `__Field`, `__InputValue`, `__EnumValue` and
// `__Directive`. The introspection *types* are part of `schema.types` (the schema
// builder adds them); this file answers their fields, all synchronously.

/// A schema element as the source value of an introspection object.
enum IntrospectionValue: Sendable {
    case schema
    /// A named type or a wrapper (`__Type` covers both; §4.2.3).
    case type(TypeReference)
    case field(FieldDefinitionModel)
    case inputValue(InputValueModel)
    case enumValue(EnumValueModel)
    case directive(DirectiveModel)
}

/// The built-in resolver for `field` of `typeName`, or nil when it is not an
/// introspection field (so application resolvers can never shadow introspection).
func introspectionResolver(field: String, on typeName: String, schema: Schema) -> (any FieldResolver)? {
    if typeName == schema.queryType {
        switch field {
        case "__schema": return IntrospectionResolver { _, _, _ in .host(IntrospectionValue.schema) }
        case "__type":
            return IntrospectionResolver { _, arguments, schema in
                guard case .string(let name)? = arguments["name"], schema.types[name] != nil else { return .null }
                return .host(IntrospectionValue.type(.named(name)))
            }
        default: break
        }
    }
    guard typeName.hasPrefix("__") else { return nil }
    switch (typeName, field) {
    case ("__Schema", _): return schemaFieldResolver(field)
    case ("__Type", _): return typeFieldResolver(field)
    case ("__Field", _), ("__InputValue", _), ("__EnumValue", _), ("__Directive", _):
        return memberFieldResolver(field)
    default: return nil
    }
}

/// A synchronous introspection resolver over the source's `IntrospectionValue`.
private struct IntrospectionResolver: FieldResolver {
    let body: @Sendable (IntrospectionValue?, JSONObject, Schema) -> FieldValue

    func resolve(source: FieldValue, arguments: JSONObject, info: ResolveInfo) throws -> Resolution {
        var value: IntrospectionValue? = nil
        if case .hostBox(let box) = source { value = box.value as? IntrospectionValue }
        return .value(body(value, arguments, info.schema))
    }
}

private func includeDeprecated(_ arguments: JSONObject) -> Bool {
    arguments["includeDeprecated"] == .bool(true)
}

private func hosts(_ values: [IntrospectionValue]) -> FieldValue {
    .list(values.map { .host($0) })
}

private func string(_ text: String?) -> FieldValue {
    text.map { .json(.string($0)) } ?? .null
}

// MARK: - __Schema (§4.2.2)

private func schemaFieldResolver(_ field: String) -> (any FieldResolver)? {
    switch field {
    case "description": return IntrospectionResolver { _, _, schema in string(schema.description) }
    case "types":
        return IntrospectionResolver { _, _, schema in hosts(schema.typeNames.map { .type(.named($0)) }) }
    case "queryType":
        return IntrospectionResolver { _, _, schema in
            schema.queryType.map { .host(IntrospectionValue.type(.named($0))) } ?? .null
        }
    case "mutationType":
        return IntrospectionResolver { _, _, schema in
            schema.mutationType.map { .host(IntrospectionValue.type(.named($0))) } ?? .null
        }
    case "subscriptionType":
        return IntrospectionResolver { _, _, schema in
            schema.subscriptionType.map { .host(IntrospectionValue.type(.named($0))) } ?? .null
        }
    case "directives":
        return IntrospectionResolver { _, arguments, schema in
            let all = includeDeprecated(arguments)
            return hosts(schema.directives.filter { all || $0.deprecationReason == nil }.map { .directive($0) })
        }
    default: return nil
    }
}

// MARK: - __Type (§4.2.3)

private func typeFieldResolver(_ field: String) -> (any FieldResolver)? {
    switch field {
    case "kind":
        return IntrospectionResolver { value, _, schema in
            guard case .type(let ref)? = value else { return .null }
            switch ref {
            case .list: return .json(.string("LIST"))
            case .nonNull: return .json(.string("NON_NULL"))
            case .named(let name): return string(schema.types[name]?.kind)
            }
        }
    case "name":
        return IntrospectionResolver { value, _, _ in
            guard case .type(.named(let name))? = value else { return .null }
            return string(name)
        }
    case "description":
        return IntrospectionResolver { value, _, schema in string(namedType(value, schema)?.description) }
    case "specifiedByURL":
        return IntrospectionResolver { value, _, schema in
            guard case .scalar(let scalar)? = namedType(value, schema) else { return .null }
            return string(scalar.specifiedByURL)
        }
    case "fields":
        return IntrospectionResolver { value, arguments, schema in
            guard let type = namedType(value, schema), type.isCompositeType, !type.isAbstractType || isInterface(type)
            else { return .null }
            let all = includeDeprecated(arguments)
            return hosts(type.fields.filter { all || $0.deprecationReason == nil }.map { .field($0) })
        }
    case "interfaces":
        return IntrospectionResolver { value, _, schema in
            switch namedType(value, schema) {
            case .object(let t)?: return hosts(t.interfaces.map { .type(.named($0)) })
            case .interface(let t)?: return hosts(t.interfaces.map { .type(.named($0)) })
            default: return .null
            }
        }
    case "possibleTypes":
        return IntrospectionResolver { value, _, schema in
            guard let type = namedType(value, schema), type.isAbstractType else { return .null }
            return hosts(schema.possibleTypes(of: type.name).map { .type(.named($0)) })
        }
    case "enumValues":
        return IntrospectionResolver { value, arguments, schema in
            guard case .enumType(let t)? = namedType(value, schema) else { return .null }
            let all = includeDeprecated(arguments)
            return hosts(t.values.filter { all || $0.deprecationReason == nil }.map { .enumValue($0) })
        }
    case "inputFields":
        return IntrospectionResolver { value, arguments, schema in
            guard case .inputObject(let t)? = namedType(value, schema) else { return .null }
            let all = includeDeprecated(arguments)
            return hosts(t.fields.filter { all || $0.deprecationReason == nil }.map { .inputValue($0) })
        }
    case "ofType":
        return IntrospectionResolver { value, _, _ in
            switch value {
            case .type(.list(let inner))?, .type(.nonNull(let inner))?: return .host(IntrospectionValue.type(inner))
            default: return .null
            }
        }
    case "isOneOf":
        return IntrospectionResolver { value, _, schema in
            guard case .inputObject(let t)? = namedType(value, schema) else { return .null }
            return .json(.bool(t.isOneOf))
        }
    default: return nil
    }
}

private func namedType(_ value: IntrospectionValue?, _ schema: Schema) -> GraphQLNamedType? {
    guard case .type(.named(let name))? = value else { return nil }
    return schema.types[name]
}

private func isInterface(_ type: GraphQLNamedType) -> Bool {
    if case .interface = type { return true }
    return false
}

// MARK: - __Field, __InputValue, __EnumValue, __Directive (§4.2.4–§4.2.7)

private func memberFieldResolver(_ field: String) -> (any FieldResolver)? {
    switch field {
    case "name":
        return IntrospectionResolver { value, _, _ in
            switch value {
            case .field(let f)?: string(f.name)
            case .inputValue(let v)?: string(v.name)
            case .enumValue(let v)?: string(v.name)
            case .directive(let d)?: string(d.name)
            default: .null
            }
        }
    case "description":
        return IntrospectionResolver { value, _, _ in
            switch value {
            case .field(let f)?: string(f.description)
            case .inputValue(let v)?: string(v.description)
            case .enumValue(let v)?: string(v.description)
            case .directive(let d)?: string(d.description)
            default: .null
            }
        }
    case "isDeprecated":
        return IntrospectionResolver { value, _, _ in
            guard let reason = deprecation(value) else { return .null }
            return .json(.bool(reason != nil))
        }
    case "deprecationReason":
        return IntrospectionResolver { value, _, _ in string(deprecation(value) ?? nil) }
    case "args":
        return IntrospectionResolver { value, arguments, _ in
            let all = includeDeprecated(arguments)
            switch value {
            case .field(let f)?:
                return hosts(f.arguments.filter { all || $0.deprecationReason == nil }.map { .inputValue($0) })
            case .directive(let d)?:
                return hosts(d.arguments.filter { all || $0.deprecationReason == nil }.map { .inputValue($0) })
            default: return .null
            }
        }
    case "type":
        return IntrospectionResolver { value, _, _ in
            switch value {
            case .field(let f)?: .host(IntrospectionValue.type(f.type))
            case .inputValue(let v)?: .host(IntrospectionValue.type(v.type))
            default: .null
            }
        }
    case "defaultValue":
        // The coerced default printed back as a literal, exactly as printSchema shows it.
        return IntrospectionResolver { value, _, schema in
            guard case .inputValue(let input)? = value, let literal = schema.defaultValueLiteral(of: input) else {
                return .null
            }
            return .json(.string(print(literal)))
        }
    case "isRepeatable":
        return IntrospectionResolver { value, _, _ in
            guard case .directive(let d)? = value else { return .null }
            return .json(.bool(d.isRepeatable))
        }
    case "locations":
        return IntrospectionResolver { value, _, _ in
            guard case .directive(let d)? = value else { return .null }
            return .json(.array(d.locations.map { .string($0.rawValue) }))
        }
    default: return nil
    }
}

/// The deprecation reason of a deprecatable member: `.some(nil)` when not deprecated,
/// nil when `value` cannot be deprecated.
private func deprecation(_ value: IntrospectionValue?) -> String?? {
    switch value {
    case .field(let f)?: .some(f.deprecationReason)
    case .inputValue(let v)?: .some(v.deprecationReason)
    case .enumValue(let v)?: .some(v.deprecationReason)
    case .directive(let d)?: .some(d.deprecationReason)
    default: nil
    }
}
