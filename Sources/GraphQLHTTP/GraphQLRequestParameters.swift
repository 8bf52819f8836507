import GraphQL
import HTTPServer
import HTTPTypes

/// The parameters of a GraphQL-over-HTTP request (GraphQL over HTTP draft, "Request
/// Parameters"): the document text, the operation to run, its variables, and the
/// implementor-reserved `extensions` map.
struct GraphQLRequestParameters: Sendable, Equatable {
    var query: String
    var operationName: String?
    var variables: JSONObject
    var extensions: JSONObject

    /// Why an HTTP request is not a well-formed GraphQL-over-HTTP request (always status 400).
    /// The messages go to the client as `errors[0].message`.
    enum Malformed: Error, Sendable, Equatable {
        case bodyNotJSON(JSONParseError)
        case bodyNotObject
        case missingQuery
        case queryNotString
        case operationNameNotString
        case variablesNotObject
        case variablesNotJSON(JSONParseError)
        case extensionsNotObject
        case extensionsNotJSON(JSONParseError)

        var message: String {
            switch self {
            case .bodyNotJSON(let error):
                "The request body is not valid JSON: \(error.message) (line \(error.line), column \(error.column))."
            case .bodyNotObject: "The request body must be a JSON object with a \"query\" string."
            case .missingQuery: "The request has no \"query\" parameter holding a GraphQL document."
            case .queryNotString: "The \"query\" parameter must be a string."
            case .operationNameNotString: "The \"operationName\" parameter must be a string."
            case .variablesNotObject: "The \"variables\" parameter must be a JSON object."
            case .variablesNotJSON(let error): "The \"variables\" parameter is not valid JSON: \(error.message)."
            case .extensionsNotObject: "The \"extensions\" parameter must be a JSON object."
            case .extensionsNotJSON(let error): "The \"extensions\" parameter is not valid JSON: \(error.message)."
            }
        }
    }

    /// Reads a POST body in the JSON encoding ("JSON Encoding"): an object with `query`
    /// (string, required), `operationName` (string), `variables` and `extensions` (objects).
    /// A `null` entry counts as absent, as the draft says; other keys are ignored (reserved).
    static func fromJSONBody(_ body: [UInt8]) throws(Malformed) -> GraphQLRequestParameters {
        let value: JSONValue
        do {
            value = try JSONReader.parse(body)
        } catch {
            throw .bodyNotJSON(error)
        }
        guard case .object(let object) = value else { throw .bodyNotObject }
        let query: String
        switch object["query"] {
        case .string(let text)?: query = text
        case nil, .null?: throw .missingQuery
        default: throw .queryNotString
        }
        let operationName: String?
        switch object["operationName"] {
        case .string(let name)?: operationName = name
        case nil, .null?: operationName = nil
        default: throw .operationNameNotString
        }
        return GraphQLRequestParameters(
            query: query, operationName: operationName,
            variables: try optionalObject(object["variables"], else: .variablesNotObject),
            extensions: try optionalObject(object["extensions"], else: .extensionsNotObject))
    }

    /// Reads the URL query of a GET request ("GET"): `query`, `operationName` (the empty
    /// string means absent), and `variables` / `extensions` as JSON texts of objects. The
    /// first occurrence of a repeated parameter wins.
    static func fromQueryItems(_ items: [HTTPQueryItem]) throws(Malformed) -> GraphQLRequestParameters {
        func first(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let query = first("query") else { throw .missingQuery }
        let operationName = first("operationName").flatMap { $0.isEmpty ? nil : $0 }
        return GraphQLRequestParameters(
            query: query, operationName: operationName,
            variables: try jsonObject(
                first("variables"), notJSON: { .variablesNotJSON($0) }, else: .variablesNotObject),
            extensions: try jsonObject(
                first("extensions"), notJSON: { .extensionsNotJSON($0) }, else: .extensionsNotObject))
    }

    private static func optionalObject(_ value: JSONValue?, else failure: Malformed) throws(Malformed) -> JSONObject {
        switch value {
        case .object(let object)?: return object
        case nil, .null?: return JSONObject()
        default: throw failure
        }
    }

    private static func jsonObject(
        _ text: String?, notJSON: (JSONParseError) -> Malformed, else failure: Malformed
    ) throws(Malformed) -> JSONObject {
        guard let text, !text.isEmpty else { return JSONObject() }
        let value: JSONValue
        do {
            value = try JSONReader.parse(text)
        } catch {
            throw notJSON(error)
        }
        return try optionalObject(value, else: failure)
    }
}
