/// CoerceArgumentValues (spec §6.4.1 "Coercing Field Arguments"; graphql-js
/// `getArgumentValues`): the argument values of a field or directive node, from its
/// literals, the coerced variables and the argument defaults.
///
/// Returns a JSON object with one entry per argument that was given or has a default, in
/// definition order.
/// - Throws: `GraphQLError` located at the argument value (or at `node` for a missing
///   required argument), with graphql-js's messages:
///   `Argument "a" of required type "Int!" was not provided.`,
///   `Argument "a" of required type "Int!" was provided the variable "$v" which was not provided a runtime value.`,
///   `Argument "a" of non-null type "Int!" must not be null.`,
///   `Argument "a" has invalid value 1.5.`
func coerceArgumentValues(
    definitions: [InputValueModel], arguments: [Argument], node: Location, variableValues: JSONObject,
    in context: ExecutionContext
) throws(GraphQLError) -> JSONObject {
    var coerced = JSONObject()
    let schema = context.schema
    for definition in definitions {
        let name = definition.name
        let type = definition.type
        guard let argument = arguments.first(where: { $0.name.value == name }) else {
            if let defaultValue = coercedDefault(definition, schema: schema) {
                coerced[name] = defaultValue
            } else if type.isNonNull {
                throw GraphQLError(
                    "Argument \"\(name)\" of required type \"\(type)\" was not provided.",
                    locations: context.locations(of: [node]))
            }
            continue
        }
        let valueNode = argument.value
        var isNull = false
        if case .null = valueNode { isNull = true }
        if case .variable(let variable) = valueNode {
            let variableName = variable.name.value
            guard let value = variableValues[variableName] else {
                if let defaultValue = coercedDefault(definition, schema: schema) {
                    coerced[name] = defaultValue
                } else if type.isNonNull {
                    throw GraphQLError(
                        "Argument \"\(name)\" of required type \"\(type)\" was provided the variable \"$\(variableName)\" which was not provided a runtime value.",
                        locations: context.locations(of: [valueNode.loc]))
                }
                continue
            }
            isNull = value == .null
        }
        if isNull && type.isNonNull {
            throw GraphQLError(
                "Argument \"\(name)\" of non-null type \"\(type)\" must not be null.",
                locations: context.locations(of: [valueNode.loc]))
        }
        guard let value = valueFromAST(valueNode, type: type, schema: schema, variables: variableValues) else {
            throw GraphQLError(
                "Argument \"\(name)\" has invalid value \(print(valueNode)).",
                locations: context.locations(of: [valueNode.loc]))
        }
        coerced[name] = value
    }
    return coerced
}

/// An argument's or input field's default value, coerced (graphql-js coerces SDL defaults
/// when it builds the schema; an invalid default counts as no default).
func coercedDefault(_ definition: InputValueModel, schema: Schema) -> JSONValue? {
    guard let literal = definition.defaultValue else { return nil }
    return valueFromAST(literal, type: definition.type, schema: schema, variables: nil)
}
