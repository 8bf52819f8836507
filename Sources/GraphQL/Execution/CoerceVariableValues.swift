/// CoerceVariableValues (spec §6.1.2 "Coercing Variable Values"; graphql-js
/// `getVariableValues`): the operation's variable values from the request's `inputs`.
///
/// Absent and null stay apart: an absent variable takes its definition's default (or
/// stays absent), an explicit null stays null. Inputs for variables the operation does not
/// define are ignored.
/// - Returns: the coerced values, or every error found (stopping after `maxErrors`, like
///   graphql-js, with `Too many errors processing variables, error limit reached.
///   Execution aborted.`). Each error is located at its variable definition, with messages
///   such as `Variable "$v" of required type "Int!" was not provided.`,
///   `Variable "$v" of non-null type "Int!" must not be null.` and
///   `Variable "$f" got invalid value "LP" at "f.kinds[1]"; Value "LP" does not exist in "ReleaseKind" enum.`
public func coerceVariableValues(
    schema: Schema, operation: OperationDefinition, inputs: JSONObject, source: Source, maxErrors: Int = 50
) -> Result<JSONObject, RequestErrors> {
    var errors: [GraphQLError] = []
    var coerced = JSONObject()
    struct Abort: Error {}
    func report(_ error: GraphQLError) throws(Abort) {
        if errors.count >= maxErrors {
            errors.append(GraphQLError("Too many errors processing variables, error limit reached. Execution aborted."))
            throw Abort()
        }
        errors.append(error)
    }
    do {
        for definition in operation.variableDefinitions {
            let name = definition.variable.name.value
            // Found only when an error needs them: locating scans the source from its start.
            var locations: [SourceLocation] {
                [definition.loc].filter { $0.start >= 0 }.map { source.location(of: $0.start) }
            }
            let type = typeReference(definition.type)
            guard schema.types[type.namedType]?.isInputType == true else {
                try report(
                    GraphQLError(
                        "Variable \"$\(name)\" expected value of type \"\(type)\" which cannot be used as an input type.",
                        locations: [definition.type.loc].filter { $0.start >= 0 }.map { source.location(of: $0.start) })
                )
                continue
            }
            guard let value = inputs[name] else {
                if let literal = definition.defaultValue {
                    if let defaultValue = valueFromAST(literal, type: type, schema: schema, variables: nil) {
                        coerced[name] = defaultValue
                    }
                } else if type.isNonNull {
                    try report(
                        GraphQLError(
                            "Variable \"$\(name)\" of required type \"\(type)\" was not provided.", locations: locations
                        ))
                }
                continue
            }
            if value == .null && type.isNonNull {
                try report(
                    GraphQLError(
                        "Variable \"$\(name)\" of non-null type \"\(type)\" must not be null.", locations: locations))
                continue
            }
            var problems: [GraphQLError] = []
            let coercion = InputCoercion(schema: schema) { path, invalid, message in
                var prefix = "Variable \"$\(name)\" got invalid value \(inspect(invalid))"
                if !path.isEmpty { prefix += " at \"\(name)\(printPath(path))\"" }
                problems.append(GraphQLError(prefix + "; " + message, locations: locations))
            }
            let result = coercion.coerce(value, to: type)
            for problem in problems { try report(problem) }
            if problems.isEmpty { coerced[name] = result }
        }
    } catch {
        return .failure(RequestErrors(errors))
    }
    return errors.isEmpty ? .success(coerced) : .failure(RequestErrors(errors))
}

/// `.a.b[1]` form of a path inside a value (graphql-js `printPathArray`).
private func printPath(_ path: [PathComponent]) -> String {
    path.map {
        switch $0 {
        case .key(let k): "." + k
        case .index(let i): "[\(i)]"
        }
    }.joined()
}

/// The schema type a document's type node names (graphql-js `typeFromAST`, unchecked).
func typeReference(_ node: TypeNode) -> TypeReference {
    switch node {
    case .named(let t): .named(t.name.value)
    case .list(let t): .list(typeReference(t.type))
    case .nonNull(let t): .nonNull(typeReference(t.type))
    }
}

/// Request errors (spec §7.1.2 "Request Errors"): execution does not start.
public struct RequestErrors: Error, Sendable {
    public let errors: [GraphQLError]
    init(_ errors: [GraphQLError]) { self.errors = errors }
}
