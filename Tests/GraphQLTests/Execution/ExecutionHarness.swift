import Testing

@testable import GraphQL

/// Shared helpers for the executor tests: build a schema from SDL, run a document over
/// JSON data, and read the response as compact JSON text.
enum Harness {
    static func schema(_ sdl: String) throws -> Schema {
        try buildSchema(sdl: sdl)
    }

    /// Executes `query` synchronously over `data` (JSON text) and returns the response text.
    static func run(
        _ schema: Schema, _ query: String, data: String = "{}", variables: String? = nil, operation: String? = nil
    ) throws -> String {
        let source = Source(query)
        let document = try parse(source)
        let root = try JSONReader.parse(data)
        var variableValues = JSONObject()
        if let variables, case .object(let object) = try JSONReader.parse(variables) { variableValues = object }
        let result = executeSynchronously(
            schema: schema, document: document, source: source, rootValue: .json(root), variableValues: variableValues,
            operationName: operation)
        return String(decoding: result.serialized(), as: UTF8.self)
    }

    /// Executes `query` with `resolvers` through the async entry point.
    static func runAsync(
        _ schema: Schema, _ query: String, rootValue: FieldValue = .json(.object(JSONObject())),
        resolvers: any ExecutionResolvers, activity: (any ExecutionActivity)? = nil
    ) async throws -> String {
        let source = Source(query)
        let document = try parse(source)
        let result = await execute(
            schema: schema, document: document, source: source, rootValue: rootValue, resolvers: resolvers,
            activity: activity)
        return String(decoding: result.serialized(), as: UTF8.self)
    }
}

/// Resolvers from a table of closures keyed "Type.field".
struct TableResolvers: ExecutionResolvers {
    let table: [String: any FieldResolver]
    func resolver(for field: FieldDefinitionModel, on typeName: String) -> (any FieldResolver)? {
        table["\(typeName).\(field.name)"]
    }
}
